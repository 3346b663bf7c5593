package planner

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// contextBlock extracts the fenced JSON context from a request's user text.
func contextBlock(t *testing.T, text string) map[string]json.RawMessage {
	t.Helper()
	i := strings.Index(text, "```json\n")
	if i < 0 || !strings.HasSuffix(text, "\n```") {
		t.Fatalf("user text does not end with a fenced JSON block: %q", text)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text[i+8:len(text)-4]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBuildPlanMessages(t *testing.T) {
	msgs := BuildPlanMessages(PlanContext{Goal: "Turn on Wi-Fi <now> & then Bluetooth"}, []string{"toggle_setting", "send_message"})
	if len(msgs) != 2 || msgs[0].Role != llm.RoleSystem || msgs[1].Role != llm.RoleUser {
		t.Fatalf("messages = %+v", msgs)
	}
	if !strings.HasPrefix(msgs[0].Text, "You are the planner") || !strings.Contains(msgs[0].Text, "toggle_setting, send_message") {
		t.Errorf("system prompt = %.80q", msgs[0].Text)
	}
	want := "Plan this goal.\n```json\n" + `{"goal":"Turn on Wi-Fi <now> & then Bluetooth","answers":[],"user_messages":[]}` + "\n```"
	if msgs[1].Text != want {
		t.Errorf("user text = %q\nwant %q", msgs[1].Text, want)
	}
	if _, ok := contextBlock(t, msgs[1].Text)["done"]; ok {
		t.Error(`plan context must not carry "done"`)
	}
}

func TestBuildReplanMessages(t *testing.T) {
	msgs := BuildReplanMessages(ReplanContext{
		Goal:     "Turn on Wi-Fi and then Bluetooth",
		Done:     []TodoResult{{Todo: "Turn on Wi-Fi", Status: "done", Result: "Wi-Fi is on", Steps: 3}},
		Feedback: []string{"Tap -> ok"},
		Answers:  []QA{{Question: "Which network?", Answer: "Home"}},
	})
	if !strings.HasPrefix(msgs[0].Text, "You are the replanner") {
		t.Errorf("system prompt = %.60q", msgs[0].Text)
	}
	if !strings.HasPrefix(msgs[1].Text, "Update the plan.\n```json\n") {
		t.Errorf("user text = %q", msgs[1].Text)
	}
	ctx := contextBlock(t, msgs[1].Text)
	for _, k := range []string{"goal", "done", "remaining", "feedback", "answers", "user_messages"} {
		if _, ok := ctx[k]; !ok {
			t.Errorf("replan context lacks %q", k)
		}
	}
	if string(ctx["remaining"]) != "[]" || string(ctx["user_messages"]) != "[]" {
		t.Errorf("empty lists must be [], got remaining=%s user_messages=%s", ctx["remaining"], ctx["user_messages"])
	}
	if string(ctx["done"]) != `[{"todo":"Turn on Wi-Fi","status":"done","result":"Wi-Fi is on","steps":3}]` {
		t.Errorf("done = %s", ctx["done"])
	}
	empty := contextBlock(t, BuildReplanMessages(ReplanContext{Goal: "g"})[1].Text)
	if string(empty["done"]) != "[]" {
		t.Errorf(`an empty "done" must still be present as [], got %s`, empty["done"])
	}
}

func TestParsePlanAccepts(t *testing.T) {
	cases := map[string]Decision{
		`{"status":"planned","plan":["Open Settings and turn on Wi-Fi","Turn on Bluetooth"],"task_type":"toggle_setting"}`:                                                              {Status: StatusPlanned, Plan: []string{"Open Settings and turn on Wi-Fi", "Turn on Bluetooth"}, TaskType: "toggle_setting"},
		"```json\n{\"status\": \"ask_user\", \"question\": \"Who should get the message?\"}\n```":                                                                                       {Status: StatusAskUser, Question: "Who should get the message?"},
		"Here is the plan:\n{\"status\":\"planned\",\"plan\":[\"Open Clock\"],\"task_type\":\"open_app\"}\nLet me know if {this} helps.":                                                {Status: StatusPlanned, Plan: []string{"Open Clock"}, TaskType: "open_app"},
		"<think>The goal {maybe} needs two steps.</think>\n{\"status\":\"planned\",\"plan\":[\" Open Notes \"],\"task_type\":\"create_note\",\"reasoning\":\"extra keys are ignored\"}": {Status: StatusPlanned, Plan: []string{"Open Notes"}, TaskType: "create_note"},
	}
	for in, want := range cases {
		got, err := ParsePlan(in)
		if err != nil {
			t.Errorf("ParsePlan(%q): %v", in, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ParsePlan(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestParseReplanAccepts(t *testing.T) {
	cases := map[string]Decision{
		`{"status":"replanned","plan":["Turn on Bluetooth"]}`:                        {Status: StatusReplanned, Plan: []string{"Turn on Bluetooth"}},
		`{"status":"done","response":"Wi-Fi and Bluetooth are on."}`:                 {Status: StatusDone, Response: "Wi-Fi and Bluetooth are on."},
		"Sure.\n```\n{\"status\":\"ask_user\",\"question\":\"Which contact?\"}\n```": {Status: StatusAskUser, Question: "Which contact?"},
	}
	for in, want := range cases {
		got, err := ParseReplan(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseReplan(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	long := `"` + strings.Repeat("x", MaxItemChars+1) + `"`
	many := `"a"` + strings.Repeat(`,"a"`, MaxPlanItems)
	cases := []struct {
		phase, in string
		problems  []string
	}{
		{PhasePlan, "I will open Settings.", []string{"no JSON object"}},
		{PhasePlan, `{"plan":["a"]}`, []string{`"status" is missing`}},
		{PhasePlan, `{"status":"replanned","plan":["a"]}`, []string{`status "replanned" is not allowed here: use "planned", "ask_user"`}},
		{PhaseReplan, `{"status":"planned","plan":["a"],"task_type":"x"}`, []string{`status "planned" is not allowed`}},
		{PhasePlan, `{"status":"finished"}`, []string{`status "finished" is not allowed`}},
		{PhasePlan, `{"status":"planned","plan":[],"task_type":"x"}`, []string{"plan is empty", "ask_user"}},
		{PhaseReplan, `{"status":"replanned","plan":[]}`, []string{"plan is empty", `"status":"done"`}},
		{PhasePlan, `{"status":"planned","task_type":"x"}`, []string{`"plan" is required`}},
		{PhasePlan, `{"status":"planned","plan":"Open Settings","task_type":"x"}`, []string{`"plan" must be a list`}},
		{PhasePlan, `{"status":"planned","plan":["a"," ",3],"task_type":"x"}`, []string{"plan item 2 is empty", "plan item 3 is not a string"}},
		{PhasePlan, `{"status":"planned","plan":[` + long + `],"task_type":"x"}`, []string{"plan item 1 is longer"}},
		{PhasePlan, `{"status":"planned","plan":[` + many + `],"task_type":"x"}`, []string{"more than 20"}},
		{PhasePlan, `{"status":"planned","plan":["a"]}`, []string{`"task_type" is required`}},
		{PhasePlan, `{"status":"planned","plan":["a"],"task_type":"x","question":"why?"}`, []string{`"question" does not belong in a "planned" answer`}},
		{PhasePlan, `{"status":"ask_user"}`, []string{`"question" is required`}},
		{PhasePlan, `{"status":"ask_user","question":"  "}`, []string{`"question" is empty`}},
		{PhaseReplan, `{"status":"done"}`, []string{`"response" is required`}},
		{PhaseReplan, `{"status":"done","response":"ok","plan":["a"]}`, []string{`"plan" does not belong in a "done" answer`}},
		{PhaseReplan, `{"status":"replanned","plan":["a"],"task_type":"x"}`, []string{`"task_type" does not belong`}},
		{PhaseReplan, `{"status":"ask_user","question":7}`, []string{`"question" must be a string`}},
		{PhaseReplan, `{"status":"done","response":"ok"`, []string{"no JSON object"}},
	}
	for _, tc := range cases {
		parse := ParsePlan
		if tc.phase == PhaseReplan {
			parse = ParseReplan
		}
		_, err := parse(tc.in)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s %q: err = %v, want *ValidationError", tc.phase, tc.in, err)
			continue
		}
		if ve.Raw != tc.in || ve.Phase != tc.phase {
			t.Errorf("raw/phase = %q/%q", ve.Raw, ve.Phase)
		}
		fb := ve.Feedback()
		for _, p := range tc.problems {
			if !strings.Contains(fb, p) || !strings.Contains(err.Error(), p) {
				t.Errorf("%s %q: feedback %q should mention %q", tc.phase, tc.in, fb, p)
			}
		}
		if !strings.HasPrefix(fb, "Your answer was invalid:") || !strings.Contains(fb, "Answer again with only JSON of the form") {
			t.Errorf("feedback shape: %q", fb)
		}
	}
}

func TestFeedbackMessages(t *testing.T) {
	prev := BuildPlanMessages(PlanContext{Goal: "g"}, nil)
	raw := `{"status":"planned","plan":[]}`
	_, err := ParsePlan(raw)
	next := FeedbackMessages(prev, raw, err)
	if len(prev) != 2 || len(next) != 4 {
		t.Fatalf("prev %d, next %d messages", len(prev), len(next))
	}
	if next[2].Role != llm.RoleAssistant || next[2].Text != raw {
		t.Errorf("assistant turn = %+v", next[2])
	}
	if next[3].Role != llm.RoleUser || next[3].Text != err.(*ValidationError).Feedback() {
		t.Errorf("feedback turn = %+v", next[3])
	}
	other := FeedbackMessages(prev, "x", errors.New("timeout"))
	if !strings.Contains(other[3].Text, "timeout") {
		t.Errorf("generic feedback = %q", other[3].Text)
	}
}

func FuzzParseReplan(f *testing.F) {
	for _, s := range []string{`{"status":"replanned","plan":["a"]}`, `{"status":"done","response":"ok"}`,
		"```json\n{\"status\":\"ask_user\",\"question\":\"q\"}\n```", `{"status":"planned","plan":[],"task_type":"x"}`, "{{{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, parse := range []func(string) (Decision, error){ParsePlan, ParseReplan} {
			d, err := parse(in)
			if err != nil {
				var ve *ValidationError
				if !errors.As(err, &ve) || len(ve.Problems) == 0 {
					t.Fatalf("error %v is not a *ValidationError with problems", err)
				}
				continue
			}
			// A valid decision survives a JSON round trip unchanged.
			data, _ := json.Marshal(d)
			again, err := parse(string(data))
			if err != nil || !reflect.DeepEqual(again, d) {
				t.Fatalf("%q -> %s -> %+v, %v", in, data, again, err)
			}
		}
	})
}
