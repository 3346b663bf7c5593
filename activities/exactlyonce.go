package activities

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Act results of the journal (docs/design.md §4).
const (
	// ActUncertain is the result when an action may have reached the
	// phone, nothing tells whether it did, and it commits something (or
	// the screen cannot be read): the todo asks the user.
	ActUncertain = "uncertain"
	// ActUnknown opens the result of such an action that commits
	// nothing: it is neither sent again nor claimed, and the next think
	// is told to look.
	ActUnknown = "the last action's outcome is unknown: look at the screen"
)

// ActionFault is called at a point of an action's way to the phone (after
// its intent is written and before its input is sent, or after the phone
// took it and before its result is written); drills use it to crash the
// worker at exactly that point. Nil in production.
type ActionFault func(serial, actionID string)

// actOnce applies an action at most once per ID (docs/design.md §4). The
// phone's journal is locked from the intent to the result, so the phone
// runs one action at a time. commit names the commit the action makes as
// the look before it found it on the screen now (nil when none); it is
// written with the intent, and when the action's result comes from the
// journal (a retried Step, a Step on another host), commit is set to what
// the try that sent it wrote: the screen now is the one the input left.
func (a *Activities) actOnce(ctx context.Context, d device.Device, in StepInput, commit *commitTap) (ActResult, error) {
	act := *in.Act
	// The journal follows the phone, not the serial it is listed under.
	key, err := device.IdentityOf(ctx, d)
	if err != nil {
		return ActResult{}, deviceError("identity", err)
	}
	p := a.Journal.phoneOf(key, d.Serial())
	unlock, err := p.lock(ctx)
	if err != nil {
		return ActResult{}, journalError(err)
	}
	defer unlock()
	if err := p.refresh(); err != nil {
		return ActResult{}, journalError(err)
	}
	// The phone's own copy of the journal: what any host wrote of this
	// action, and the phone's highest lease token (docs/design.md §4).
	id := in.ActionID
	reused := in.ActionID + "#" + digest(actionKeyOf(act))
	pc, kept, err := readPhone(ctx, d, []string{id, reused})
	if err != nil {
		return ActResult{}, err
	}
	p.onPhone = pc
	defer func() { p.onPhone = nil }()
	// The fence (docs/design.md §5), under the lock the action holds to
	// its result: a goal granted the phone later has acted here, from
	// this host or another, so this goal no longer holds it.
	high := p.token
	if pc != nil {
		high = max(high, pc.high)
	}
	if err := fence(d.Serial(), in.GoalID, in.LeaseToken, high); err != nil {
		return ActResult{}, err
	}
	for _, pe := range kept {
		back, err := p.adopt(pe, act, a.now().UTC())
		if err != nil {
			return ActResult{}, journalError(err)
		}
		if back {
			// This host recorded more of the try than the phone got (its
			// write failed): the phone gets it now, best effort.
			if err := pc.put(ctx, p, journalRecord{ID: pe.ID, At: a.now().UTC()}); err != nil {
				a.logger(ctx).Warn("action journal: the phone's copy could not be brought up to date", "id", pe.ID, "error", err)
			}
		}
	}
	e, ok, err := p.get(id)
	if err != nil {
		return ActResult{}, journalError(err)
	}
	if ok && e.Intent != nil && actionKeyOf(e.Intent.Action) != actionKeyOf(act) {
		// The same ID with another action is not a retry of it (a run
		// reset before IDs named their run): it has an entry of its own,
		// never the other action's result.
		a.logger(ctx).Warn("action journal: ID reused for another action; journalled on its own", "id", in.ActionID)
		id = reused
		if e, ok, err = p.get(id); err != nil {
			return ActResult{}, journalError(err)
		}
	}
	sentWith := func() {
		if commit != nil && e.Intent != nil && e.Intent.Commit != nil {
			*commit = *e.Intent.Commit
		}
	}
	switch {
	case ok && e.Applied != nil:
		sentWith()
		return *e.Applied, nil
	case ok && e.Intent != nil && e.NotSent == "":
		res, send, err := a.judge(ctx, d, p, id, act, e.Intent.Before)
		if !send || err != nil {
			sentWith()
			return res, err
		}
	case !ok:
		// Asked once per action, before its intent: a veto is recorded as
		// the action's result (docs/design.md §10).
		if v := a.vetoed(ctx, in); v != nil {
			return *v, a.record(ctx, p, id, *v)
		}
	}
	w, h := in.Width, in.Height
	if w <= 0 || h <= 0 {
		if w, h, err = d.ScreenSize(ctx); err != nil {
			return ActResult{}, deviceError("screen size", err)
		}
	}
	before, err := a.evidenceNow(ctx, d, in.UITree, act, w, h)
	if err != nil {
		return ActResult{}, err
	}
	if before.Tree == "" && needsLitScreen(act) && a.screenOff(ctx, d) {
		// The screen went off after the executor decided (it timed out):
		// the input would land on a dark screen and do nothing, or be
		// taken by the keyguard. Nothing is sent or journalled; the Step's
		// look wakes the phone and the executor decides again.
		return ActResult{Result: ActNotSentDark}, nil
	}
	if moved, err := a.targetMoved(ctx, in, act, before, w, h); err != nil || moved != "" {
		// Nothing is sent or journalled: a retry looks again.
		return ActResult{Result: moved}, err
	}
	if isCommit(act, before.Target) {
		if res, ok, err := a.settlePending(ctx, d, p, in.ActionID, before, w, h); err != nil || ok {
			return res, err
		}
	}
	if _, err := a.typedText(act); err != nil {
		// Sealed on another host, or expired: never typed, never
		// replaced by other text (docs/design.md#secrets-typed-by-the-executor).
		return ActResult{}, err
	}
	// The screen the action was decided on was secure: its fields' text
	// is not journalled, even when the tree read now does not say so.
	before = hideFieldTexts(before, in.ScreenSensitive)
	intent := journalRecord{ID: id, At: a.now().UTC(), Try: newTry(), Intent: &ActionIntent{Action: act, Before: before, Secure: in.ScreenSensitive}, Token: in.LeaseToken}
	if commit != nil && commit.Key != "" {
		c := *commit
		intent.Intent.Commit = &c
	}
	if err := a.journal(ctx, p, intent); err != nil {
		var fenced errFencedOnPhone
		if !errors.As(err, &fenced) {
			return ActResult{}, err
		}
		// Another host's goal, granted the phone later, wrote its intent
		// while this one was on its way: this one is not sent.
		if err := p.write(intent); err != nil {
			return ActResult{}, journalError(err)
		}
		if err := a.journal(ctx, p, journalRecord{ID: id, At: a.now().UTC(), NotSent: "refused: " + fenced.Error()}); err != nil {
			return ActResult{}, err
		}
		return ActResult{}, fence(d.Serial(), in.GoalID, in.LeaseToken, fenced.high)
	}
	if a.FaultBeforeSend != nil {
		a.FaultBeforeSend(d.Serial(), in.ActionID)
	}
	res, err := a.input(ctx, d, act, w, h)
	if err != nil {
		if device.NotSent(err) {
			// The phone got nothing: a retry sends it, judged from the
			// screen it then shows.
			if werr := a.journal(ctx, p, journalRecord{ID: id, At: a.now().UTC(), NotSent: clip(err.Error(), 200)}); werr != nil {
				return ActResult{}, werr
			}
		}
		// Otherwise the intent stays: the input may have reached the
		// phone, and a retry decides from the action's own evidence.
		return ActResult{}, deviceError(act.Name, err)
	}
	if a.Fault != nil {
		a.Fault(d.Serial(), in.ActionID)
	}
	if err := a.record(ctx, p, id, res); err != nil {
		return res, err
	}
	if act.Sealed != "" && res.Result == "ok" && a.Sealed != nil {
		// Recorded: a retry returns the result and types nothing, so
		// the text is kept no longer.
		a.Sealed.Drop(act.Sealed)
	}
	return res, nil
}

