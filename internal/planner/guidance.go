package planner

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// MaxGuidanceChars bounds a rewritten guidance: it rides in the executor's
// system prompt of every todo of its type (docs/design.md §2 Guards).
const MaxGuidanceChars = 1500

// GuidanceSystem opens every guidance rewrite request; the offline model
// server recognises the request by its first words.
const GuidanceSystem = `You are the guidance writer of a phone automation system. An executor carries out todos on an Android phone, one action at a time; every todo of one type gets the same guidance in its system prompt. Each run was verified from the phone's screen afterwards.

From the guidance in force and the recent verified runs of this todo type (what was done, and why the failures were not done), rewrite the guidance: short imperative lines, one per line, that keep what worked and prevent the failures seen (wrong elements tapped, loops that changed nothing, sends that were refused). General to the todo type: never name the parameters of one run (names, numbers, quoted text). At most 1500 characters.

Answer with only one JSON object, no other text:
{"guidance":"After each tap, look at the new screen and check it did what you meant before you go on or finish."}`

// GuidanceRun is one recent verified run of the todo type.
type GuidanceRun struct {
	Version int
	Success bool
	Todo    string
	Reason  string
}

// GuidanceContext is what the guidance writer sees.
type GuidanceContext struct {
	TodoType string // the todo text with its parameters abstracted
	Version  int    // the version in force
	Current  string // its text; empty for the base
	Why      string // what asked for the rewrite
	Runs     []GuidanceRun
}

// Text is the user message of a guidance request.
func (c GuidanceContext) Text() string {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("Todo type: %s", oneLine(c.TodoType))
	line("Rewrite asked because: %s", oneLine(c.Why))
	line("Guidance in force (v%d):", c.Version)
	if strings.TrimSpace(c.Current) == "" {
		line("(none)")
	} else {
		for _, l := range strings.Split(strings.TrimSpace(c.Current), "\n") {
			line("%s", l)
		}
	}
	line("Recent verified runs, oldest first:")
	if len(c.Runs) == 0 {
		line("- (none)")
	}
	for _, r := range c.Runs {
		verdict := "done"
		if !r.Success {
			verdict = "NOT done"
		}
		s := fmt.Sprintf("- v%d %s: %s", r.Version, verdict, oneLine(r.Todo))
		if r.Reason != "" {
			s += " — " + oneLine(r.Reason)
		}
		line("%s", s)
	}
	line(`Answer {"guidance":"..."}.`)
	return strings.TrimRight(b.String(), "\n")
}

// BuildGuidanceMessages builds the guidance rewrite request.
func BuildGuidanceMessages(c GuidanceContext) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Text: GuidanceSystem},
		{Role: llm.RoleUser, Text: c.Text()},
	}
}

// GuidanceSchema is the JSON Schema of a guidance answer.
var GuidanceSchema = llm.JSONSchema{Name: "guidance", Schema: map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"guidance": map[string]any{"type": "string"}},
	"required":             []string{"guidance"},
	"additionalProperties": false,
}}

// ParseGuidance reads a guidance answer strictly: one JSON object with a
// non-empty "guidance" of at most MaxGuidanceChars characters and nothing
// else. The error says what to fix, for feeding back.
func ParseGuidance(text string) (string, error) {
	if len(text) > MaxAnswerBytes {
		return "", fmt.Errorf("the answer is longer than %d bytes: answer {\"guidance\":\"...\"} only", MaxAnswerBytes)
	}
	obj, ok := firstObject(stripThinking(text))
	if !ok {
		return "", fmt.Errorf(`no JSON object in the answer: answer {"guidance":"..."} only`)
	}
	for k := range obj {
		if k != "guidance" {
			return "", fmt.Errorf("unknown field %q: answer with \"guidance\" only", k)
		}
	}
	var s string
	if err := json.Unmarshal(obj["guidance"], &s); err != nil || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf(`"guidance" must be a non-empty string of guidance lines`)
	}
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > MaxGuidanceChars {
		return "", fmt.Errorf(`"guidance" has %d characters, more than %d: keep the lines that matter`, n, MaxGuidanceChars)
	}
	return s, nil
}
