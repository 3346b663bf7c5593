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
	head := fmt.Sprintf("%s %s after %s", r.GoalID, r.Status, Plural(r.Steps, "step"))
	// The goal's count includes the planner's steps (the plan and each
	// replan), which no todo line shows: say how many, so the lines add up.
	inTodos := 0
	for _, t := range r.Todos {
		inTodos += t.Steps
	}
	if len(r.Todos) > 0 && inTodos < r.Steps {
		head += fmt.Sprintf(" (%d in its todos, %d planning)", inTodos, r.Steps-inTodos)
	}
	out := []string{head}
	for i, t := range r.Todos {
		l := fmt.Sprintf("  %s %d. %s  (%s, %s)", Mark(t.Status), i+1, oneLine(t.Text, 80), t.Status, Plural(t.Steps, "step"))
		if t.Result != "" {
			l += " → " + oneLine(t.Result, 120)
		}
		out = append(out, l)
	}
	if r.Response != "" && r.Status == "done" {
		out = append(out, "result: "+r.Response)
	}
	if r.Reason != "" {
		out = append(out, "reason: "+r.Reason)
	}
	if r.Response != "" && r.Status != "done" {
		// A goal that did not end done has no result, whatever the
		// planner's closing words ("Done: …") say: the reason comes first
		// and the planner's answer is labelled as its own.
		out = append(out, "planner's answer: "+r.Response)
	}
	if r.NextStep != "" {
		out = append(out, "next: "+r.NextStep)
	}
	return out
}

// AnswerHints returns the commands that answer what s is waiting for from
// another terminal: the starter CLI and the Temporal CLI forms. It returns
// nil when nothing is pending.
func AnswerHints(s Snapshot) []string { return AnswerHintsFor(s, Conn{}) }

// Conn holds the flags the printed commands need to reach the goal's
// cluster when it is not the default one: Starter for `starter`, Temporal
// for the Temporal CLI.
type Conn struct{ Starter, Temporal string }

func withFlags(cmd, flags string) string {
	if flags == "" {
		return cmd
	}
	return cmd + " " + flags
}

// AnswerHintsFor is AnswerHints with commands that carry c's flags.
func AnswerHintsFor(s Snapshot, c Conn) []string {
	id := s.GoalID
	switch {
	case s.Question != "":
		return []string{
			"answer from another terminal with:",
			"  " + withFlags(fmt.Sprintf("starter clarify %s %s", id, strconv.Quote("<your answer>")), c.Starter),
			"  " + withFlags(fmt.Sprintf("temporal workflow signal -w %s --name clarify --input '%s'", id, strconv.Quote("<your answer>")), c.Temporal),
		}
	case s.Approval != "":
		return []string{
			"approve or deny from another terminal with:",
			fmt.Sprintf("  %s   (or: %s)", withFlags("starter approve "+id, c.Starter), withFlags(fmt.Sprintf("starter deny %s --note %s", id, strconv.Quote("why")), c.Starter)),
			"  " + withFlags(fmt.Sprintf("temporal workflow signal -w %s --name approve --input '{\"approved\":true}'", id), c.Temporal),
		}
	}
	return nil
}
