package postcond

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Check kinds: the whole vocabulary (docs/design.md §9).
const (
	AppInFront     = "app_in_front"   // app: the app in front
	ElementExists  = "element_exists" // text: an element whose text or description contains it
	ElementAbsent  = "element_absent" // text: no element whose text or description contains it
	Switch         = "switch"         // label, on: a switch or checkbox labelled label is on / off
	FieldHolds     = "field_holds"    // field, value: the field named field holds value
	RowShows       = "row_shows"      // row, shows: a list row containing row also shows shows
	LastSent       = "last_sent"      // conversation, contains: the conversation titled conversation has a last outgoing message that is contains (SameMessage)
	AnswerSeen     = "answer_seen"    // type (, ordinal, label): the answer is a value of that type that a screen of the todo showed
	maxChecks      = 8
	maxFieldRunes  = 200
	maxOrdinalRank = 50
)

// Last is the ordinal of AnswerSeen for the last value a screen shows.
const Last = -1

// Answer types of AnswerSeen.
const (
	TypeTime   = "time"   // 07:30, 7:30 PM
	TypePhone  = "phone"  // a phone number: 7 or more digits with separators
	TypeNumber = "number" // a number, with an optional unit or %
	TypeLabel  = "label"  // any text an element shows that is not a button
	TypeState  = "state"  // on or off: the state of a switch a screen showed (label names it, or ordinal)
)

// Kinds lists every check kind, for the planner's schema and its errors.
var Kinds = []string{AppInFront, ElementExists, ElementAbsent, Switch, FieldHolds, RowShows, LastSent, AnswerSeen}

// Types lists the answer types of AnswerSeen.
var Types = []string{TypeTime, TypePhone, TypeNumber, TypeLabel, TypeState}

// Check is one postcondition. Only the fields its Kind uses are set.
type Check struct {
	Kind         string `json:"kind"`
	App          string `json:"app,omitempty"`
	Text         string `json:"text,omitempty"`
	Label        string `json:"label,omitempty"`
	On           *bool  `json:"on,omitempty"`
	Field        string `json:"field,omitempty"`
	Value        string `json:"value,omitempty"`
	Row          string `json:"row,omitempty"`
	Shows        string `json:"shows,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	Contains     string `json:"contains,omitempty"`
	Type         string `json:"type,omitempty"`
	Ordinal      int    `json:"ordinal,omitempty"`
	// Any, on a switch check, holds when some switch labelled Label shows
	// the state, though others labelled so show the other (an alarm at
	// 08:30 that rings, beside one at 08:30 that is off), and when none so
	// labelled is on the screen (its row past the list's edge, found by
	// the check on its text); it fails when those shown all show the other.
	Any bool `json:"any,omitempty"`
}

// fields names, per kind, the fields it needs (all of them required) and
// the optional ones.
var fields = map[string]struct{ need, opt []string }{
	AppInFront:    {need: []string{"app"}},
	ElementExists: {need: []string{"text"}},
	ElementAbsent: {need: []string{"text"}},
	Switch:        {need: []string{"label", "on"}, opt: []string{"any"}},
	FieldHolds:    {need: []string{"field", "value"}},
	RowShows:      {need: []string{"row", "shows"}},
	LastSent:      {need: []string{"conversation", "contains"}},
	AnswerSeen:    {need: []string{"type"}, opt: []string{"ordinal", "label"}},
}

// String writes a check as people read it in the Web UI and the viewer.
func (c Check) String() string {
	switch c.Kind {
	case AppInFront:
		return fmt.Sprintf("%s is in front", c.App)
	case ElementExists:
		return fmt.Sprintf("%q is shown", c.Text)
	case ElementAbsent:
		return fmt.Sprintf("%q is not shown", c.Text)
	case Switch:
		if c.Any {
			return fmt.Sprintf("a switch %q is %s", c.Label, onOff(c.On != nil && *c.On))
		}
		return fmt.Sprintf("switch %q is %s", c.Label, onOff(c.On != nil && *c.On))
	case FieldHolds:
		return fmt.Sprintf("field %q holds %q", c.Field, c.Value)
	case RowShows:
		return fmt.Sprintf("row %q shows %q", c.Row, c.Shows)
	case LastSent:
		return fmt.Sprintf("last message sent to %q contains %q", c.Conversation, c.Contains)
	case AnswerSeen:
		if c.Type == TypeState {
			return stateString(c)
		}
		if c.Ordinal == Last {
			return fmt.Sprintf("the answer is the last %s seen on a screen", c.Type)
		}
		if c.Ordinal > 0 {
			return fmt.Sprintf("the answer is %s #%d seen on a screen", c.Type, c.Ordinal)
		}
		return fmt.Sprintf("the answer is a %s seen on a screen", c.Type)
	}
	return c.Kind
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Parse reads a todo's postconditions strictly: a JSON list of checks of
// the documented kinds, each with exactly its fields. Every problem is
// returned, worded so a planner can fix its answer.
func Parse(raw json.RawMessage) ([]Check, []string) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, []string{`"expect" must be a list of checks such as {"kind":"switch","label":"Wi-Fi","on":true}`}
	}
	if len(items) > maxChecks {
		return nil, []string{fmt.Sprintf(`"expect" has %d checks, more than %d: keep the ones that show the todo's effect`, len(items), maxChecks)}
	}
	var out []Check
	var probs []string
	for i, it := range items {
		c, p := parseOne(it)
		for _, s := range p {
			probs = append(probs, fmt.Sprintf("check %d: %s", i+1, s))
		}
		if len(p) == 0 {
			out = append(out, c)
		}
	}
	return out, probs
}

