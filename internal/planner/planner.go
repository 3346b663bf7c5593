package planner

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Decision statuses (docs/design.md §3).
const (
	StatusPlanned   = "planned"   // plan: the todos to run
	StatusAskUser   = "ask_user"  // plan or replan: a question for the user
	StatusReplanned = "replanned" // replan: the full remaining plan from now on
	StatusDone      = "done"      // replan: the goal is finished; response reports it
)

// Phases, used in validation errors.
const (
	PhasePlan   = "plan"
	PhaseReplan = "replan"
)

// Limits on a plan.
const (
	MaxPlanItems   = 20  // todos in one plan
	MaxItemChars   = 500 // characters in one todo
	MaxTaskTypeLen = 64
	MaxPhoneChars  = 100 // characters in a todo's "phone"
)

// QA is a question the planner asked and the user's answer.
type QA struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// PlanContext is what the planner sees when it first plans a goal.
type PlanContext struct {
	Goal         string     `json:"goal"`
	Answers      []QA       `json:"answers"`
	UserMessages []string   `json:"user_messages"`
	Situation    *Situation `json:"situation,omitempty"`
	// Memory is what earlier goals on this phone taught (docs/design.md
	// §8): facts from verified todos and the person's answers.
	Memory []string `json:"memory,omitempty"`
	// Phones is the fleet a goal that spans phones may name in a todo's
	// "phone" (docs/design.md#goals-that-span-phones); empty otherwise.
	Phones []Phone `json:"phones,omitempty"`
}

// Phone is one phone of the fleet as the planner is shown it.
type Phone struct {
	Serial string   `json:"serial"`
	Labels []string `json:"labels,omitempty"`
}

// Situation is what the planner is always told besides the goal: the time
// in the user's zone and the step budget (docs/design.md §3).
type Situation struct {
	Now          string `json:"now"` // "2026-11-26 20:30 Thursday"
	TimeZone     string `json:"time_zone"`
	StepsUsed    int    `json:"steps_used"`
	StepsLeft    int    `json:"steps_left"`
	TodoMaxSteps int    `json:"todo_max_steps"`
}

// TodoResult is one finished todo as the replanner sees it.
type TodoResult struct {
	Todo   string `json:"todo"`
	Status string `json:"status"` // done, failed or skipped
	Result string `json:"result"`
	Steps  int    `json:"steps"`
	// Evidence is the verification's evidence: what showed the todo done,
	// or what was missing (docs/design.md §9).
	Evidence string `json:"evidence,omitempty"`
	// Committed lists what the todo already committed on the phone
	// (messages sent, records saved): never to be planned again.
	Committed []string `json:"committed,omitempty"`
	// Repeated says the todo failed twice in a row the same way without
	// changing the phone: it is not run again as written.
	Repeated string `json:"repeated,omitempty"`
	// Answered are the executor's questions about what the todo left out
	// with the answers it was given ("asked: … answered: …"): the todo
	// was done, and verified, with them.
	Answered []string `json:"answered,omitempty"`
}

// ReplanContext is what the planner sees after each todo. Feedback holds
// only the last few executor feedback items, never the whole history.
type ReplanContext struct {
	Goal         string       `json:"goal"`
	Done         []TodoResult `json:"done"`
	Remaining    []string     `json:"remaining"`
	Feedback     []string     `json:"feedback"`
	Answers      []QA         `json:"answers"`
	UserMessages []string     `json:"user_messages"`
	// LastActions are the last device actions of the todo that just ended,
	// with their results ("Tap "Send" → ok"): what it did before its
	// verdict, its step cap or the stuck guard stopped it.
	LastActions []string   `json:"last_actions,omitempty"`
	Situation   *Situation `json:"situation,omitempty"`
	// Memory: see PlanContext.Memory.
	Memory []string `json:"memory,omitempty"`
	// Phones: see PlanContext.Phones.
	Phones []Phone `json:"phones,omitempty"`
}