// fenced locks the phone's journal and checks the fence (docs/design.md
// §5) under that lock, which the caller holds until its action's result:
// a goal granted the phone later has acted here, so this goal no longer
// holds it. The caller runs unlock.
func (a *Activities) fenced(ctx context.Context, d device.Device, goal string, token int64) (*phoneJournal, func(), error) {
	// The journal follows the phone, not the serial it is listed under.
	key, err := device.IdentityOf(ctx, d)
	if err != nil {
		return nil, nil, deviceError("identity", err)
	}
	p := a.Journal.phoneOf(key, d.Serial())
	unlock, err := p.lock(ctx)
	if err != nil {
		return nil, nil, journalError(err)
	}
	if err := p.refresh(); err != nil {
		unlock()
		return nil, nil, journalError(err)
	}
	// The phone's highest token counts too: a goal granted the phone
	// later may have acted on it from another host (docs/design.md §4).
	pc, _, err := readPhone(ctx, d, nil)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	high := p.token
	if pc != nil {
		high = max(high, pc.high)
	}
	if err := fence(d.Serial(), goal, token, high); err != nil {
		unlock()
		return nil, nil, err
	}
	return p, unlock, nil
}

// judge decides an action whose input may have reached the phone from a
// fresh look at the screen and the action's own evidence. send says the
// action is to be sent (again); otherwise res is its recorded result.
func (a *Activities) judge(ctx context.Context, d device.Device, p *phoneJournal, id string, act autoglm.Action, before Evidence) (res ActResult, send bool, err error) {
	s, err := a.observe(ctx, d, true)
	if err != nil {
		return ActResult{}, false, err
	}
	now := evidenceOf(s.obs, s.elems, s.obs.TreeRef != "", act)
	v, why := decide(act, before, now)
	if v == Ask && touchPoint(act) != nil && covered(before, now) {
		// The commit's evidence is under the phone's own window: nothing
		// is claimed or sent, the executor gets past the window, and the
		// commit is judged again on the app's screen before the todo's
		// next commit (settlePending).
		a.logger(ctx).Warn("action journal: an action may have reached the phone but its result was not recorded; its evidence is covered, judged again before the next commit",
			"id", id, "action", act.Name, "verdict", "deferred", "why", why)
		res = ActResult{Result: fmt.Sprintf("%s (the phone's own window (%s) covers %s, so nothing of `%s` shows; get past the window: whether it took effect is judged again before the next commit)",
			ActUnknown, now.App, before.App, autoglm.FormatAction(act))}
		if err := a.journal(ctx, p, journalRecord{ID: id, At: a.now().UTC(), Applied: &res, Pending: true}); err != nil {
			return ActResult{}, false, err
		}
		return res, false, nil
	}
	a.logger(ctx).Warn("action journal: an action may have reached the phone but its result was not recorded; decided from its own evidence",
		"id", id, "action", act.Name, "verdict", v.String(), "why", why)
	switch v {
	case Applied:
		res = ActResult{Result: "ok", Touched: true, Recovered: why}
	case Unknown:
		res = ActResult{Result: ActUnknown + " (" + why + ")"}
	case Ask:
		res = ActResult{Result: ActUncertain, Uncertain: fmt.Sprintf(
			"phoneflow cannot tell whether `%s` reached the phone %s (%s). Look at the phone and answer whether it happened.",
			autoglm.FormatAction(act), d.Serial(), why)}
	default:
		return ActResult{}, true, nil
	}
	return res, false, a.record(ctx, p, id, res)
}

