package planner

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// MaxCorrectionChars bounds a planner-written correction: it rides as a
// note in the executor's next request (docs/design.md §2).
const MaxCorrectionChars = 600

// CorrectionSystem opens every correction request; the offline model
// server recognises the role by its first words.
const CorrectionSystem = `You are the correction writer of a phone automation system. An executor works on one todo on an Android phone, one action at a time, and is stuck: the screen did not change after its last actions, or it decided the same action again and again.

From the todo, the executor's recent actions with their results and the current screen (app in front and UI element list), write one short correction for the executor's next turn: what went wrong and what to try differently (a different element, going Back, scrolling, launching the app again, or finishing with an honest message when the todo cannot be done here). Be concrete: name the element and its coordinates, or the action, e.g. do(action="Back"). Never tell it to repeat an action that had no effect.

Answer with only one JSON object, no other text:
{"correction":"Tapping [500,300] did nothing: the Bluetooth switch is at [900,410]; tap it instead with do(action=\"Tap\", element=[900,410])."}`

// CorrectionContext is what the correction writer sees.
type CorrectionContext struct {
	Todo string
	// Why says what the stuck guard saw ("the screen did not change after
	// 3 actions").
	Why string
	// Recent are the executor's latest actions with their results, oldest
	// first ("Tap [500,300] → ok").
	Recent []string
	// Screen now: the app in front and its elements.
	App, AppPackage string
	Sensitive       bool
	Elements        []uitree.Element
	Width, Height   int
	// Corrections already given in this todo run.
	Corrections int
}

// Text is the user message of a correction request: the todo, why it is
// stuck, the recent actions and the screen, in the line layout the
// executor's requests use.
func (c CorrectionContext) Text() string {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("Task: %s", oneLine(c.Todo))
	line("Stuck: %s", oneLine(c.Why))
	if c.Corrections > 0 {
		line("Corrections already given: %d", c.Corrections)
	}
	line("Recent actions:")
	if len(c.Recent) == 0 {
		line("- (none)")
	}
	for _, r := range c.Recent {
		line("- %s", oneLine(r))
	}
	if c.App != "" || c.AppPackage != "" {
		line("Current app: %s (%s)", oneLine(firstNonEmpty(c.App, c.AppPackage)), oneLine(firstNonEmpty(c.AppPackage, c.App)))
	}
	if c.Sensitive {
		line("Screen: sensitive: screenshot unavailable")
	} else {
		line("Screen: normal")
	}
	if len(c.Elements) > 0 && c.Width > 0 && c.Height > 0 {
		line("%s", uitree.FormatList(c.Elements, c.Width, c.Height))
	}
	line(`Answer {"correction":"..."}.`)
	return strings.TrimRight(b.String(), "\n")
}

// BuildCorrectionMessages builds the correction request.
func BuildCorrectionMessages(c CorrectionContext) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Text: CorrectionSystem},
		{Role: llm.RoleUser, Text: c.Text()},
	}
}

// CorrectionSchema is the JSON Schema of a correction answer, sent as the
// request's response format where the endpoint accepts one.
var CorrectionSchema = llm.JSONSchema{Name: "correction", Schema: map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"correction": map[string]any{"type": "string"}},
	"required":             []string{"correction"},
	"additionalProperties": false,
}}

// ParseCorrection reads a correction answer strictly: one JSON object
// (optionally in a code fence or after a <think> block) with a non-empty
// "correction" of at most MaxCorrectionChars characters and nothing else.
// The error says what to fix, for feeding back.
func ParseCorrection(text string) (string, error) {
	if len(text) > MaxAnswerBytes {
		return "", fmt.Errorf("the answer is longer than %d bytes: answer {\"correction\":\"...\"} only", MaxAnswerBytes)
	}
	obj, ok := firstObject(stripThinking(text))
	if !ok {
		return "", fmt.Errorf(`no JSON object in the answer: answer {"correction":"..."} only`)
	}
	for k := range obj {
		if k != "correction" {
			return "", fmt.Errorf("unknown field %q: answer with \"correction\" only", k)
		}
	}
	var s string
	if err := json.Unmarshal(obj["correction"], &s); err != nil || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf(`"correction" must be a non-empty string saying what to try differently`)
	}
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > MaxCorrectionChars {
		return "", fmt.Errorf(`"correction" has %d characters, more than %d: say it in one or two sentences`, n, MaxCorrectionChars)
	}
	return s, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
