package progress

import (
	"fmt"
	"strconv"
)

// Result is the outcome of a finished goal as the CLI prints it.
type Result struct {
	GoalID   string `json:"workflow_id"`
	Status   string `json:"status"`
	Steps    int    `json:"steps"`
	Todos    []Todo `json:"todos"`
	Response string `json:"result,omitempty"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

// Summary returns the closing lines printed when a goal ends.
func Summary(r Result) []string {
	out := []string{fmt.Sprintf("%s %s after %s", r.GoalID, r.Status, Plural(r.Steps, "step"))}
	for i, t := range r.Todos {
		l := fmt.Sprintf("  %s %d. %s  (%s, %s)", Mark(t.Status), i+1, oneLine(t.Text, 80), t.Status, Plural(t.Steps, "step"))
		if t.Result != "" {
			l += " → " + oneLine(t.Result, 120)
		}
		out = append(out, l)
	}
	if r.Response != "" {
		out = append(out, "result: "+r.Response)
	}
	if r.Reason != "" {
		out = append(out, "reason: "+r.Reason)
	}
	if r.NextStep != "" {
		out = append(out, "next: "+r.NextStep)
	}
	return out
}

// AnswerHints returns the commands that answer what s is waiting for from
// another terminal: the starter CLI and the Temporal CLI forms. It returns
// nil when nothing is pending.
func AnswerHints(s Snapshot) []string {
	id := s.GoalID
	switch {
	case s.Question != "":
		return []string{
			"answer from another terminal with:",
			fmt.Sprintf("  starter clarify %s %s", id, strconv.Quote("<your answer>")),
			fmt.Sprintf("  temporal workflow signal -w %s --name clarify --input '%s'", id, strconv.Quote("<your answer>")),
		}
	case s.Approval != "":
		return []string{
			"approve or deny from another terminal with:",
			fmt.Sprintf("  starter approve %s   (or: starter deny %s --note %s)", id, id, strconv.Quote("why")),
			fmt.Sprintf("  temporal workflow signal -w %s --name approve --input '{\"approved\":true}'", id),
		}
	}
	return nil
}
