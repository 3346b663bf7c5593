package planner

import (
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// WithInstructions returns msgs with their system prompt replaced by an
// operator's planner instructions (planner.system_prompt_file), sent byte
// for byte but for "{date}", which becomes day's date written as the
// executor's file has it ("2026-11-26, Thursday"). An empty text returns
// msgs as built: phoneflow's own prompt. msgs is not modified.
func WithInstructions(msgs []llm.Message, text string, day time.Time) []llm.Message {
	if text == "" {
		return msgs
	}
	out := append([]llm.Message(nil), msgs...)
	sys := strings.ReplaceAll(text, "{date}", day.Format("2006-01-02, Monday"))
	for i := range out {
		if out[i].Role == llm.RoleSystem {
			out[i].Text = sys
			return out
		}
	}
	return append([]llm.Message{{Role: llm.RoleSystem, Text: sys}}, out...)
}
