package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"
)

// ChangeHopelessTodo: a todo that failed twice with the same evidence, on
// the same final screen, committing nothing, is not run a third time: it
// is failed without a child workflow and the replanner is asked again; a
// planner that plans it once more after that ends the goal
// (docs/design.md §9). Before it, every todo the planner planned ran.
const ChangeHopelessTodo = "hopeless-todo"

// maxFailuresKept bounds the failures a goal remembers, one a todo text.
const maxFailuresKept = 16

// failure is the last failed run of a todo text: what showed it failed
// and the screen it ended on.
type failure struct {
	Todo    string `json:"todo"` // the todo's text, folded
	Why     string `json:"why"`
	Screen  string `json:"screen,omitempty"`
	Times   int    `json:"times"`             // runs in a row that failed this way
	Skipped int    `json:"not_run,omitempty"` // times it was not run since
}

// repeats is what the goal remembers of failed todos, to see one that
// hits the same wall again (docs/design.md §9).
type repeats struct {
	Failures []failure `json:"failures,omitempty"`
}

// foldTodo is a todo's text as repeats compares it.
func foldTodo(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func (r *repeats) find(todo string) int {
	k := foldTodo(todo)
	for i, f := range r.Failures {
		if f.Todo == k {
			return i
		}
	}
	return -1
}

// record folds one finished run of a todo in and returns the repeated
// evidence when this run failed the way the last run of the same todo did
// and neither changed the phone ("" otherwise). A run that was done or
// committed something forgets the todo's failures: the phone changed.
func (r *repeats) record(todo string, tr TodoResult) string {
	i := r.find(todo)
	if (tr.Status != TodoFailed && tr.Status != TodoStuck) || len(tr.Committed) > 0 {
		if i >= 0 && (tr.Status == TodoDone || len(tr.Committed) > 0) {
			r.Failures = append(r.Failures[:i], r.Failures[i+1:]...)
		}
		return ""
	}
	why := strings.Join(strings.Fields(tr.Evidence), " ")
	if why == "" {
		why = strings.Join(strings.Fields(tr.Result), " ")
	}
	if i >= 0 && r.Failures[i].Why == why && r.Failures[i].Screen == tr.Screen {
		r.Failures[i].Times++
		return repeatedText(r.Failures[i])
	}
	f := failure{Todo: foldTodo(todo), Why: why, Screen: tr.Screen, Times: 1}
	if i >= 0 {
		r.Failures[i] = f
		return ""
	}
	r.Failures = append(r.Failures, f)
	if len(r.Failures) > maxFailuresKept {
		r.Failures = r.Failures[len(r.Failures)-maxFailuresKept:]
	}
	return ""
}

// hopeless returns the repeated evidence of a todo that failed at least
// twice in a row the same way without changing the phone, and how often
// it was not run since; "" for any other todo.
func (r *repeats) hopeless(todo string) (string, int) {
	i := r.find(todo)
	if i < 0 || r.Failures[i].Times < 2 {
		return "", 0
	}
	return repeatedText(r.Failures[i]), r.Failures[i].Skipped
}

func repeatedText(f failure) string {
	return fmt.Sprintf("failed %d times in a row with the same evidence (%s) on the same screen, and changed nothing on the phone",
		f.Times, truncate(f.Why, 300))
}

// notRunAgain fails todo i without running it when it is hopeless
// (ChangeHopelessTodo): the replanner is asked again with why, and a
// todo the planner planned once more after being told so ends the goal.
// skipped says the todo was not run; stop that the goal ends with r.
func (g *goalRun) notRunAgain(ctx workflow.Context, i int) (r GoalResult, skipped, stop bool) {
	t := &g.st.Todos[i]
	why, before := g.st.Repeats.hopeless(t.Text)
	if why == "" || getVersion(ctx, ChangeHopelessTodo, workflow.DefaultVersion, 1) < 1 {
		return GoalResult{}, false, false
	}
	g.st.Repeats.Failures[g.st.Repeats.find(t.Text)].Skipped++
	t.Status, t.Repeated = TodoFailed, why
	t.Result = "not run again: it " + why
	g.addFeedback(fmt.Sprintf("todo %d not run again: it %s", i+1, why))
	g.st.NeedReplan = true
	g.details(ctx)
	if before == 0 {
		return GoalResult{}, true, false
	}
	return g.finish(ctx, GoalResult{Status: GoalFailed,
		Reason:   fmt.Sprintf("todo %d %q %s; the planner planned it again", i+1, truncate(t.Text, 200), why),
		NextStep: "fix what the evidence names on the phone (or word the goal differently), then start the goal again"}), true, true
}