// ActNotSentEarlier opens the result of a commit not sent because the
// same todo's earlier commit, whose outcome was covered, is now judged to
// have taken effect (docs/design.md §4).
const ActNotSentEarlier = "not sent: an earlier commit went out"

// settlePending judges, before a commit is sent, the todo's earlier
// commits whose evidence the phone's own window covered (JournalEntry.Pending),
// on the screen just before this commit (now). ok says the commit is not
// to be sent and res is its result: an earlier one took effect (the
// executor is told so), or nothing tells and the person is asked about the
// earlier one. An earlier one judged not applied lets the commit go on.
// Called with the phone's journal locked.
func (a *Activities) settlePending(ctx context.Context, d device.Device, p *phoneJournal, actionID string, now Evidence, w, h int) (res ActResult, ok bool, err error) {
	todo := todoOfAction(actionID)
	if todo == "" {
		return ActResult{}, false, nil
	}
	if err := p.refresh(); err != nil {
		return ActResult{}, false, journalError(err)
	}
	var pending []JournalEntry
	for _, e := range p.entries {
		if e.Pending && e.Intent != nil && e.ID != actionID && todoOfAction(e.ID) == todo {
			pending = append(pending, *e)
		}
	}
	for _, e := range pending {
		act, before := e.Intent.Action, e.Intent.Before
		seen := now
		seen.Target = targetAt(now.elems, act, w, h) // what is under the earlier touch's point now
		if covered(before, seen) {
			continue // still under the phone's own window
		}
		// The commit about to be sent repeats the earlier one: the same
		// element under its point.
		same := now.Target != nil && before.Target != nil && now.Target.Key == before.Target.Key && now.Target.Label == before.Target.Label
		v, why := decide(act, before, seen)
		if v != Applied && v != NotApplied && !same {
			continue // nothing tells yet, and this commit is another one
		}
		a.logger(ctx).Warn("action journal: a commit whose evidence was covered is judged before the next commit",
			"id", e.ID, "action", act.Name, "verdict", v.String(), "why", why)
		var rec ActResult
		switch v {
		case Applied:
			rec = ActResult{Result: "ok", Touched: true, Recovered: why}
			if same {
				res, ok = ActResult{Result: fmt.Sprintf("%s: `%s`, whose outcome was unknown, took effect (%s); it is not done twice. If the task is done, finish",
					ActNotSentEarlier, autoglm.FormatAction(act), why)}, true
				if c := e.Intent.Commit; c != nil {
					// The todo records the earlier commit now that it is
					// known to have gone out.
					res.Commit = c.Key
				}
			}
		case NotApplied:
			rec = ActResult{Result: "not applied: " + why}
		default:
			rec = ActResult{Result: ActUncertain, Uncertain: fmt.Sprintf(
				"phoneflow cannot tell whether an earlier `%s` reached the phone %s (%s), so it was not tapped again. Look at the phone and answer whether the earlier one happened.",
				autoglm.FormatAction(act), d.Serial(), why)}
			res, ok = rec, true
		}
		if err := a.journal(ctx, p, journalRecord{ID: e.ID, At: a.now().UTC(), Applied: &rec}); err != nil {
			return ActResult{}, false, err
		}
		if ok {
			return res, true, nil
		}
	}
	return ActResult{}, false, nil
}

