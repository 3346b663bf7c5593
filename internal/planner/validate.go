package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// ValidationError is a planner answer that breaks the contract. Raw is the
// answer as received; Problems lists each fault.
type ValidationError struct {
	Raw      string
	Phase    string // PhasePlan or PhaseReplan
	Problems []string
}

// Error lists the problems.
func (e *ValidationError) Error() string {
	return fmt.Sprintf("planner: invalid %s answer: %s", e.Phase, strings.Join(e.Problems, "; "))
}

// Feedback is the text to send back to the model so it can correct itself.
func (e *ValidationError) Feedback() string {
	var b strings.Builder
	b.WriteString("Your answer was invalid:\n")
	for _, p := range e.Problems {
		b.WriteString("- " + p + "\n")
	}
	b.WriteString("Answer again with only JSON of the form ")
	if e.Phase == PhaseReplan {
		b.WriteString(`{"status":"replanned","plan":["next todo"]} or {"status":"done","response":"what was achieved"} or {"status":"ask_user","question":"..."}`)
	} else {
		b.WriteString(`{"status":"planned","plan":["todo 1","todo 2"],"task_type":"snake_case_label"} or {"status":"ask_user","question":"..."}`)
	}
	b.WriteString(", with no other text.")
	return b.String()
}

// ParsePlan validates the answer to a plan request: planned (with a
// non-empty plan and a task type) or ask_user.
func ParsePlan(text string) (Decision, error) {
	return parse(text, PhasePlan)
}

// ParseReplan validates the answer to a replan request: replanned (with a
// non-empty plan), done (with a response) or ask_user.
func ParseReplan(text string) (Decision, error) {
	return parse(text, PhaseReplan)
}

// MaxAnswerBytes bounds the answers the parser reads.
const MaxAnswerBytes = 64 << 10

// fieldUse lists the contract fields and the statuses that use them.
var fieldUse = []struct {
	field string
	users []string
}{
	{"plan", []string{StatusPlanned, StatusReplanned}},
	{"task_type", []string{StatusPlanned}},
	{"question", []string{StatusAskUser}},
	{"response", []string{StatusDone}},
	{"dropped", []string{StatusDone}},
}

func parse(text, phase string) (Decision, error) {
	bad := func(problems ...string) (Decision, error) {
		return Decision{}, &ValidationError{Raw: text, Phase: phase, Problems: problems}
	}
	if len(text) > MaxAnswerBytes {
		return bad(fmt.Sprintf("the answer is %d bytes long: answer with one short JSON object", len(text)))
	}
	obj, ok := firstObject(stripThinking(text))
	if !ok {
		return bad("no JSON object found: answer with one JSON object and nothing else")
	}
	var probs []string
	var d Decision
	if err := json.Unmarshal(obj["status"], &d.Status); err != nil || d.Status == "" {
		return bad(`"status" is missing or not a string`)
	}
	allowed := []string{StatusPlanned, StatusAskUser}
	if phase == PhaseReplan {
		allowed = []string{StatusReplanned, StatusDone, StatusAskUser}
	}
	if !slices.Contains(allowed, d.Status) {
		return bad(fmt.Sprintf("status %q is not allowed here: use %s", d.Status, quoteJoin(allowed)))
	}
	for _, f := range fieldUse {
		if _, present := obj[f.field]; present && !slices.Contains(f.users, d.Status) {
			probs = append(probs, fmt.Sprintf("%q does not belong in a %q answer: remove it", f.field, d.Status))
		}
	}
	str := func(field string) string {
		raw, present := obj[field]
		if !present {
			probs = append(probs, fmt.Sprintf("%q is required for status %q", field, d.Status))
			return ""
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			probs = append(probs, fmt.Sprintf("%q must be a string", field))
			return ""
		}
		if strings.TrimSpace(s) == "" {
			probs = append(probs, fmt.Sprintf("%q is empty", field))
		}
		return strings.TrimSpace(s)
	}
	switch d.Status {
	case StatusPlanned, StatusReplanned:
		d.Plan = planItems(obj, phase, &probs)
		d.Expect = planExpect(obj, &probs)
		d.Phones = planPhones(obj, &probs)
		if d.Status == StatusPlanned {
			d.TaskType = str("task_type")
			if utf8.RuneCountInString(d.TaskType) > MaxTaskTypeLen || strings.ContainsAny(d.TaskType, "\n\r") {
				probs = append(probs, fmt.Sprintf(`"task_type" must be a short label on one line (at most %d characters), e.g. send_message`, MaxTaskTypeLen))
			}
		}
	case StatusAskUser:
		d.Question = str("question")
	case StatusDone:
		d.Response = str("response")
		if raw, ok := obj["dropped"]; ok {
			if err := json.Unmarshal(raw, &d.Dropped); err != nil {
				probs = append(probs, `"dropped" must be a list of {"todo":"...","reason":"..."}`)
			}
			for _, x := range d.Dropped {
				if strings.TrimSpace(x.Todo) == "" || strings.TrimSpace(x.Reason) == "" {
					probs = append(probs, `every "dropped" item needs a non-empty "todo" and "reason"`)
					break
				}
			}
		}
	}
	if len(probs) > 0 {
		return bad(probs...)
	}
	return d, nil
}

