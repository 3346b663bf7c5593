package drill

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Reported is a device action a todo decided and the result a Step
// reported for it, if one completed.
type Reported struct {
	In     activities.StepInput
	Result *activities.ActResult // nil when no Step with the action completed
}

// Applied reports whether the result says the action is on the phone:
// sent, or recovered as sent, and neither refused nor left uncertain.
func (r Reported) Applied() bool {
	a := r.Result
	return a != nil && a.Refused == "" && a.Uncertain == "" && a.NeedsHuman == "" &&
		(a.Result == "ok" || a.Result == activities.ActAlreadyApplied)
}

// ReportedActions reads, over every run of each todo of a goal, the device
// actions its Steps carried (once per action ID) with the result of the
// last Step with that action that completed.
func ReportedActions(ctx context.Context, c client.Client, goalID string, res workflows.GoalResult) ([]Reported, error) {
	return ReportedActionsIn(ctx, c, GoalWorkflowIDs(goalID, res)[1:])
}

// ReportedActionsIn is ReportedActions over the todo workflows ids, for a
// goal without a result (see StartedTodoIDs).
func ReportedActionsIn(ctx context.Context, c client.Client, ids []string) ([]Reported, error) {
	var out []Reported
	index := map[string]int{}
	for _, id := range ids {
		runs, err := Runs(ctx, c, id)
		if err != nil {
			return nil, err
		}
		for _, h := range runs {
			scheduled := map[int64]int{} // scheduled event ID → index in out
			for _, ev := range h.GetEvents() {
				if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameStep {
					for _, p := range a.GetInput().GetPayloads() {
						var in activities.StepInput
						if err := json.Unmarshal(p.GetData(), &in); err != nil || in.Act == nil || !in.Act.TouchesDevice() {
							continue
						}
						i, ok := index[in.ActionID]
						if !ok || in.ActionID == "" {
							i = len(out)
							out = append(out, Reported{In: in})
							if in.ActionID != "" {
								index[in.ActionID] = i
							}
						}
						scheduled[ev.GetEventId()] = i
					}
				}
				if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil {
					i, ok := scheduled[a.GetScheduledEventId()]
					if !ok {
						continue
					}
					for _, p := range a.GetResult().GetPayloads() {
						var r activities.StepResult
						if err := json.Unmarshal(p.GetData(), &r); err == nil && r.Act != nil {
							out[i].Result = r.Act
						}
					}
				}
			}
		}
	}
	return out, nil
}

// signatures are what an action leaves in the phone's input log, one
// entry per input event: a tap at its pixel, a swipe between two pixels,
// the text typed, a launch, a Back or Home key.
func signatures(in activities.StepInput) []string {
	a := *in.Act
	px := func(p *autoglm.Point) string {
		if p == nil {
			return "?"
		}
		if in.Width <= 0 || in.Height <= 0 {
			return "*"
		}
		x, y := autoglm.ToPixel(*p, in.Width, in.Height)
		return fmt.Sprintf("%d %d", x, y)
	}
	switch a.Name {
	case autoglm.ActionTap:
		return []string{"tap " + px(a.Element)}
	case autoglm.ActionDoubleTap:
		return []string{"tap " + px(a.Element), "tap " + px(a.Element)}
	case autoglm.ActionLongPress:
		return []string{"swipe " + px(a.Element) + " " + px(a.Element)}
	case autoglm.ActionSwipe:
		return []string{"swipe " + px(a.Start) + " " + px(a.End)}
	case autoglm.ActionType, autoglm.ActionTypeName:
		return []string{"text " + a.Text}
	case autoglm.ActionLaunch:
		return []string{"launch"}
	case autoglm.ActionBack:
		return []string{"key 4"}
	case autoglm.ActionHome:
		return []string{"key 3"}
	}
	return nil
}

// inputSignatures counts the phone's input log by signature.
func inputSignatures(st phonesim.State) map[string]int {
	n := map[string]int{}
	for _, e := range st.InputLog {
		switch e.Kind {
		case "tap":
			n["tap "+strings.Join(e.Args, " ")]++
		case "swipe":
			if len(e.Args) >= 4 {
				n["swipe "+strings.Join(e.Args[:4], " ")]++
			}
		case "text", "ime_text":
			n["text "+strings.Join(e.Args, " ")]++
		case "launch":
			n["launch"]++
		case "keyevent":
			n["key "+strings.Join(e.Args, " ")]++
		}
	}
	return n
}

// AppliedButNotSent lists the signatures of actions reported applied
// more often than the phone's input log holds them: a claim the phone
// contradicts (docs/design.md §4).
func AppliedButNotSent(acts []Reported, st phonesim.State) []string {
	claimed := map[string]int{}
	for _, r := range acts {
		if r.Applied() {
			for _, s := range signatures(r.In) {
				claimed[s]++
			}
		}
	}
	got := inputSignatures(st)
	var out []string
	for s, n := range claimed {
		if strings.Contains(s, "*") || strings.Contains(s, "?") {
			continue
		}
		if got[s] < n {
			out = append(out, fmt.Sprintf("%q reported applied %d times, in the input log %d times", s, n, got[s]))
		}
	}
	sort.Strings(out)
	return out
}

// SentTwice lists the signatures the phone's input log holds more often
// than the goal decided actions with them: an action sent twice.
// Back and Home keys are left out (the worker itself presses no key but
// Wake, which is neither), as are launches.
func SentTwice(acts []Reported, st phonesim.State) []string {
	decided := map[string]int{}
	for _, r := range acts {
		for _, s := range signatures(r.In) {
			decided[s]++
		}
	}
	var out []string
	for s, n := range inputSignatures(st) {
		if strings.HasPrefix(s, "key ") && s != "key 4" && s != "key 3" {
			continue
		}
		if n > decided[s] {
			out = append(out, fmt.Sprintf("%q in the input log %d times, decided %d times", s, n, decided[s]))
		}
	}
	sort.Strings(out)
	return out
}
