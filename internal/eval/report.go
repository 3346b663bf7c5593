package eval

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/phoneflow/phoneflow/workflows"
)

// Render writes the table of one or more summaries of a fixed set, then a
// line per goal that was not achieved.
func Render(w io.Writer, title string, sums ...Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", title)
	b.WriteString("| mode | goals | achieved | false done | false failed | asked | wrong commit | steps | mean steps | model calls |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		fmt.Fprintf(&b, "| %s | %d | %d (%.0f%%) | %d | %d | %d | %d | %d | %.1f | %d |\n", s.Mode, s.Goals, s.Achieved,
			pct(s.Achieved, s.Goals), s.FalseDone, s.FalseFailed, s.Asked, s.WrongCommits, s.Steps, ratio(s.Steps, s.Goals), s.ModelCalls)
	}
	for _, s := range sums {
		for _, o := range s.Outcomes {
			if !o.Achieved || len(o.Commits) > 0 {
				fmt.Fprintf(&b, "\n- %s `%s` (%s, expect %s): %s", s.Mode, o.Task.ID, o.Status, expect(o.Task), clip(o.Why, 300))
			}
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func expect(t Task) string {
	if t.Feasible {
		return workflows.GoalDone
	}
	return workflows.GoalFailed
}

// RenderSuite writes the report of generated-suite runs (one summary per
// seed and mode): a line per run with throughput, a table per template and
// per phrasing kind over all runs, then every false done and wrong commit
// action with the goal's words.
func RenderSuite(w io.Writer, title string, sums ...Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", title)
	b.WriteString("| mode | seed | tasks | achieved | honest failure | asked | FALSE DONE | WRONG COMMIT | mean steps | model calls | phones | minutes | tasks/min |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		fmt.Fprintf(&b, "| %s | %d | %d | %d (%.1f%%) | %d | %d | %d | %d | %.1f | %d | %d | %.1f | %.1f |\n", s.Mode, s.Seed, s.Goals,
			s.Achieved, pct(s.Achieved, s.Goals), s.HonestFailures, s.Asked, s.FalseDone, s.WrongCommits,
			ratio(s.Steps, s.Goals), s.ModelCalls, s.Phones, s.Elapsed.Minutes(), s.PerMinute())
	}
	var outs []Outcome
	for _, s := range sums {
		outs = append(outs, s.Outcomes...)
	}
	b.WriteString("\nPer template (all runs above):\n\n")
	b.WriteString("| template | app | feasible | tasks | achieved | honest failure | asked | FALSE DONE | WRONG COMMIT |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, g := range groupBy(outs, func(o Outcome) string { return o.Task.Template }) {
		t := g.outs[0].Task
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", g.key, t.App, yesNo(t.Feasible), g.counts())
	}
	b.WriteString("\nPer phrasing kind (all runs above):\n\n")
	b.WriteString("| kind | tasks | achieved | honest failure | asked | FALSE DONE | WRONG COMMIT |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, g := range groupBy(outs, func(o Outcome) string { return o.Task.Phrasing }) {
		fmt.Fprintf(&b, "| %s | %s |\n", g.key, g.counts())
	}
	b.WriteString("\nFalse done and wrong commit actions:\n")
	n := 0
	for _, s := range sums {
		for _, o := range s.Outcomes {
			if o.FalseDone || len(o.Commits) > 0 {
				n++
				fmt.Fprintf(&b, "\n- seed %d %s `%s` %q (%s): %s", s.Seed, s.Mode, o.Task.ID, o.Task.Goal, o.Status, clip(o.Why, 240))
			}
		}
	}
	if n == 0 {
		b.WriteString("\n- none")
	}
	b.WriteString("\n")
	writeReplays(&b, sums)
	_, err := io.WriteString(w, b.String())
	return err
}

type group struct {
	key  string
	outs []Outcome
}

// counts is "tasks | achieved | honest failure | asked | false done | wrong commit".
func (g group) counts() string {
	var a, h, q, f, c int
	for _, o := range g.outs {
		switch o.Verdict {
		case Achieved:
			a++
		case HonestFailure:
			h++
		case Asked:
			q++
		case FalseDone:
			f++
		}
		if len(o.Commits) > 0 {
			c++
		}
	}
	return fmt.Sprintf("%d | %d | %d | %d | %d | %d", len(g.outs), a, h, q, f, c)
}

func groupBy(outs []Outcome, key func(Outcome) string) []group {
	idx := map[string]int{}
	var gs []group
	for _, o := range outs {
		k := key(o)
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, group{key: k})
		}
		gs[i].outs = append(gs[i].outs, o)
	}
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].key < gs[j].key })
	return gs
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// writeReplays says how many workflow runs were replayed against this
// build's code and lists the tasks with a run that did not replay.
func writeReplays(b *strings.Builder, sums []Summary) {
	runs, bad := 0, 0
	for _, s := range sums {
		runs += s.Replayed
		bad += s.NotReplayed
	}
	fmt.Fprintf(b, "\nReplayed against this build: %d workflow runs, %d tasks with a run that did not replay.\n", runs, bad)
	for _, s := range sums {
		for _, o := range s.Outcomes {
			if o.NotReplayed != "" {
				fmt.Fprintf(b, "\n- seed %d %s `%s` %q: %s", s.Seed, s.Mode, o.Task.ID, o.Task.Goal, clip(o.NotReplayed, 400))
			}
		}
	}
	if bad > 0 {
		b.WriteString("\n")
	}
}