func parseOne(it map[string]json.RawMessage) (Check, []string) {
	var c Check
	if err := json.Unmarshal(it["kind"], &c.Kind); err != nil || c.Kind == "" {
		return c, []string{`"kind" is missing: use one of ` + strings.Join(Kinds, ", ")}
	}
	f, ok := fields[c.Kind]
	if !ok {
		return c, []string{fmt.Sprintf("unknown kind %q: use one of %s", c.Kind, strings.Join(Kinds, ", "))}
	}
	var probs []string
	for k := range it {
		if k != "kind" && !slices.Contains(f.need, k) && !slices.Contains(f.opt, k) {
			probs = append(probs, fmt.Sprintf("%q does not belong in a %s check (it takes %s)", k, c.Kind, strings.Join(append(slices.Clone(f.need), f.opt...), ", ")))
		}
	}
	for _, k := range f.need {
		if _, ok := it[k]; !ok {
			probs = append(probs, fmt.Sprintf("a %s check needs %q", c.Kind, k))
		}
	}
	if len(probs) > 0 {
		return c, probs
	}
	str := func(k string, dst *string) {
		raw, ok := it[k]
		if !ok {
			return
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			probs = append(probs, fmt.Sprintf("%q must be a string", k))
			return
		}
		*dst = strings.TrimSpace(*dst)
		switch {
		case *dst == "":
			probs = append(probs, fmt.Sprintf("%q is empty", k))
		case len([]rune(*dst)) > maxFieldRunes:
			probs = append(probs, fmt.Sprintf("%q is longer than %d characters", k, maxFieldRunes))
		case Unresolved(*dst):
			probs = append(probs, fmt.Sprintf("%q is %q, a placeholder: write the value itself, or leave the check out until it is known", k, *dst))
		}
	}
	str("app", &c.App)
	str("text", &c.Text)
	str("label", &c.Label)
	str("field", &c.Field)
	str("value", &c.Value)
	str("row", &c.Row)
	str("shows", &c.Shows)
	str("conversation", &c.Conversation)
	str("contains", &c.Contains)
	str("type", &c.Type)
	if raw, ok := it["on"]; ok {
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			probs = append(probs, `"on" must be true or false`)
		}
		c.On = &b
	}
	if raw, ok := it["any"]; ok {
		if err := json.Unmarshal(raw, &c.Any); err != nil {
			probs = append(probs, `"any" must be true or false`)
		}
	}
	if raw, ok := it["ordinal"]; ok {
		if err := json.Unmarshal(raw, &c.Ordinal); err != nil || c.Ordinal != Last && (c.Ordinal < 1 || c.Ordinal > maxOrdinalRank) {
			probs = append(probs, fmt.Sprintf(`"ordinal" must be a whole number from 1 to %d, or -1 for the last`, maxOrdinalRank))
		}
	}
	if c.Kind == AnswerSeen && c.Type != "" && !slices.Contains(Types, c.Type) {
		probs = append(probs, fmt.Sprintf("unknown answer type %q: use one of %s", c.Type, strings.Join(Types, ", ")))
	}
	if c.Kind == AnswerSeen && c.Type == TypeState && c.Label == "" && c.Ordinal == 0 {
		probs = append(probs, `a state answer names its switch: give "label" (text the switch shows) or "ordinal"`)
	}
	if c.Kind == AnswerSeen && c.Type != TypeState && c.Label != "" {
		probs = append(probs, `"label" belongs only in an answer_seen check of type state`)
	}
	return c, probs
}

// Valid reports the problems of checks built in code (the offline planner,
// tests), with the same rules as Parse.
func Valid(cs []Check) []string {
	b, err := json.Marshal(cs)
	if err != nil {
		return []string{err.Error()}
	}
	_, probs := Parse(b)
	return probs
}
