package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// Change IDs of workflow.GetVersion (docs/design.md §7).
const (
	// ChangeDurableWait: a wait todo ("Wait until 21:00") and an executor
	// Wait longer than DurableWaitAfter are workflow timers, with the
	// phone given back meanwhile; before it a wait todo ran as an ordinary
	// todo and every Wait slept inside the Step activity (capped).
	ChangeDurableWait = "durable-wait"
	// ChangeReleaseForPerson: a question or approval that has waited
	// ReleasePhoneAfter gives the phone back until it is answered.
	ChangeReleaseForPerson = "release-phone-for-person"
)

// Phone operations a running todo asks of its goal; the goal's phone
// goroutine runs them one at a time, in the order asked.
type phoneOp struct {
	Release bool // true: give the phone back; false: get it again
	Seq     int  // the todo's request, echoed by SignalPhoneHeld
}

// errPhoneLost ends a goal that gave its phone back and could not get it
// again (the lease refused, or the phone is gone).
type errPhoneLost struct{ err error }

func (e *errPhoneLost) Error() string { return "phone not given back after the wait: " + e.err.Error() }
func (e *errPhoneLost) Unwrap() error { return e.err }

// releasePhone gives the goal's phone back while it waits (a no-op when it
// holds none).
func (g *goalRun) releasePhone(ctx workflow.Context) {
	if g.release == nil {
		return
	}
	g.release(ctx)
	g.release, g.phoneReleased = nil, true
	workflow.GetLogger(ctx).Info("phone given back while waiting", "device", g.in.Device)
	g.refresh(ctx)
}

// reacquirePhone gets the phone back after releasePhone, queueing behind
// any goal that took it meanwhile (status waiting_for shows the holder).
func (g *goalRun) reacquirePhone(ctx workflow.Context) error {
	if !g.phoneReleased || DeviceLease == nil {
		return nil
	}
	// A device_wait such as "10m" bounds this wait as it bounds the first.
	lctx, bw := g.boundedReacquire(ctx)
	rel, err := g.leaseServedPhone(lctx, true, func(s string) {
		if bw != nil && bw.busy(ctx, s) {
			return
		}
		switch {
		case s != "" && g.revokedWhy != "":
			s = "the phone back (" + g.revokedWhy + "): " + s
		case s != "":
			s = "the phone back after waiting: " + s
		}
		g.waiting = s
		g.refresh(ctx)
	})
	if bw != nil {
		bw.done(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if bw != nil && bw.timedOut {
			return &errPhoneLost{&errWaitedOut{bw.result(ctx)}}
		}
		return &errPhoneLost{err}
	}
	g.release, g.phoneReleased, g.waiting, g.revokedWhy = rel, false, "", ""
	g.refresh(ctx)
	return nil
}

// runPhoneOps serves the running todo's requests to give the phone back
// and get it again. It runs as its own coroutine so the goal's signal
// loop never blocks on the lease queue.
func (g *goalRun) runPhoneOps(ctx workflow.Context) {
	for {
		var op phoneOp
		if !g.phoneOps.Receive(ctx, &op) || ctx.Err() != nil {
			return
		}
		if op.Release {
			g.releasePhone(ctx)
			continue
		}
		child := g.child
		if err := g.reacquirePhone(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			workflow.GetLogger(ctx).Warn("phone not given back", "device", g.in.Device, "error", err)
			g.phoneLost = err
		}
		if child == "" {
			continue
		}
		// The todo goes on either way: with the phone lost, the goal
		// fails once the todo ends (its next device step fails).
		var held any = op.Seq
		if getVersion(ctx, ChangeLeaseToken, workflow.DefaultVersion, 1) >= 1 {
			// The todo's next steps carry the token of the grant the goal
			// now holds (docs/design.md §5).
			held = phoneHeld{Seq: op.Seq, Token: g.lease.Token}
		}
		if err := workflow.SignalExternalWorkflow(ctx, child, "", SignalPhoneHeld, held).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Warn("phone_held not delivered", "todo", child, "error", err)
		}
	}
}