// planExpect reads each plan item's postconditions (docs/design.md §9):
// an item {"todo":"…","expect":[…]} carries them, a plain string has none.
// Unknown kinds, fields and placeholders are contract breaches.
func planExpect(obj map[string]json.RawMessage, probs *[]string) [][]postcond.Check {
	var items []json.RawMessage
	if err := json.Unmarshal(obj["plan"], &items); err != nil {
		return nil
	}
	var out [][]postcond.Check
	some := false
	for i, raw := range items {
		var item map[string]json.RawMessage
		if json.Unmarshal(raw, &item) != nil {
			out = append(out, nil)
			continue
		}
		for k := range item {
			if k != "todo" && k != "expect" && k != "phone" {
				*probs = append(*probs, fmt.Sprintf(`plan item %d: unknown field %q: an item is {"todo":"...","expect":[...],"phone":"..."}`, i+1, k))
			}
		}
		cs, p := postcond.Parse(item["expect"])
		for _, x := range p {
			*probs = append(*probs, fmt.Sprintf("plan item %d expect: %s", i+1, x))
		}
		some = some || len(cs) > 0
		out = append(out, cs)
	}
	if !some {
		return nil
	}
	return out
}

// planPhones reads the phone each plan item names
// (docs/design.md#goals-that-span-phones): a serial, or a selector
// "label=L" or "serial=S". A plain string item names none.
func planPhones(obj map[string]json.RawMessage, probs *[]string) []string {
	var items []json.RawMessage
	if err := json.Unmarshal(obj["plan"], &items); err != nil {
		return nil
	}
	var out []string
	some := false
	for i, raw := range items {
		var item struct {
			Phone *string `json:"phone"`
		}
		if json.Unmarshal(raw, &item) != nil || item.Phone == nil {
			out = append(out, "")
			continue
		}
		p := strings.TrimSpace(*item.Phone)
		if p == "" || strings.ContainsAny(p, " \t\n\r") || utf8.RuneCountInString(p) > MaxPhoneChars {
			*probs = append(*probs, fmt.Sprintf(`plan item %d: "phone" must be a serial or "label=L" (one word, at most %d characters), or be left out for the goal's own phone`, i+1, MaxPhoneChars))
		} else if k, _, ok := strings.Cut(p, "="); ok && k != "label" && k != "serial" {
			*probs = append(*probs, fmt.Sprintf(`plan item %d: "phone" %q: write "label=L", "serial=S" or the serial`, i+1, p))
		}
		some = true
		out = append(out, p)
	}
	if !some {
		return nil
	}
	return out
}

func planItems(obj map[string]json.RawMessage, phase string, probs *[]string) []string {
	instead := `answer {"status":"ask_user","question":"..."} if nothing needs doing or something is unclear`
	if phase == PhaseReplan {
		instead = `answer {"status":"done","response":"..."} when nothing remains, or ask_user`
	}
	raw, present := obj["plan"]
	if !present || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		*probs = append(*probs, `"plan" is required: a list of todo strings`)
		return nil
	}
	var items []any
	if err := json.Unmarshal(raw, &items); err != nil {
		*probs = append(*probs, `"plan" must be a list of todo strings`)
		return nil
	}
	if len(items) == 0 {
		*probs = append(*probs, `the plan is empty, which is not allowed: `+instead)
		return nil
	}
	if len(items) > MaxPlanItems {
		*probs = append(*probs, fmt.Sprintf("the plan has %d todos, more than %d: merge steps into fewer, larger todos", len(items), MaxPlanItems))
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if obj, isObj := it.(map[string]any); isObj {
			s, ok = obj["todo"].(string)
			if !ok {
				*probs = append(*probs, fmt.Sprintf(`plan item %d needs "todo": the todo's text`, i+1))
				continue
			}
		}
		switch {
		case !ok:
			*probs = append(*probs, fmt.Sprintf(`plan item %d is not a string (nor {"todo":"...","expect":[...]})`, i+1))
		case strings.TrimSpace(s) == "":
			*probs = append(*probs, fmt.Sprintf("plan item %d is empty", i+1))
		case utf8.RuneCountInString(s) > MaxItemChars:
			*probs = append(*probs, fmt.Sprintf("plan item %d is longer than %d characters: keep each todo short", i+1, MaxItemChars))
		default:
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

// stripThinking drops <think>…</think> reasoning some models put before
// their answer.
func stripThinking(s string) string {
	if i := strings.LastIndex(s, "</think>"); i >= 0 {
		return s[i+len("</think>"):]
	}
	return s
}

// firstObject finds the first complete JSON object in s, inside a code
// fence or among prose.
func firstObject(s string) (map[string]json.RawMessage, bool) {
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			return nil, false
		}
		i += j
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		var obj map[string]json.RawMessage
		if err := dec.Decode(&obj); err == nil && obj != nil {
			return obj, true
		}
	}
	return nil, false
}

func quoteJoin(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = `"` + s + `"`
	}
	return strings.Join(q, ", ")
}
