package workflows

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// ChangeTodoPhone: a goal that spans phones (docs/design.md#goals-that-span-phones).
// A goal started with --on, or whose text names a phone, lists the fleet
// in FleetPhones before it plans and shows it to the planner; a todo whose
// plan item names another phone leases that phone for its own run, runs
// on that phone's queue with that lease's token, and gives it back when
// it ends. The marker is recorded where either first happens; goals that
// meet neither never record it.
const ChangeTodoPhone = "todo-phone"

// spanPhones is the fleet the goal showed its planner.
type spanPhones struct {
	Listed bool                    `json:"listed,omitempty"`
	Phones []activities.FleetPhone `json:"phones,omitempty"`
}

// namesPhoneRe is goal text that names a phone: "on the work phone", "on
// the tablet", "on phone emulator-5556", "the phone labelled work".
var namesPhoneRe = regexp.MustCompile(`(?i)\bon (?:the |my )?(?:[\w-]+ )?(?:phone|tablet)\b|\bon phone \S+|\blabell?ed [\w-]+`)

// spansPhones says whether a goal may span phones: started with --on, or
// naming a phone in its text.
func spansPhones(in GoalInput) bool {
	return in.On != nil || namesPhoneRe.MatchString(in.Goal)
}

// listFleet shows the planner the fleet, once, before the goal plans.
// A fleet that cannot be read plans without it: the todos then run on
// the goal's phone unless the planner names a serial.
func (g *goalRun) listFleet(ctx workflow.Context) {
	if g.st.Planned || g.st.Span.Listed || !spansPhones(g.in) ||
		getVersion(ctx, ChangeTodoPhone, workflow.DefaultVersion, 1) < 1 {
		return
	}
	g.st.Span.Listed = true
	var fp activities.FleetPhonesResult
	err := workflow.ExecuteActivity(fleetActivity(ctx, "List the fleet for the planner"), activities.NameFleetPhones,
		activities.FleetPhonesInput{Selector: fleet.Selector{Any: true}, QueuePrefix: DeviceTaskQueuePrefix}).Get(ctx, &fp)
	if err != nil {
		workflow.GetLogger(ctx).Warn("fleet not listed for the planner", "error", err)
		return
	}
	g.st.Span.Phones = fp.Phones
}

func fleetActivity(ctx workflow.Context, summary string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Second, MaximumAttempts: 5},
		Summary:             summary,
	})
}

// todoPhone is the phone a todo runs on: the goal's own, or another one
// leased for the todo alone.
type todoPhone struct {
	Serial string
	Token  int64
	Other  bool
}

// phoneFor chooses todo i's phone and, when it is another phone than the
// goal's, leases it under the goal's device_wait. A todo whose phone
// cannot be had ends failed with why (fail), or the goal ends (stop).
// release gives the other phone back; nil for the goal's own.
func (g *goalRun) phoneFor(ctx workflow.Context, i int) (on todoPhone, release func(workflow.Context), fail string, stop *GoalResult) {
	on = todoPhone{Serial: g.in.Device, Token: g.lease.Token}
	t := &g.st.Todos[i]
	if t.Phone == "" || getVersion(ctx, ChangeTodoPhone, workflow.DefaultVersion, 1) < 1 {
		return on, nil, "", nil
	}
	if t.Device == "" {
		serial, why := g.choosePhone(ctx, t.Phone)
		if serial == "" {
			return on, nil, why, nil
		}
		t.Device = serial
	}
	if t.Device == g.in.Device || DeviceLease == nil {
		on.Serial = t.Device
		return on, nil, "", nil
	}
	// The goal keeps its own phone: a todo after this one on it finds
	// it as this goal left it.
	lctx := workflow.WithValue(ctx, leaseKey, (*heldLease)(nil))
	lctx = workflow.WithValue(lctx, otherLeaseKey{}, true)
	held := &heldLease{}
	lctx = workflow.WithValue(lctx, otherHeldKey{}, held)
	lctx, bw := g.boundedLease(lctx)
	if bw != nil {
		bw.serial, bw.hl = t.Device, held
	}
	rel, err := DeviceLease(lctx, t.Device, g.id, g.opts.DeviceWait != DeviceWaitFail, func(s string) {
		if bw != nil && bw.busy(ctx, s) {
			return
		}
		if s != "" {
			s = fmt.Sprintf("todo %d: phone %s: %s", i+1, t.Device, s)
		}
		g.waiting = s
		g.details(ctx)
	})
	if bw != nil {
		bw.done(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return on, nil, "", nil
		}
		if bw != nil && bw.timedOut {
			r := bw.result(ctx)
			return on, nil, "", &r
		}
		r := deviceUnavailable(t.Device, err)
		return on, nil, "", &r
	}
	return todoPhone{Serial: t.Device, Token: held.Token, Other: true}, rel, "", nil
}