// waitResolution is a wait todo's end, computed once (a SideEffect: the
// time zone database is read only then, never on replay).
type waitResolution struct {
	At    time.Time `json:"at"`
	Local string    `json:"local"` // the end in the user's zone: "21:00 CST"
	Err   string    `json:"err,omitempty"`
}

// resolveWait turns w into an instant for a goal in zone tz.
func resolveWait(ctx workflow.Context, w waits.Wait, tz string) waitResolution {
	now := workflow.Now(ctx)
	var r waitResolution
	enc := workflow.SideEffect(ctx, func(workflow.Context) any {
		loc, err := waits.Zone(tz)
		if err != nil {
			return waitResolution{Err: err.Error()}
		}
		at, err := w.Until(now, loc)
		if err != nil {
			msg := fmt.Sprintf("cannot wait until %s: %v", w, err)
			if errors.Is(err, waits.ErrPast) {
				msg += "; give a time still ahead (\"tomorrow 21:00\", or a time of day without \"today\")"
			}
			return waitResolution{Err: msg}
		}
		return waitResolution{At: at.UTC(), Local: at.Format("15:04 MST") + dayNote(now.In(loc), at)}
	})
	if err := enc.Get(&r); err != nil {
		r.Err = "cannot read the wait's end: " + err.Error()
	}
	return r
}

// dayNote names the day of at when it is not today.
func dayNote(now, at time.Time) string {
	y1, m1, d1 := now.Date()
	y2, m2, d2 := at.Date()
	switch {
	case y1 == y2 && m1 == m2 && d1 == d2:
		return ""
	case time.Date(y1, m1, d1+1, 0, 0, 0, 0, time.UTC).Equal(time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC)):
		return " tomorrow"
	}
	return " on " + at.Format("2006-01-02")
}

// waitingUntil is the status line a wait writes when it starts: "waiting
// until 21:00 CST (20 min from 20:40 UTC)". The workflow's clock stands
// still while it sleeps, so the time left is counted by readers (WaitLine).
func waitingUntil(local string, at, now time.Time, released bool) string {
	s := fmt.Sprintf("waiting until %s (%s from %s)", local, humanDuration(at.Sub(now)), now.UTC().Format("15:04 UTC"))
	if released {
		s += "; the phone is free meanwhile"
	}
	return s
}

// WaitLine is what a reader shows for a goal waiting for a time, counted
// from now: "waiting until 21:00 CST (in 12 min); the phone is free
// meanwhile". It is "" when the status has no wait for a time.
func WaitLine(s Status, now time.Time) string {
	if s.WaitUntil.IsZero() {
		return ""
	}
	label := s.WaitLabel
	if label == "" {
		label = s.WaitUntil.UTC().Format("15:04 UTC")
	}
	left := "due now"
	if d := s.WaitUntil.Sub(now); d > 0 {
		left = "in " + humanDuration(d)
	}
	line := fmt.Sprintf("waiting until %s (%s)", label, left)
	if s.PhoneReleased {
		line += "; the phone is free meanwhile"
	}
	return line
}

