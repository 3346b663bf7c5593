package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// ChooseSystem opens every request in which the planner chooses the phone
// a goal runs on (docs/design.md#phone-fleet); the offline model server
// recognises the role by its first words.
const ChooseSystem = `You are the planner, choosing the phone a goal runs on. The goal was started without naming a phone; you see the goal and every phone of the fleet: its serial, labels, model, Android version, the apps of interest it has, its lock kind and whether it is free, held by another goal or not served by any worker.

Choose one phone:
- a phone the goal names, by label, serial or model;
- else a phone that has the app the goal needs;
- else a free phone.
A held phone is waited for and a phone no worker serves may never run the goal: prefer a free one when the goal allows it. Say in "reason", in one sentence, why this phone.

Answer with only one JSON object, no other text:
{"serial":"emulator-5554","reason":"the goal names the label till, which only this phone has"}`

// Phone states in a choice request.
const (
	PhoneFree     = "free"
	PhoneHeld     = "held by another goal"
	PhoneUnserved = "not served by any worker"
)

// ChoicePhone is one phone of the fleet as the planner sees it when it
// chooses a goal's phone.
type ChoicePhone struct {
	Serial  string   `json:"serial"`
	Labels  []string `json:"labels,omitempty"`
	Model   string   `json:"model,omitempty"`
	Android string   `json:"android,omitempty"`
	Apps    []string `json:"apps,omitempty"`
	Lock    string   `json:"lock,omitempty"`
	// State is PhoneFree, PhoneHeld or PhoneUnserved.
	State string `json:"state"`
}

// ChooseContext is what the planner sees when it chooses a goal's phone.
type ChooseContext struct {
	Goal   string        `json:"goal"`
	Phones []ChoicePhone `json:"phones"`
}

// BuildChooseMessages builds the request in which the planner chooses the
// goal's phone.
func BuildChooseMessages(c ChooseContext) []llm.Message {
	c.Phones = nonNil(c.Phones)
	return []llm.Message{
		{Role: llm.RoleSystem, Text: ChooseSystem},
		{Role: llm.RoleUser, Text: "Choose the phone for this goal.\n```json\n" + compactJSON(c) + "\n```\n" +
			`Answer {"serial":"...","reason":"..."} with the serial of one phone listed.`},
	}
}

// ChooseSchema is the JSON Schema of a phone choice.
var ChooseSchema = llm.JSONSchema{Name: "choose_phone", Schema: map[string]any{
	"type": "object",
	"properties": map[string]any{
		"serial": map[string]any{"type": "string"},
		"reason": map[string]any{"type": "string"},
	},
	"required":             []string{"serial", "reason"},
	"additionalProperties": false,
}}

// PhoneChoice is a validated phone choice.
type PhoneChoice struct {
	Serial string `json:"serial"`
	Reason string `json:"reason"`
}

// ParsePhoneChoice reads a phone choice strictly: "serial" one of
// serials, a non-empty "reason". The error says what to fix.
func ParsePhoneChoice(text string, serials []string) (PhoneChoice, error) {
	f, err := stringObject(text, "serial", "reason")
	if err != nil {
		return PhoneChoice{}, err
	}
	c := PhoneChoice{Serial: f["serial"], Reason: f["reason"]}
	switch {
	case c.Serial == "":
		return PhoneChoice{}, fmt.Errorf(`"serial" is missing: answer with the serial of one listed phone (%s)`, strings.Join(serials, ", "))
	case !slices.Contains(serials, c.Serial):
		return PhoneChoice{}, fmt.Errorf(`"serial" is %q, which is none of the listed phones: answer with one of %s`, c.Serial, strings.Join(serials, ", "))
	case c.Reason == "":
		return PhoneChoice{}, fmt.Errorf(`"reason" is missing: say in one sentence why phone %s`, c.Serial)
	}
	return c, nil
}
