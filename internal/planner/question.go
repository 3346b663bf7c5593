package planner

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// The planner's choices on an executor's question (docs/design.md
// #executor-questions).
const (
	// QuestionAnswer: the planner answers; the executor gets the text.
	QuestionAnswer = "answer"
	// QuestionReplan: the todo stops and the goal replans it.
	QuestionReplan = "replan"
	// QuestionAskUser: the person is asked, as without the planner.
	QuestionAskUser = "ask_user"
)

// MaxQuestionAnswerChars bounds the planner's answer and its reason: the
// answer rides as a note in the executor's next request.
const MaxQuestionAnswerChars = 600

// QuestionSystem opens every request in which the planner hears an
// executor's question; the offline model server recognises the role by
// its first words.
const QuestionSystem = `You are the planner, and the executor working on one todo of your plan asks a question. The executor drives an Android phone one action at a time; it keeps no memory across todos and knows only its todo and the screen.

Decide from what you know (the goal, the results of the earlier todos, the person's earlier answers and what earlier goals taught) and from nothing else:
- "answer": the goal or what you know states the answer plainly. Give it in "answer", in the words the goal uses (a message's text exactly as the goal quotes it).
- "replan": the question shows the todo is the wrong next step (the goal wants something else, or the todo cannot be done as written). The todo stops and you plan again; say why in "reason".
- "ask_user": only the person can answer, or the executor asks the person to act on the phone (sign in, solve a check). When you are not sure, ask the person: a guessed answer that sends the wrong words or taps the wrong person is worse than a question.
Never invent names, texts, numbers or passwords. Never answer with a password or another secret.

Answer with only one JSON object, no other text:
{"choice":"answer","answer":"on my way","reason":"the goal quotes the message: \"on my way\""}`

// QuestionContext is what the planner sees of an executor's question.
type QuestionContext struct {
	Goal string
	Todo string
	// Question is the executor's question, Kind its action (Interact
	// asks in words, Take_over hands the phone to the person).
	Question, Kind string
	// Earlier are the results of the goal's earlier todos, one line each.
	Earlier []string
	// Answers are the person's earlier answers in this goal.
	Answers []QA
	// Memory: see PlanContext.Memory.
	Memory []string
}

// Text is the user message of a question request.
func (c QuestionContext) Text() string {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("Goal: %s", oneLine(c.Goal))
	line("Todo: %s", oneLine(c.Todo))
	kind := c.Kind
	if kind == "" {
		kind = "Interact"
	}
	line("Executor asks (%s): %s", kind, oneLine(c.Question))
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		line("%s:", title)
		for _, s := range items {
			line("- %s", oneLine(s))
		}
	}
	list("Earlier todos", c.Earlier)
	var qa []string
	for _, a := range c.Answers {
		qa = append(qa, fmt.Sprintf("%s → %s", a.Question, a.Answer))
	}
	list("The person answered earlier", qa)
	list("Remembered", c.Memory)
	line(`Answer {"choice":"answer|replan|ask_user","answer":"...","reason":"..."}.`)
	return strings.TrimRight(b.String(), "\n")
}

// BuildQuestionMessages builds the question request.
func BuildQuestionMessages(c QuestionContext) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Text: QuestionSystem},
		{Role: llm.RoleUser, Text: c.Text()},
	}
}

// QuestionSchema is the JSON Schema of a question answer.
var QuestionSchema = choiceSchema("question", "choice", []string{QuestionAnswer, QuestionReplan, QuestionAskUser}, "answer", "choice", "reason")

// QuestionDecision is a validated answer to an executor's question.
type QuestionDecision struct {
	Choice string `json:"choice"`
	Answer string `json:"answer,omitempty"`
	Reason string `json:"reason"`
}

// ParseQuestionDecision reads a question answer strictly: one JSON object
// with a known "choice", a non-empty "reason", and a non-empty "answer"
// exactly when the choice is "answer". The error says what to fix.
func ParseQuestionDecision(text string) (QuestionDecision, error) {
	f, err := stringObject(text, "choice", "answer", "reason")
	if err != nil {
		return QuestionDecision{}, err
	}
	d := QuestionDecision{Choice: f["choice"], Answer: f["answer"], Reason: f["reason"]}
	switch d.Choice {
	case QuestionAnswer:
		if d.Answer == "" {
			return QuestionDecision{}, fmt.Errorf(`"choice":"answer" needs the answer in "answer"; choose "ask_user" when you do not know it`)
		}
	case QuestionReplan, QuestionAskUser:
		d.Answer = ""
	default:
		return QuestionDecision{}, fmt.Errorf(`"choice" is %q: it must be "answer", "replan" or "ask_user"`, d.Choice)
	}
	if d.Reason == "" {
		return QuestionDecision{}, fmt.Errorf(`"reason" must say in one sentence why you chose %q`, d.Choice)
	}
	return d, nil
}

// strictObject reads one JSON object (optionally in a code fence or after
// a <think> block) whose keys are all among allowed.
func strictObject(text string, allowed ...string) (map[string]json.RawMessage, error) {
	want := `answer one JSON object with "` + strings.Join(allowed, `", "`) + `" only`
	if len(text) > MaxAnswerBytes {
		return nil, fmt.Errorf("the answer is longer than %d bytes: %s", MaxAnswerBytes, want)
	}
	obj, ok := firstObject(stripThinking(text))
	if !ok {
		return nil, fmt.Errorf("no JSON object in the answer: %s", want)
	}
	for k := range obj {
		known := false
		for _, a := range allowed {
			known = known || k == a
		}
		if !known {
			return nil, fmt.Errorf("unknown field %q: %s", k, want)
		}
	}
	return obj, nil
}
