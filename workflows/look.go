package workflows

import (
	"fmt"
	"slices"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// ChangeLookAgain: a goal the replanner calls done first looks again, with
// a todo that changes nothing, at each state a done todo set that no final
// screen showed since a later todo ran, and ends done only when the phone
// shows every one still holding (docs/design.md §9, A todo that only looks).
// Before it, such a state was taken as holding. Asked only when a goal has
// such a state, so other goals record no marker.
const ChangeLookAgain = "look-again"

// maxLooks bounds the look todos one goal adds.
const maxLooks = 4

// closingDone is the replanner's done, kept while the look todos run.
type closingDone struct {
	Response string               `json:"response"`
	Dropped  []activities.Dropped `json:"dropped,omitempty"`
}

// ChangeLookNamesApp: a look todo carries no text a person or a planner
// wrote: its task names, for an item gone or an alarm, the app the state
// lives in and the check's own words, never the text of the todo that set
// it, and its input leaves out the goal, the earlier todos and the answers,
// with no planner in its loop, so what a person wrote into a goal or a
// todo (a password) is not copied into the look's history (docs/design.md
// §9, A todo that only looks). Before it, such a look quoted the earlier
// todo's text and carried the goal's. Asked only when a goal adds looks.
const ChangeLookNamesApp = "look-names-app"

// lookText is the task of the todo that looks again at s, under
// ChangeLookNamesApp: what to look at in the check's own words, and for an
// item gone or an alarm the app it lives in when known.
func lookText(s establishedState) string {
	c := s.Check
	in, from := "", ""
	if s.App != "" {
		in, from = " in "+s.App, " from "+s.App
	}
	switch {
	case c.Kind == postcond.Switch && !c.Any:
		return fmt.Sprintf("Look again, changing nothing, whether the %q switch is %s: open the screen that shows it, then finish.", c.Label, onOff(c.On))
	case c.Kind == postcond.Switch:
		return fmt.Sprintf("Look again, changing nothing, whether a %q switch is %s%s: open the screen that shows it, then finish.", c.Label, onOff(c.On), in)
	default:
		return fmt.Sprintf("Look again, changing nothing, whether %q is gone%s: open the screen that lists it, then finish.", c.Text, from)
	}
}

// quotingLookText is the task of a look todo before ChangeLookNamesApp,
// kept for the goals that recorded none: by is the text of the todo that
// set s, quoted for an item gone or an alarm.
func quotingLookText(s establishedState, by string) string {
	c := s.Check
	switch {
	case c.Kind == postcond.Switch && !c.Any:
		return lookText(s)
	case c.Kind == postcond.Switch:
		return fmt.Sprintf("Look again, changing nothing, whether a %q switch is %s (todo %d did: %s): open the screen that shows it, then finish.", c.Label, onOff(c.On), s.By, truncate(by, 200))
	default:
		return fmt.Sprintf("Look again, changing nothing, whether %q is gone (todo %d did: %s): open the screen that lists it, then finish.", c.Text, s.By, truncate(by, 200))
	}
}

// lookInput is what look todo in is given under ChangeLookNamesApp: none
// of the texts the goal's other todos carry for the planner (the goal, the
// earlier todos, the answers), and no planner in its loop, which a todo
// that only looks at a check has no need of.
func lookInput(ctx workflow.Context, in TodoInput) TodoInput {
	if getVersion(ctx, ChangeLookNamesApp, workflow.DefaultVersion, 1) < 1 {
		return in
	}
	in.Goal, in.Earlier, in.Answers, in.AskPlanner, in.ReviewEvery = "", nil, nil, false, 0
	return in
}

// workedIn is the app a todo left its work in, by the name the built-in
// table gives its package (else the phone's): its final screen's app, or,
// when that is the home screen or the system UI (a todo that ends "…, then
// go home"), the latest other app its screens showed; "" when none did.
func workedIn(final activities.Observation, seen []activities.Observation) string {
	home, _ := device.LookupApp("Launcher")
	for i := len(seen); i >= 0; i-- {
		o := final
		if i < len(seen) {
			o = seen[i]
		}
		if o.AppPackage == "" || slices.Contains(home, o.AppPackage) || o.App == device.SystemUIName || o.AppPackage == device.SystemUIPackage {
			continue
		}
		if name := device.AppName(o.AppPackage); name != "" {
			return name
		}
		return o.App
	}
	return ""
}

func onOff(on *bool) string {
	if on != nil && *on {
		return "on"
	}
	return "off"
}

// lookAgain adds the look todos for the states no screen showed since a
// later todo ran, keeping the replanner's done to end on once they ran.
// It reports whether it added any.
func (g *goalRun) lookAgain(ctx workflow.Context, response string, dropped []activities.Dropped) bool {
	if g.st.Closing != nil {
		return false // the looks ran: the goal ends on what they saw
	}
	unseen := g.st.Established.unseen()
	if len(unseen) == 0 || getVersion(ctx, ChangeLookAgain, workflow.DefaultVersion, 1) < 1 {
		return false
	}
	if len(unseen) > maxLooks {
		unseen = unseen[len(unseen)-maxLooks:]
	}
	g.st.Closing = &closingDone{Response: response, Dropped: dropped}
	g.st.NeedReplan = false
	names := getVersion(ctx, ChangeLookNamesApp, workflow.DefaultVersion, 1) >= 1
	for _, s := range unseen {
		text := lookText(s)
		if !names {
			by := ""
			if s.By >= 1 && s.By <= len(g.st.Todos) {
				by = g.st.Todos[s.By-1].Text
			}
			text = quotingLookText(s, by)
		}
		g.st.Todos = append(g.st.Todos, TodoState{Index: len(g.st.Todos) + 1, Text: text, Status: TodoPending,
			Expect: []postcond.Check{s.Check}, Look: true})
	}
	g.addFeedback(fmt.Sprintf("the goal looks again at %d state(s) no screen showed since a later todo ran", len(unseen)))
	g.details(ctx)
	return true
}

// notSeenAgain says which states the look todos could not see: the goal
// is not done while the phone has not shown them.
func (g *goalRun) notSeenAgain() string {
	var out []string
	for _, s := range g.st.Established.unseen() {
		why := ""
		for _, t := range g.st.Todos {
			if t.Look && len(t.Expect) == 1 && t.Expect[0].String() == s.Check.String() {
				why = fmt.Sprintf(": todo %d, which looked, ended %s: %s", t.Index, t.Status, truncate(t.Result, 200))
			}
		}
		out = append(out, fmt.Sprintf("todo %d made %s, and no screen showed it after a later todo ran%s", s.By, s.Check, why))
	}
	if len(out) == 0 {
		return ""
	}
	return "the phone did not show again what an earlier todo did: " + strings.Join(out, "; ")
}

// closingAfterLooks reports whether the goal ends now on the done the
// replanner gave before its look todos ran: they all ran and no message
// from the user waits for the replanner.
func (g *goalRun) closingAfterLooks() (closingDone, bool) {
	if g.st.Closing == nil || g.nextPending() >= 0 {
		return closingDone{}, false
	}
	if len(g.st.UserMessages) > 0 {
		// The user said something meanwhile: the replanner hears it, and
		// a done from it ends on what the looks saw.
		return closingDone{}, false
	}
	return *g.st.Closing, true
}

// ChangeLookReturns: a look todo that ended in another app than the one
// its first screen showed goes back to it (the home screen by Home, an app
// by launching it), so a goal whose last todo left the phone on the home
// screen ("…, then go back to the home screen") still ends there. Before
// it, the phone stayed on the page the look opened. Asked only when a look
// todo ends elsewhere.
const ChangeLookReturns = "look-returns"

// lookFrom is the app a look todo started in.
type lookFrom struct {
	App     string `json:"app,omitempty"`
	Package string `json:"package,omitempty"`
}

// lookReturns takes the phone back to the app the look todo started in,
// with one device action after its verdict; the verdict stands whatever
// that action does.
func (t *todoRun) lookReturns(ctx workflow.Context, res TodoResult) TodoResult {
	from := t.st.LookFrom
	if from.Package == "" || t.st.Screen.AppPackage == from.Package || res.Status == TodoCancelled ||
		getVersion(ctx, ChangeLookReturns, workflow.DefaultVersion, 1) < 1 {
		return res
	}
	act := autoglm.Action{Name: autoglm.ActionHome}
	if home, _ := device.LookupApp("Launcher"); !slices.Contains(home, from.Package) {
		name := device.AppName(from.Package)
		if name == "" {
			name = from.App
		}
		act = autoglm.Action{Name: autoglm.ActionLaunch, App: name}
	}
	t.st.Steps++
	sr, err := t.stepWaitingForDevice(ctx, &act, false)
	if err != nil {
		workflow.GetLogger(ctx).Warn("the look todo could not go back to where it started", "app", from.Package, "error", err)
	} else {
		t.st.Screen = sr.Screen
	}
	res.Steps = t.st.Steps
	return res
}
