package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/promptmem"
)

// PromptOptTemplate is the template the prompt optimisation comparison
// draws its tasks from by default, in its first phrasing, so every task
// is one todo type.
const PromptOptTemplate = "messages.send"

// PromptOptOptions configure the comparison of one task type with prompt
// optimisation off and on (docs/design.md §2 Guards).
type PromptOptOptions struct {
	Template  string // a generated-suite template; empty = PromptOptTemplate
	Runs      int    // tasks per arm; 0 = 30
	Seed      int64
	WrongTaps float64
	Naive     bool
	Progress  func(string)
}

// PromptOptArm is one arm's outcome.
type PromptOptArm struct {
	On        bool
	Summary   Summary
	TodoRuns  int
	TodosDone int
	// Thirds are the goals achieved in each third of the runs.
	Thirds [3]int
	// Guidance is each todo type's guidance at the end of the arm: the
	// planner may phrase the todos of one template in more than one type.
	Guidance map[string]promptmem.Guidance
	TodoType string // the type of the tasks' own text
}

// PromptOpt runs the same tasks twice, one at a time on one phone, with
// prompt optimisation off and then on; each arm starts with no guidance
// for the todo type.
func PromptOpt(ctx context.Context, st *bench.Stack, o PromptOptOptions) ([]PromptOptArm, error) {
	if o.Template == "" {
		o.Template = PromptOptTemplate
	}
	if o.Runs <= 0 {
		o.Runs = 30
	}
	tasks, err := oneTemplate(o.Template, o.Seed, o.Runs)
	if err != nil {
		return nil, err
	}
	mem, err := promptmem.Open(st.PromptMemoryPath())
	if err != nil {
		return nil, err
	}
	todoType := activities.TodoType(tasks[0].Goal)
	var arms []PromptOptArm
	for _, on := range []bool{false, true} {
		// Every arm starts with no guidance at all: the executor reads
		// the guidance in force whether or not the goal records runs.
		all, err := mem.AllGuidance()
		if err != nil {
			return nil, err
		}
		for k := range all {
			if err := mem.Forget(k); err != nil {
				return nil, err
			}
		}
		sum, err := Run(ctx, st, Options{Tasks: tasks, Seed: o.Seed, WrongTaps: o.WrongTaps, Naive: o.Naive, Batch: 1,
			PromptOpt: &on, Progress: o.Progress})
		if err != nil {
			return arms, err
		}
		arm := PromptOptArm{On: on, Summary: sum, TodoType: todoType}
		for i, out := range sum.Outcomes {
			arm.TodoRuns += out.TodoRuns
			arm.TodosDone += out.TodosDone
			if out.Achieved {
				arm.Thirds[min(3*i/len(sum.Outcomes), 2)]++
			}
		}
		if arm.Guidance, err = mem.AllGuidance(); err != nil {
			return arms, err
		}
		arms = append(arms, arm)
	}
	return arms, nil
}

// oneTemplate draws n tasks of template in its first phrasing.
func oneTemplate(id string, seed int64, n int) ([]Task, error) {
	for _, tp := range Templates() {
		if tp.ID != id {
			continue
		}
		r := templateRand(tp, seed)
		var out []Task
		for k := range n {
			out = append(out, tp.task(tp.Draw(r), tp.Phrasings[0], fmt.Sprintf("%s/%d", tp.ID, k+1)))
		}
		return out, nil
	}
	var ids []string
	for _, tp := range Templates() {
		ids = append(ids, tp.ID)
	}
	return nil, fmt.Errorf("no template %q: pick one of %s", id, strings.Join(ids, ", "))
}

// WritePromptOpt prints the comparison as a Markdown table, then the
// guidance versions the optimised arm ended with.
func WritePromptOpt(w io.Writer, o PromptOptOptions, arms []PromptOptArm) {
	if len(arms) == 0 {
		return
	}
	fmt.Fprintf(w, "Task type %q (todo type %q), %d runs per arm, seed %d, wrong taps %.2f, naive executor %v; one phone, one goal at a time.\n\n",
		firstNonEmpty(o.Template, PromptOptTemplate), arms[0].TodoType, arms[0].Summary.Goals, o.Seed, o.WrongTaps, o.Naive)
	fmt.Fprintln(w, "| prompt optimisation | goals achieved | runs 1–10 | 11–20 | 21–30 | todo runs verified done | false done | guidance versions (in force at the end) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, a := range arms {
		name := "off"
		if a.On {
			name = "on"
		}
		versions := "none"
		var parts []string
		for _, k := range sortedKeys(a.Guidance) {
			g := a.Guidance[k]
			parts = append(parts, fmt.Sprintf("%q: %d (v%d)", k, len(g.Versions), g.InForce))
		}
		if len(parts) > 0 {
			versions = strings.Join(parts, "; ")
		}
		s := a.Summary
		fmt.Fprintf(w, "| %s | %d/%d (%.0f%%) | %d | %d | %d | %d/%d (%.0f%%) | %d | %s |\n", name, s.Achieved, s.Goals, pct(s.Achieved, s.Goals),
			a.Thirds[0], a.Thirds[1], a.Thirds[2], a.TodosDone, a.TodoRuns, pct(a.TodosDone, a.TodoRuns), s.FalseDone, versions)
	}
	for _, a := range arms {
		if !a.On {
			continue
		}
		for _, k := range sortedKeys(a.Guidance) {
			fmt.Fprintf(w, "\nTodo type %q:\n", k)
			for _, v := range a.Guidance[k].Versions {
				text := strings.ReplaceAll(v.Text, "\n", " / ")
				if text == "" {
					text = "(none)"
				}
				fmt.Fprintf(w, "- v%d %s, %d/%d done: %s\n", v.N, v.Status, v.Successes, v.Runs, text)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
