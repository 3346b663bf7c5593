package planner

import (
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// The planner's decisions on a review of a running todo (docs/design.md
// #planner-review).
const (
	ReviewContinue = "continue" // the todo goes on as it is
	ReviewHint     = "hint"     // the text goes with the executor's next think
	ReviewReplan   = "replan"   // the todo stops and the goal replans it
)

// ReviewSystem opens every review request; the offline model server
// recognises the role by its first words.
const ReviewSystem = `You are the planner, looking in on a todo of your plan while the executor works on it. The executor drives an Android phone one action at a time; it keeps no memory across todos. You see the goal, the todo, how many steps it took and its recent actions with their results (no screenshots).

Decide:
- "continue": the actions move towards the todo. This is the usual answer; it costs nothing.
- "hint": the executor is off its way but the todo can still be done here. Give one or two concrete sentences in "hint" for its next turn (what to do instead; never "try again").
- "replan": the todo cannot be done as written, or the executor works on something the goal does not want. It stops and you plan again; say why in "reason".
Never tell the executor that the todo is done: its finish is checked on the phone.

Answer with only one JSON object, no other text:
{"decision":"continue","reason":"it opened the conversation and is typing the text"}`

// ReviewContext is what the planner sees of a running todo.
type ReviewContext struct {
	Goal string
	Todo string
	// Steps the todo took so far, of at most MaxSteps.
	Steps, MaxSteps int
	// Recent are the latest actions with their results, oldest first.
	Recent []string
	// Failures are the todo's lessons so far: failed actions, rejected
	// finishes, corrections.
	Failures []string
	// Hints the planner gave this todo before.
	Hints []string
	// Next is the action the executor decided and has not run yet.
	Next string
}

// Text is the user message of a review request.
func (c ReviewContext) Text() string {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("Goal: %s", oneLine(c.Goal))
	line("Todo: %s", oneLine(c.Todo))
	if c.MaxSteps > 0 {
		line("Steps: %d of at most %d", c.Steps, c.MaxSteps)
	} else {
		line("Steps: %d", c.Steps)
	}
	list := func(title string, items []string) {
		line("%s:", title)
		if len(items) == 0 {
			line("- (none)")
		}
		for _, s := range items {
			line("- %s", oneLine(s))
		}
	}
	list("Recent actions", c.Recent)
	if len(c.Failures) > 0 {
		list("Went wrong", c.Failures)
	}
	if len(c.Hints) > 0 {
		list("Your earlier hints", c.Hints)
	}
	if c.Next != "" {
		line("Next: %s", oneLine(c.Next))
	}
	line(`Answer {"decision":"continue|hint|replan","hint":"...","reason":"..."}.`)
	return strings.TrimRight(b.String(), "\n")
}

// BuildReviewMessages builds the review request.
func BuildReviewMessages(c ReviewContext) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Text: ReviewSystem},
		{Role: llm.RoleUser, Text: c.Text()},
	}
}

// ReviewSchema is the JSON Schema of a review answer.
var ReviewSchema = choiceSchema("review", "decision", []string{ReviewContinue, ReviewHint, ReviewReplan}, "hint", "decision", "reason")

// ReviewDecision is a validated review answer.
type ReviewDecision struct {
	Decision string `json:"decision"`
	Hint     string `json:"hint,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// ParseReviewDecision reads a review answer strictly: a known "decision",
// a non-empty "hint" exactly for "hint", a non-empty "reason" for
// "replan". The error says what to fix.
func ParseReviewDecision(text string) (ReviewDecision, error) {
	f, err := stringObject(text, "decision", "hint", "reason")
	if err != nil {
		return ReviewDecision{}, err
	}
	d := ReviewDecision{Decision: f["decision"], Hint: f["hint"], Reason: f["reason"]}
	switch d.Decision {
	case ReviewContinue:
		d.Hint = ""
	case ReviewHint:
		if d.Hint == "" {
			return ReviewDecision{}, fmt.Errorf(`"decision":"hint" needs the hint in "hint"; answer "continue" when you have none`)
		}
	case ReviewReplan:
		d.Hint = ""
		if d.Reason == "" {
			return ReviewDecision{}, fmt.Errorf(`"decision":"replan" needs "reason": why the todo cannot go on`)
		}
	default:
		return ReviewDecision{}, fmt.Errorf(`"decision" is %q: it must be "continue", "hint" or "replan"`, d.Decision)
	}
	return d, nil
}
