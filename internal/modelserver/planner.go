package modelserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// planContext is the JSON context block at the end of a planner request
// (see the shared request formats). Done is nil for a plan request.
type planContext struct {
	Goal         string       `json:"goal"`
	Done         []doneTodo   `json:"done"`
	Remaining    []string     `json:"remaining"`
	Feedback     []string     `json:"feedback"`
	Answers      []answerPair `json:"answers"`
	UserMessages []string     `json:"user_messages"`
	// Memory is what earlier goals on the phone taught (docs/design.md §8).
	Memory []string `json:"memory"`
	// Phones is the fleet a todo may name (docs/design.md#goals-that-span-phones).
	Phones []fleetPhone `json:"phones"`
	replan bool
}

type doneTodo struct {
	Todo      string   `json:"todo"`
	Status    string   `json:"status"`
	Result    string   `json:"result"`
	Steps     int      `json:"steps"`
	Evidence  string   `json:"evidence"`
	Committed []string `json:"committed"`
	Repeated  string   `json:"repeated"`
}

// committedLine names what failed todos already committed on the phone.
func committedLine(done []doneTodo) string {
	var out []string
	for _, d := range done {
		if d.Status != "done" && len(d.Committed) > 0 {
			out = append(out, fmt.Sprintf("%s committed %s", d.Todo, strings.Join(d.Committed, ", ")))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " Already on the phone: " + strings.Join(out, "; ") + "."
}

type answerPair struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// planAnswer is a planner answer (docs/design.md §3).
type planAnswer struct {
	Status   string     `json:"status"`
	Plan     []planItem `json:"plan,omitempty"`
	TaskType string     `json:"task_type,omitempty"`
	Question string     `json:"question,omitempty"`
	Response string     `json:"response,omitempty"`
}

// jsonContext finds the JSON context block in a planner message: the last
// ```json fence, or else the outermost braces.
func jsonContext(text string) (string, bool) {
	if i := strings.LastIndex(text, "```json"); i >= 0 {
		body := text[i+len("```json"):]
		if j := strings.Index(body, "```"); j >= 0 {
			body = body[:j]
		}
		return strings.TrimSpace(body), true
	}
	i, j := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if i >= 0 && j > i {
		return text[i : j+1], true
	}
	return "", false
}

// parsePlanContext reads the JSON context of the newest user message that
// has one. A context with a "done" key is a replan request.
func parsePlanContext(msgs []message) (planContext, error) {
	// The newest user message with a context block: after an invalid
	// answer the client appends the answer and a correction, which carries
	// no context of its own.
	raw, ok := "", false
	for i := len(msgs) - 1; i >= 0 && !ok; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, `"goal"`) {
			raw, ok = jsonContext(msgs[i].Text)
		}
	}
	if !ok {
		return planContext{}, fmt.Errorf("no JSON context block with a \"goal\" in the user messages")
	}
	var pc planContext
	if err := json.Unmarshal([]byte(raw), &pc); err != nil {
		return planContext{}, fmt.Errorf("JSON context: %v", err)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal([]byte(raw), &keys)
	_, pc.replan = keys["done"]
	return pc, nil
}

// Limits of the planner contract (internal/planner validates them too): a
// plan of at most maxPlanItems todos of at most maxTodoRunes characters.
const (
	maxPlanItems = 20
	maxTodoRunes = 500
)

// withinLimits turns a plan the contract would reject for its size into a
// question for the user.
func withinLimits(a planAnswer) planAnswer {
	if a.Status != "planned" && a.Status != "replanned" {
		return a
	}
	if len(a.Plan) > maxPlanItems {
		return planAnswer{Status: "ask_user", Question: fmt.Sprintf(
			"The goal has %d steps, more than the %d one goal may have: which of them should I do first? (Or split it into smaller goals.)", len(a.Plan), maxPlanItems)}
	}
	for _, p := range a.Plan {
		if utf8.RuneCountInString(p.Todo) > maxTodoRunes {
			return planAnswer{Status: "ask_user", Question: fmt.Sprintf(
				"One step of the goal is longer than %d characters: can you say it more briefly?", maxTodoRunes)}
		}
	}
	return a
}

func (s *Server) planAnswer(msgs []message, f faults, format string) string {
	if f.malformed {
		if bad, ok := malformedUnder(format, f.variant); ok {
			s.count(func(st *Stats) { st.Malformed++ })
			return bad
		}
	}
	pc, err := parsePlanContext(msgs)
	var a planAnswer
	switch {
	case err != nil:
		a = planAnswer{Status: "ask_user", Question: "I could not read the goal (" + err.Error() + "). What should I do on the phone?"}
	case pc.replan:
		a = replanGoal(pc)
	default:
		a = planGoal(pc)
	}
	if !asksExpect(msgs) {
		// A planner from before postconditions reads plan items as
		// strings: answer in the contract it sent, as a model would.
		for i := range a.Plan {
			a.Plan[i].Expect = nil
		}
	}
	b, _ := json.Marshal(withinLimits(a))
	return string(b)
}

// asksExpect reports whether the planner's prompt offers postconditions
// (docs/design.md §9): the contract names the "expect" field.
func asksExpect(msgs []message) bool {
	for _, m := range msgs {
		if strings.Contains(m.Text, `"expect"`) {
			return true
		}
	}
	return false
}

// planItem is one todo of a plan answer: a string, or the todo with its
// postconditions (docs/design.md §9).
type planItem struct {
	Todo   string           `json:"todo"`
	Expect []postcond.Check `json:"expect,omitempty"`
	// Phone is the phone the goal named for the todo, "" for the goal's own.
	Phone string `json:"phone,omitempty"`
}

// MarshalJSON writes a todo without postconditions or phone as a plain string.
func (p planItem) MarshalJSON() ([]byte, error) {
	if len(p.Expect) == 0 && p.Phone == "" {
		return json.Marshal(p.Todo)
	}
	type item planItem
	return json.Marshal(item(p))
}

// UnmarshalJSON reads either form.
func (p *planItem) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &p.Todo) == nil {
		return nil
	}
	type item planItem
	return json.Unmarshal(b, (*item)(p))
}

func texts(items []planItem) []string {
	out := make([]string, len(items))
	for i, p := range items {
		out[i] = p.Todo
	}
	return out
}