// todoOfAction is the todo workflow an action ID names
// (`<todo workflow ID>/<run ID>/<step>`), "" when it names none.
func todoOfAction(id string) string {
	id, _, _ = strings.Cut(id, "#")
	i := strings.LastIndex(id, "/")
	if i < 0 {
		return ""
	}
	j := strings.LastIndex(id[:i], "/")
	if j <= 0 {
		return ""
	}
	return id[:j]
}

// ActNotSentMoved opens the result of a touch the Step did not send
// because the screen changed under its point after the executor decided
// on it (a dialog took the focus, a banner dropped, a list reordered): the
// touch would land on something else (docs/design.md §4).
const ActNotSentMoved = "not sent: the screen changed before the touch"

// ActNotSentDark is the result of an input the Step did not send because
// the phone's screen was off just before it (docs/design.md §4, §15).
const ActNotSentDark = "not sent: the screen went off before the input; look at the screen again"

// needsLitScreen reports whether an action does nothing on a dark screen:
// touches, swipes and typing.
func needsLitScreen(act autoglm.Action) bool {
	return touchPoint(act) != nil || act.Name == autoglm.ActionSwipe || isType(act)
}

// screenOff reports whether the phone says its screen is off; a phone
// that cannot tell counts as lit.
func (a *Activities) screenOff(ctx context.Context, d device.Device) bool {
	sw, ok := d.(screenSwitch)
	if !ok {
		return false
	}
	on, err := sw.ScreenOn(ctx)
	return err == nil && !on
}

