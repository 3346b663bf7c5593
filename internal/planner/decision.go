package planner

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// choiceSchema is the JSON Schema of a planner answer that picks one of
// choices under key, may add text under textKey and gives a reason; the
// names in required must be present.
func choiceSchema(name, key string, choices []string, textKey string, required ...string) llm.JSONSchema {
	return llm.JSONSchema{Name: name, Schema: map[string]any{
		"type": "object",
		"properties": map[string]any{
			key:      map[string]any{"type": "string", "enum": choices},
			textKey:  map[string]any{"type": "string"},
			"reason": map[string]any{"type": "string"},
		},
		"required":             required,
		"additionalProperties": false,
	}}
}

// stringObject reads one strict JSON object (see strictObject) whose
// fields, all among keys, are strings of at most MaxQuestionAnswerChars
// characters; they come back trimmed. The error says what to fix.
func stringObject(text string, keys ...string) (map[string]string, error) {
	obj, err := strictObject(text, keys...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%q must be a string", k)
		}
		s = strings.TrimSpace(s)
		if n := utf8.RuneCountInString(s); n > MaxQuestionAnswerChars {
			return nil, fmt.Errorf("%q has %d characters, more than %d: say it in one or two sentences", k, n, MaxQuestionAnswerChars)
		}
		out[k] = s
	}
	return out, nil
}