// Decision is a validated planner answer. Only the fields its Status uses
// are set.
type Decision struct {
	Status string   `json:"status"`
	Plan   []string `json:"plan,omitempty"`
	// Expect holds each todo's postconditions, aligned with Plan (nil for
	// a todo without any, and nil when no todo has any).
	Expect [][]postcond.Check `json:"expect,omitempty"`
	// Phones holds the phone each todo names, aligned with Plan ("" for a
	// todo on the goal's own phone, nil when no todo names one).
	Phones   []string `json:"phones,omitempty"`
	TaskType string   `json:"task_type,omitempty"`
	Question string   `json:"question,omitempty"`
	Response string   `json:"response,omitempty"`
	// Dropped (done only): todos left out on purpose, each with a reason.
	Dropped []Dropped `json:"dropped,omitempty"`
}

// Dropped is a todo a done answer leaves out on purpose.
type Dropped struct {
	Todo   string `json:"todo"`
	Reason string `json:"reason"`
}

// BuildPlanMessages builds the first planning request. taskTypes lists the
// task types prompt memory knows, so the planner reuses one when it fits.
func BuildPlanMessages(ctx PlanContext, taskTypes []string) []llm.Message {
	ctx.Answers = nonNil(ctx.Answers)
	ctx.UserMessages = nonNil(ctx.UserMessages)
	sys := planSystem
	if len(taskTypes) > 0 {
		sys += "\n\nKnown task types (reuse one when it fits): " + strings.Join(taskTypes, ", ") + "."
	}
	if len(ctx.Phones) > 0 {
		sys += "\n\n" + phonesNote
	}
	return []llm.Message{
		{Role: llm.RoleSystem, Text: sys},
		{Role: llm.RoleUser, Text: "Plan this goal.\n```json\n" + compactJSON(ctx) + "\n```"},
	}
}

// BuildReplanMessages builds the request made after each todo.
func BuildReplanMessages(ctx ReplanContext) []llm.Message {
	ctx.Done = nonNil(ctx.Done)
	ctx.Remaining = nonNil(ctx.Remaining)
	ctx.Feedback = nonNil(ctx.Feedback)
	ctx.Answers = nonNil(ctx.Answers)
	ctx.UserMessages = nonNil(ctx.UserMessages)
	sys := replanSystem
	if len(ctx.Phones) > 0 {
		sys += "\n\n" + phonesNote
	}
	return []llm.Message{
		{Role: llm.RoleSystem, Text: sys},
		{Role: llm.RoleUser, Text: "Update the plan.\n```json\n" + compactJSON(ctx) + "\n```"},
	}
}

// FeedbackMessages extends a request that produced an invalid answer with
// that answer and the correction, for the next attempt. prev is not
// modified.
func FeedbackMessages(prev []llm.Message, raw string, err error) []llm.Message {
	out := make([]llm.Message, 0, len(prev)+2)
	out = append(out, prev...)
	text := "Your answer was invalid. Answer again with only the JSON object the instructions describe."
	if ve, ok := err.(*ValidationError); ok {
		text = ve.Feedback()
	} else if err != nil {
		text = "Your answer was invalid: " + err.Error() + ". Answer again with only the JSON object the instructions describe."
	}
	return append(out,
		llm.Message{Role: llm.RoleAssistant, Text: raw},
		llm.Message{Role: llm.RoleUser, Text: text})
}

// nonNil makes empty lists marshal as [] so the keys are always present
// (the offline model server tells replan from plan by the "done" key).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // plain structs of strings and ints cannot fail
	return strings.TrimRight(b.String(), "\n")
}