// targetMoved compares the element under a touch's point on the screen
// the executor decided on with the one under it just before the input
// (before.Target): "" when they are the same element, else the result to
// report instead of sending the touch. Without both trees it says "".
func (a *Activities) targetMoved(ctx context.Context, in StepInput, act autoglm.Action, before Evidence, w, h int) (string, error) {
	p := touchPoint(act)
	if p == nil || in.ScreenTreeRef == "" || before.Tree == "" {
		return "", nil
	}
	data, err := a.get(ctx, in.ScreenTreeRef)
	if err != nil {
		return "", err
	}
	var decided []uitree.Element
	if json.Unmarshal(data, &decided) != nil {
		return "", nil
	}
	x, y := autoglm.ToPixel(*p, w, h)
	e, ok := elementAt(decided, x, y)
	if !ok {
		return "", nil
	}
	was := label(e)
	switch t := before.Target; {
	case t == nil:
		return fmt.Sprintf("%s: %q was under the point when it was decided and nothing is now; look at the screen again", ActNotSentMoved, was), nil
	case t.Key != elementKey(e) || t.Label != was:
		return fmt.Sprintf("%s: %q was under the point when it was decided and %q is now; look at the screen again", ActNotSentMoved, was, t.Label), nil
	}
	return "", nil
}

func (a *Activities) record(ctx context.Context, p *phoneJournal, id string, res ActResult) error {
	return a.journal(ctx, p, journalRecord{ID: id, At: a.now().UTC(), Applied: &res})
}

// journal writes a record of an action to the phone's copy of the journal,
// when the phone keeps one, and then to this host's. An intent the phone
// does not take is not sent (fail closed: a host that reaches the phone
// later must find it); any other record the phone does not take is kept
// here and logged, since its input has already been sent or refused
// (docs/design.md §4). Called with the journal locked.
func (a *Activities) journal(ctx context.Context, p *phoneJournal, rec journalRecord) error {
	if pc := p.onPhone; pc != nil && rec.ID != "" {
		if err := pc.put(ctx, p, rec); err != nil {
			var fenced errFencedOnPhone
			switch {
			case errors.As(err, &fenced):
				return err
			case rec.Intent != nil:
				return phoneJournalError(pc.serial, err)
			}
			a.logger(ctx).Warn("action journal: the phone did not take the record; this host's journal keeps it",
				"id", rec.ID, "serial", pc.serial, "error", err)
		}
	}
	if err := p.write(rec); err != nil {
		return journalError(err)
	}
	return nil
}

// evidenceNow is the evidence of the screen as it is just before the
// input is sent: the UI tree and the app in front, or without a tree the
// screenshot's hash. Nothing of it goes to the blob store.
func (a *Activities) evidenceNow(ctx context.Context, d device.Device, withTree bool, act autoglm.Action, w, h int) (Evidence, error) {
	obs := Observation{Width: w, Height: h}
	var elems []uitree.Element
	hasTree := false
	if withTree {
		var err error
		if elems, err = d.UITree(ctx); err == nil {
			hasTree = true
		}
	}
	if app, err := d.CurrentApp(ctx); err == nil {
		obs.AppPackage = app.Package
	}
	if !hasTree {
		shot, err := CaptureScreen(ctx, d, autoglm.Config{})
		if err != nil {
			return Evidence{}, deviceError("screenshot", err)
		}
		obs.Sensitive = shot.Sensitive
		if !shot.Sensitive {
			obs.Hash, err = shotHash(shot)
			device.Release(shot)
			if err != nil {
				return Evidence{}, temporal.NewApplicationError("screenshot: "+err.Error(), ErrTypeDevice)
			}
		}
	}
	return evidenceOf(obs, elems, hasTree, act), nil
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

func actionKeyOf(a autoglm.Action) string { return autoglm.FormatAction(a) }

// journalError: a journal that cannot be written is a problem of the
// worker's host (disk full, permissions); retried like a device error, so
// the workflow's device wait shows it.
func journalError(err error) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err
	}
	return deviceError("action journal", err)
}