// choosePhone reads the planner's phone: a serial, "serial=S", or
// "label=L", which takes the goal's own phone when it has the label, else
// the first served phone with it by serial (FleetPhones, so the choice is
// in the history).
func (g *goalRun) choosePhone(ctx workflow.Context, named string) (serial, why string) {
	if !strings.Contains(named, "=") {
		return named, ""
	}
	sel, err := fleet.ParseSelector(named)
	if err != nil {
		return "", "the planner named the phone " + named + ", which is none: " + err.Error()
	}
	if sel.Serial != "" {
		return sel.Serial, ""
	}
	var fp activities.FleetPhonesResult
	if err := workflow.ExecuteActivity(fleetActivity(ctx, "Find "+clip(sel.Kind(), 60)), activities.NameFleetPhones,
		activities.FleetPhonesInput{Selector: sel, QueuePrefix: DeviceTaskQueuePrefix}).Get(ctx, &fp); err != nil {
		return "", "the fleet cannot be read: " + rootMessage(err)
	}
	first := ""
	for _, p := range fp.Phones {
		if !p.Served {
			continue
		}
		if p.Serial == g.in.Device {
			return p.Serial, ""
		}
		if first == "" {
			first = p.Serial
		}
	}
	if first == "" {
		why = fp.Why
		if why == "" {
			why = "no worker serves a phone " + sel.Kind()
		}
		return "", fmt.Sprintf("no phone %s for this todo: %s", sel.Kind(), why)
	}
	return first, ""
}

// otherLeaseKey marks the context of a lease taken for one todo: it adds
// no claim query (the goal's claim stays its own phone's).
type otherLeaseKey struct{}

// otherHeldKey carries the *heldLease that takes the grant of a lease
// taken for one todo.
type otherHeldKey struct{}

// keepPhones carries the phone each todo of a new plan names; a todo the
// plan writes again without one keeps the phone it had. The replanner is
// shown the pending todos' texts only, so a todo it rewrites (a value
// read filled in) comes back without its phone: a plan with as many todos
// as were pending takes, for a todo it neither names a phone for nor
// writes as before, the phone of the pending todo in its place.
func keepPhones(old []TodoState, plan, phones []string) []string {
	var pending []TodoState
	for _, t := range old {
		if t.Status == TodoPending {
			pending = append(pending, t)
		}
	}
	out := make([]string, len(plan))
	for i, p := range plan {
		if i < len(phones) && phones[i] != "" {
			out[i] = phones[i]
			continue
		}
		same := false
		for _, t := range pending {
			if t.Text == p {
				same = true
				if t.Phone != "" {
					out[i] = t.Phone
				}
			}
		}
		switch {
		case same:
		case len(plan) == len(pending):
			out[i] = pending[i].Phone
		default:
			out[i] = closestPhone(pending, p)
		}
	}
	return out
}

// closestPhone is, for a rewritten todo of a plan whose number of todos
// changed, the phone of the one pending todo that shares most of its
// words (at least half of the shorter text's), so a todo rewritten beside
// an added or dropped one does not fall back to the goal's own phone;
// none when no pending todo is that close or two are equally close.
func closestPhone(pending []TodoState, text string) string {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			m[w] = true
		}
		return m
	}
	tw := words(text)
	best, bestScore, tie := "", 0.0, false
	for _, t := range pending {
		pw := words(t.Text)
		shared := 0
		for w := range pw {
			if tw[w] {
				shared++
			}
		}
		n := min(len(pw), len(tw))
		if n == 0 {
			continue
		}
		score := float64(shared) / float64(n)
		switch {
		case score > bestScore:
			best, bestScore, tie = t.Phone, score, false
		case score == bestScore && t.Phone != best:
			tie = true
		}
	}
	if bestScore < 0.5 || tie {
		return ""
	}
	return best
}

// onPhoneSummary is the todo child's summary naming the phone it runs on.
func onPhoneSummary(text string, on todoPhone) string {
	if !on.Other {
		return truncate(text, 380)
	}
	return truncate(text, 340) + " · on phone " + clip(on.Serial, 30)
}

// runTodoOnItsPhone runs todo i on the phone it names: another phone is
// leased before the todo child starts and given back once it has closed
// (also when the goal is cancelled meanwhile). stop is the goal's end when
// that phone cannot be had.
func (g *goalRun) runTodoOnItsPhone(ctx workflow.Context, i int) (TodoResult, *GoalResult, error) {
	on, release, fail, stop := g.phoneFor(ctx, i)
	if ctx.Err() != nil {
		return TodoResult{}, nil, ctx.Err()
	}
	if stop != nil {
		return TodoResult{}, stop, nil
	}
	if fail != "" {
		return TodoResult{Status: TodoFailed, Result: fail}, nil, nil
	}
	if release != nil {
		defer func() {
			dctx, cancel := workflow.NewDisconnectedContext(ctx)
			defer cancel()
			release(dctx)
		}()
	}
	tr, err := g.runTodo(ctx, i, on)
	return tr, nil, err
}