// humanDuration writes d the way people say it: "12 min", "2 h 5 min", "40 s".
func humanDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
	}
	d = d.Round(time.Minute)
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// waitTodo runs todo i, a wait (docs/design.md §7): a timer in history, no
// child workflow and no activity, the phone given back while it lasts
// (unless KeepPhoneDuringWaits or the wait is short) and leased again after.
// A wait that cannot be read or has passed fails the todo with the fix;
// the replanner decides what next.
func (g *goalRun) waitTodo(ctx workflow.Context, i int, w waits.Wait, werr error) (TodoResult, error) {
	t := &g.st.Todos[i]
	t.Status = TodoRunning
	t.Attempts++
	g.todo, g.todoStep = i+1, 0
	if werr != nil {
		return TodoResult{Status: TodoFailed, Result: werr.Error()}, nil
	}
	r := resolveWait(ctx, w, g.opts.TimeZone)
	if r.Err != "" {
		return TodoResult{Status: TodoFailed, Result: r.Err}, nil
	}
	now := workflow.Now(ctx)
	d := r.At.Sub(now)
	if d > 0 {
		if d > g.opts.DurableWaitAfter && !g.opts.KeepPhoneDuringWaits {
			g.releasePhone(ctx)
		}
		g.waitUntil, g.waitLabel = r.At, r.Local
		g.waiting = waitingUntil(r.Local, r.At, now, g.phoneReleased)
		g.refresh(ctx)
		err := workflow.Sleep(ctx, d)
		g.waitUntil, g.waitLabel, g.waiting = time.Time{}, "", ""
		if err != nil {
			return TodoResult{}, err
		}
		if err := g.reacquirePhone(ctx); err != nil {
			return TodoResult{}, err
		}
		g.refresh(ctx)
	}
	return TodoResult{Status: TodoDone, Result: fmt.Sprintf("waited until %s (%s)", r.Local, d.Round(time.Second)),
		Verified: true, Evidence: timerEvidence + r.Local, VerifiedBy: "timer"}, nil
}

// timerEvidence opens the evidence of a wait todo the goal ran itself.
const timerEvidence = "the timer fired at "

// RanAsTimer reports whether the todo was a wait the goal ran itself (a
// timer, or checks of the phone): it has no TodoWorkflow of its own.
func (t TodoState) RanAsTimer() bool {
	return t.Status == TodoDone && (strings.HasPrefix(t.Evidence, timerEvidence) || strings.HasPrefix(t.Evidence, phoneEvidence))
}

// awaitPersonReleasing waits for a person like awaitPerson, giving the goal's
// phone back once the wait has lasted ReleasePhoneAfter and leasing it
// again when the answer comes (docs/design.md §7).
func (g *goalRun) awaitPersonReleasing(ctx workflow.Context, d time.Duration, cond func() bool) (bool, error) {
	after := g.opts.ReleasePhoneAfter
	if g.release == nil || g.opts.KeepPhoneDuringWaits || after <= 0 || (d > 0 && d <= after) ||
		getVersion(ctx, ChangeReleaseForPerson, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return awaitPerson(ctx, d, cond)
	}
	ok, err := workflow.AwaitWithTimeout(ctx, after, cond)
	if err != nil || ok {
		return ok, err
	}
	g.releasePhone(ctx)
	rest := time.Duration(0)
	if d > 0 {
		rest = d - after
	}
	ok, err = awaitPerson(ctx, rest, cond)
	if err != nil || !ok {
		return ok, err // the goal ends: nothing to lease again
	}
	return true, g.reacquirePhone(ctx)
}

// longWait returns how long an executor's Wait action waits when it is to
// be a workflow timer (docs/design.md §7), or 0 when the Step activity
// runs it (short, unreadable, or a todo from before durable waits).
func (t *todoRun) longWait(ctx workflow.Context, a autoglm.Action) time.Duration {
	if a.Name != autoglm.ActionWait || t.in.DurableWaitAfter <= 0 {
		return 0
	}
	w, err := waits.Parse(a.Duration)
	if err != nil || w.For <= t.in.DurableWaitAfter {
		return 0
	}
	if getVersion(ctx, ChangeDurableWait, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return 0
	}
	return w.For
}

