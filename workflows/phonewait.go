package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// ChangePhoneWait: a todo that only waits for something on the phone ("Wait
// for a message from Alice Chen", "Wait for the SMS code") runs in the goal
// as CheckPhone activities on a backoff, with the phone given back
// meanwhile (docs/design.md §7). Before it such a todo ran as an ordinary
// todo. Asked only when a todo reads as such a wait.
const ChangePhoneWait = "phone-wait"

// GoalWaitingPhone: the goal waits for something to happen on the phone;
// status waiting_for says what and since when.
const GoalWaitingPhone = "waiting_phone"

// Backoff of a wait for the phone: checks start this far apart and double
// up to PhoneCheckMax, so an hour of waiting costs 16 checks (12 each later
// hour) and no model call (BENCHMARKS.md#waiting-for-the-phone). Exported for the benchmark,
// which multiplies its figures out by this schedule.
const (
	PhoneCheckFirst = 15 * time.Second
	PhoneCheckMax   = 5 * time.Minute
)

// phoneWaiting is the goal's wait for the phone, while one runs.
type phoneWaiting struct {
	what  string // "a message from Alice Chen"
	since time.Time
}

func (p phoneWaiting) on() bool { return p.what != "" }

// checkPhoneOptions sends a check to the phone's host, bounded so a host
// that is gone fails the check instead of holding the wait.
func checkPhoneOptions(device, what string) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:              DeviceTaskQueue(device),
		ScheduleToStartTimeout: deviceScheduleToStart,
		StartToCloseTimeout:    30 * time.Second,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 2},
		Summary:                truncate("CheckPhone: waiting for "+what, 380),
	}
}

// phoneWaitTodo runs todo i, a wait for the phone (docs/design.md §7): the
// first check sets what already shows aside, later ones run on a backoff
// until what the wait is for arrives or the answer deadline passes. The
// phone is given back for the whole wait (the checks only read
// notifications) and leased again after. The message's text or the code is
// the todo's result, which the next todo gets as it gets a read value.
func (g *goalRun) phoneWaitTodo(ctx workflow.Context, i int, w waits.PhoneWait) (TodoResult, error) {
	t := &g.st.Todos[i]
	t.Status = TodoRunning
	t.Attempts++
	g.todo, g.todoStep = i+1, 0
	what := w.String()
	d := answerDeadline(ctx, g.opts.AnswerDeadline)
	start := workflow.Now(ctx)
	by := answerBy(ctx, d)
	if !g.opts.KeepPhoneDuringWaits {
		g.releasePhone(ctx)
	}
	g.phoneWait = phoneWaiting{what: what, since: start}
	g.waiting = fmt.Sprintf("waiting for %s since %s", what, localClock(ctx, start, g.opts.TimeZone)) + waitsUntil(by)
	if g.phoneReleased {
		g.waiting += "; the phone is free meanwhile"
	}
	g.refresh(ctx)
	g.notify(ctx, activities.NotifyInput{Kind: activities.NotifyWaiting, Text: "waiting for " + what, Todo: i + 1, Deadline: by}, false)
	defer func() { g.phoneWait, g.waiting = phoneWaiting{}, "" }()

	actx := workflow.WithActivityOptions(ctx, checkPhoneOptions(g.in.Device, what))
	in := activities.CheckPhoneInput{Serial: g.in.Device, Wait: w, First: true}
	backoff := PhoneCheckFirst
	for checks := 0; ; checks++ {
		var res activities.CheckPhoneResult
		if err := workflow.ExecuteActivity(actx, activities.NameCheckPhone, in).Get(ctx, &res); err != nil {
			if ctx.Err() != nil {
				return TodoResult{}, err
			}
			// A phone or host that does not answer now may answer at the
			// next check; the deadline bounds the wait either way.
			workflow.GetLogger(ctx).Warn("phone check failed", "device", g.in.Device, "error", err)
		} else if res.Met {
			if err := g.reacquirePhone(ctx); err != nil {
				return TodoResult{}, err
			}
			return TodoResult{Status: TodoDone, Result: res.Value, Verified: true, Evidence: phoneEvidence + res.Evidence, VerifiedBy: "phone"}, nil
		} else {
			in.After, in.First = res.Latest, false
		}
		sleep := backoff
		if d > 0 {
			left := start.Add(d).Sub(workflow.Now(ctx))
			if left <= 0 {
				msg := fmt.Sprintf("nothing arrived: %s did not come within %s (%d checks)", what, d, checks+1)
				return TodoResult{Status: TodoFailed, Result: msg, Unanswered: "waiting for " + what}, nil
			}
			sleep = min(sleep, left)
		}
		if err := workflow.Sleep(ctx, sleep); err != nil {
			return TodoResult{}, err
		}
		backoff = min(backoff*2, PhoneCheckMax)
	}
}

// phoneEvidence opens the evidence of a wait for the phone the goal ran
// itself.
const phoneEvidence = "the phone showed a "

// localClock is t's time of day in the goal's zone ("09:12 CST"), read
// once in a SideEffect so replays never depend on the zone database.
func localClock(ctx workflow.Context, t time.Time, tz string) string {
	var s string
	enc := workflow.SideEffect(ctx, func(workflow.Context) any {
		loc, err := waits.Zone(tz)
		if err != nil {
			return t.UTC().Format("15:04 UTC")
		}
		return t.In(loc).Format("15:04 MST")
	})
	if enc.Get(&s) != nil {
		s = t.UTC().Format("15:04 UTC")
	}
	return s
}