const planSystem = `You are the planner of a phone automation system. You split a user's goal into a short list of todos that an executor carries out one after another on an Android phone, by looking at the screen and tapping, typing and swiping.

Each todo:
- is one concrete phone task in plain words, doable in one app session, e.g. "Open Settings and turn on Wi-Fi";
- carries every detail the executor needs (names, message text, times), since the executor does not see the goal;
- is needed for the goal: no checks, no "confirm the result" steps.

` + executorLimits + `
When the goal says when to act ("at 21:00 …", "in 20 minutes …", "晚上9点…", "20分钟后…"), put a todo that only waits first: "Wait until 21:00" or "Wait 20 minutes" (write the time as the user did; the system waits with a timer, without the phone).
When the goal says to act once something happens on the phone ("when Alice Chen sends a message, reply …", "wait for the bank's SMS code and enter it", "李四发来消息后…"), put a todo that only waits for it first: "Wait for a message from Alice Chen" or "Wait for the SMS code from Bank" (the system checks the phone's notifications without a model, and the message's text or the code becomes that todo's result for the next todo).

The context's situation gives the current time in the user's time zone and the step budget: the steps left for the whole goal and the steps one todo may take. Use as few todos as the goal allows (usually 1 to 5). If the goal lacks something you cannot guess — who to message, what to write, which time — ask the user instead of planning. Take the user's answers and messages in the context into account. The context's memory, when present, lists what earlier goals on this phone learned (todos verified done, the user's earlier answers): use it instead of asking again (a contact's exact name, a preference), but the goal and the user's new answers win when they differ.

Each todo may carry "expect": the end state that shows it done, checked on the phone's UI tree without asking anyone. Write a todo as {"todo":"…","expect":[…]} with checks from this list only:
` + expectChecks + `
Pick a task_type: a short snake_case label for the kind of goal (e.g. toggle_setting, send_message, create_alarm, create_note, read_info, open_app).

Answer with only one JSON object, no other text:
{"status":"planned","plan":[{"todo":"Open Settings and turn on Wi-Fi","expect":[{"kind":"switch","label":"Wi-Fi","on":true}]},"todo 2"],"task_type":"toggle_setting"}
or
{"status":"ask_user","question":"Who should receive the message?"}`

const replanSystem = `You are the replanner of a phone automation system. An executor works through a plan of todos on an Android phone; after each todo you decide what happens next. The context lists the goal, the todos done so far with their status and result, the remaining plan, the executor's latest feedback, the last actions of the todo that just ended with their results, the user's answers and messages, and the situation: the current time in the user's time zone, the steps used and left of the goal's budget, and the steps one todo may take.

Decide:
- "replanned" with the full remaining plan from now on (not the todos already done): keep the remaining todos if they still fit, fix or replace them when a todo failed or the user asked for something new, and never repeat a todo that is done;
- "done" when the goal is reached (or cannot be reached and nothing else is worth trying), with a response for the user that reports the result and anything the user asked to read. The goal only counts as achieved when every todo was verified done: a failed todo's evidence says what was missing. To leave a todo out on purpose, list it under "dropped" with the reason; otherwise say plainly in the response what was not done;
- "ask_user" when you need the user to decide or to give missing information.

An empty plan is not allowed: when nothing remains, answer done.

` + executorLimits + `

Each todo of a replanned plan may carry "expect": the end state that shows it done, checked on the phone's UI tree without asking anyone. Write a todo as {"todo":"…","expect":[…]} with checks from this list only:
` + expectChecks + `A todo's result lists what it already committed on the phone (messages sent, records saved): never plan those again. A todo marked "repeated" failed twice the same way and changed nothing on the phone: it will not be run again as written, so plan a different way round what its evidence names, or answer done and say what was not done. Questions the executor asked the user, with the answers, are among the answers. The context's memory, when present, lists what earlier goals on this phone learned: use it, but the goal and the user's new answers win.

Answer with only one JSON object, no other text:
{"status":"replanned","plan":["next todo","later todo"]}
or
{"status":"done","response":"Wi-Fi and Bluetooth are on."}
or
{"status":"done","response":"Wi-Fi is on; Bluetooth was already on.","dropped":[{"todo":"Turn on Bluetooth","reason":"it was already on"}]}
or
{"status":"ask_user","question":"The contact was not found. What is the exact name?"}`