// sleep waits d as a timer, the phone given back meanwhile when the goal
// allows it, then leased again before the todo observes the screen.
func (t *todoRun) sleep(ctx workflow.Context, d time.Duration, action string) error {
	now := workflow.Now(ctx)
	until := now.Add(d)
	release := t.in.ReleasePhone && workflow.GetInfo(ctx).ParentWorkflowExecution != nil
	t.waiting = waitingUntil(until.UTC().Format("15:04 UTC"), until, now, release)
	t.details(ctx)
	if err := t.tell(ctx, TodoEvent{Kind: TodoEventSleep, Text: t.waiting, Until: until}); err != nil {
		return err
	}
	if release {
		if err := t.tell(ctx, TodoEvent{Kind: TodoEventReleasePhone}); err != nil {
			return err
		}
	}
	if err := workflow.Sleep(ctx, d); err != nil {
		return err
	}
	t.waiting = ""
	if release {
		if err := t.needPhone(ctx); err != nil {
			return err
		}
	} else if err := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting}); err != nil {
		return err
	}
	t.handled(action, fmt.Sprintf("waited %s", d))
	t.details(ctx)
	return nil
}

// needPhone asks the goal for the phone back and waits until it holds it
// (it may queue behind another goal; the goal's status shows that).
func (t *todoRun) needPhone(ctx workflow.Context) error {
	return t.askPhone(ctx, TodoEvent{Kind: TodoEventNeedPhone}, "the phone back from the goal")
}

// needPhoneBack asks the goal for the phone after the lease refused a
// device action (why: the fence's words) and waits until it holds it.
func (t *todoRun) needPhoneBack(ctx workflow.Context, why string) error {
	return t.askPhone(ctx, TodoEvent{Kind: TodoEventNeedPhone, Lost: true, Text: truncate(why, 500)}, "the phone back: "+truncate(why, 400))
}

func (t *todoRun) askPhone(ctx workflow.Context, ev TodoEvent, waiting string) error {
	t.phoneSeq++
	seq := t.phoneSeq
	t.waiting = waiting
	t.details(ctx)
	defer func() { t.waiting = "" }()
	ev.Seq = seq
	if err := t.tell(ctx, ev); err != nil {
		return err
	}
	ch := signalChannel(ctx, SignalPhoneHeld)
	for {
		var got phoneHeld
		cancelled := false
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, &got) })
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) { cancelled = true })
		sel.Select(ctx)
		if cancelled {
			return ctx.Err()
		}
		if got.Seq == seq {
			if got.Token != 0 {
				t.in.LeaseToken = got.Token
			}
			return nil
		}
	}
}

// awaitPersonReleasing is the todo's wait for a person: after
// ReleasePhoneAfter the goal gives the phone back, and gets it again
// before the todo goes on with the answer.
// With goesOn set the todo continues after the deadline too (a default
// answer), so it gets the phone back then as well.
func (t *todoRun) awaitPersonReleasing(ctx workflow.Context, d time.Duration, goesOn bool, cond func() bool) (bool, error) {
	// The person may use the phone meanwhile: a finish is verified after.
	t.ahead = nil
	after := t.in.ReleasePhoneAfter
	if !t.in.ReleasePhone || after <= 0 || (d > 0 && d <= after) || workflow.GetInfo(ctx).ParentWorkflowExecution == nil ||
		getVersion(ctx, ChangeReleaseForPerson, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return awaitPerson(ctx, d, cond)
	}
	ok, err := workflow.AwaitWithTimeout(ctx, after, cond)
	if err != nil || ok {
		return ok, err
	}
	if err := t.tell(ctx, TodoEvent{Kind: TodoEventReleasePhone}); err != nil {
		return false, err
	}
	rest := time.Duration(0)
	if d > 0 {
		rest = d - after
	}
	ok, err = awaitPerson(ctx, rest, cond)
	if err != nil || (!ok && !goesOn) {
		return ok, err
	}
	return ok, t.needPhone(ctx)
}

// phoneGone ends a goal that could not get its phone back after a wait.
func (g *goalRun) phoneGone(ctx workflow.Context, err error) (GoalResult, error) {
	if ctx.Err() != nil {
		return GoalResult{}, ctx.Err()
	}
	var out *errWaitedOut
	if errors.As(err, &out) {
		return g.finish(ctx, out.result), nil
	}
	var lost *errPhoneLost
	if errors.As(err, &lost) {
		err = lost.err
	}
	return g.finish(ctx, deviceUnavailable(g.in.Device, err)), nil
}