// PlanSchema is the JSON Schema of a plan answer, sent as the request's
// response format where the endpoint accepts one. It is not strict: the
// fields a status does not use stay optional, and ParsePlan still checks
// the contract.
var PlanSchema = llm.JSONSchema{Name: "plan", Schema: decisionSchema(StatusPlanned, StatusAskUser)}

// ReplanSchema is the JSON Schema of a replan answer (see PlanSchema).
var ReplanSchema = llm.JSONSchema{Name: "replan", Schema: decisionSchema(StatusReplanned, StatusDone, StatusAskUser)}

// planItemSchema is one todo: its text, or its text with the
// postconditions that show it done (docs/design.md §9).
var planItemSchema = map[string]any{"anyOf": []any{
	map[string]any{"type": "string"},
	map[string]any{
		"type": "object",
		"properties": map[string]any{
			"todo":   map[string]any{"type": "string"},
			"expect": map[string]any{"type": "array", "items": checkSchema},
			"phone":  map[string]any{"type": "string"},
		},
		"required":             []string{"todo"},
		"additionalProperties": false,
	},
}}

var checkSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"kind":         map[string]any{"type": "string", "enum": postcond.Kinds},
		"app":          map[string]any{"type": "string"},
		"text":         map[string]any{"type": "string"},
		"label":        map[string]any{"type": "string"},
		"on":           map[string]any{"type": "boolean"},
		"field":        map[string]any{"type": "string"},
		"value":        map[string]any{"type": "string"},
		"row":          map[string]any{"type": "string"},
		"shows":        map[string]any{"type": "string"},
		"conversation": map[string]any{"type": "string"},
		"contains":     map[string]any{"type": "string"},
		"type":         map[string]any{"type": "string", "enum": postcond.Types},
		"ordinal":      map[string]any{"type": "integer", "minimum": -1},
	},
	"required":             []string{"kind"},
	"additionalProperties": false,
}

func decisionSchema(statuses ...string) map[string]any {
	props := map[string]any{
		"status":   map[string]any{"type": "string", "enum": statuses},
		"plan":     map[string]any{"type": "array", "items": planItemSchema, "maxItems": MaxPlanItems},
		"question": map[string]any{"type": "string"},
	}
	for _, s := range statuses {
		switch s {
		case StatusPlanned:
			props["task_type"] = map[string]any{"type": "string"}
		case StatusDone:
			props["response"] = map[string]any{"type": "string"}
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": []string{"status"}, "additionalProperties": false}
}

// phonesNote is what the planner is told when the context lists the
// fleet (docs/design.md#goals-that-span-phones).
const phonesNote = `The context's phones list the phones this goal may use, each with its serial and labels. A todo runs on the goal's own phone unless it carries "phone": write {"todo":"…","phone":"label=work"} (or "serial=SERIAL", or the serial itself) when the goal says the todo happens on another phone ("on the work phone", "on the tablet", "on phone SERIAL"). A value one todo reads on one phone is written into the todo that uses it on another, as on one phone.`

// expectChecks is the postcondition vocabulary both planner prompts offer
// (docs/design.md §9).
const expectChecks = `- {"kind":"app_in_front","app":"Settings"}
- {"kind":"element_exists","text":"…"} / {"kind":"element_absent","text":"…"}
- {"kind":"switch","label":"Wi-Fi","on":true}; add "any":true when one of several switches so labelled is enough, checked only where one is in sight (a new alarm at 08:30 that rings, beside an old one: {"kind":"switch","label":"08:30","on":true,"any":true})
- {"kind":"field_holds","field":"Brightness","value":"40%"}
- {"kind":"row_shows","row":"07:30","shows":"Gym"} (a list row containing row also shows shows)
- {"kind":"last_sent","conversation":"Alice","contains":"see you at 6"} ("contains" is the whole message as it must be sent, every mark, emoji and quote kept)
- {"kind":"answer_seen","type":"time|phone|number|label"} for a todo that reads; add "ordinal":2 when the goal asks for the second one, "ordinal":-1 for the last.
Write the values the user asked for, exactly (never a value rounded to what you think the phone allows), never a placeholder. Leave "expect" out only when no check fits.
`
