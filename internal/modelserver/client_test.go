package modelserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/planner"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// These tests use the project's model client and protocol parser against
// the server over real HTTP, as the workers do.

const settingsScreen = `Task: Turn on Wi-Fi
Current app: Settings (com.android.settings)
Previous action: do(action="Launch", app="Settings")
Previous action result: ok
Screen: normal
UI elements (at=[x,y] is the element's center on the 0-999 grid):
[1] TextView "Settings" at=[500,60]
[2] Switch "Wi-Fi" id=wifi_switch checked=false clickable at=[500,120]
[3] Switch "Bluetooth" id=bluetooth_switch checked=false clickable at=[500,170]`

var pixel = llm.Image{MIME: "image/png", Data: []byte("\x89PNG\r\n\x1a\n")}

func executorMsgs(text string) []llm.Message {
	return []llm.Message{
		{Role: llm.RoleSystem, Text: "You are a phone operator. Answer <think>…</think><answer>action</answer>."},
		{Role: llm.RoleUser, Text: text, Images: []llm.Image{pixel}},
	}
}

func plannerMsgs(goal string) []llm.Message {
	ctx, _ := json.Marshal(map[string]any{"goal": goal, "answers": []any{}, "user_messages": []any{}})
	return []llm.Message{
		{Role: llm.RoleSystem, Text: `You are the planner of phoneflow. Answer with JSON only. Each todo may carry "expect": its postconditions.`},
		{Role: llm.RoleUser, Text: "Plan this goal.\n```json\n" + string(ctx) + "\n```"},
	}
}

func client(t *testing.T, url, model, key string, stream bool) *llm.Client {
	t.Helper()
	cfg := llm.ExecutorDefaults(url+"/v1", key, model)
	cfg.Stream = stream
	cfg.Timeout = 10 * time.Second
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return llm.New(cfg)
}

func TestClientBothRoles(t *testing.T) {
	srv := httptest.NewServer(modelserver.New(modelserver.Config{Latency: 10 * time.Millisecond}))
	defer srv.Close()
	ctx := context.Background()
	for _, stream := range []bool{false, true} {
		planner := client(t, srv.URL, modelserver.PlannerModel, "", stream)
		ans, err := planner.Chat(ctx, plannerMsgs("Turn on Wi-Fi and then Bluetooth"))
		if err != nil {
			t.Fatalf("stream=%v planner: %v", stream, err)
		}
		var plan struct {
			Status string `json:"status"`
			Plan   []struct {
				Todo   string            `json:"todo"`
				Expect []json.RawMessage `json:"expect"`
			} `json:"plan"`
		}
		err = json.Unmarshal([]byte(ans.Text), &plan)
		var todos []string
		for _, p := range plan.Plan {
			if len(p.Expect) == 1 {
				todos = append(todos, p.Todo)
			}
		}
		if err != nil || plan.Status != "planned" || strings.Join(todos, "|") != "Turn on Wi-Fi|Turn on Bluetooth" {
			t.Fatalf("stream=%v plan %q (%v)", stream, ans.Text, err)
		}
		if ans.Streamed != stream || ans.CompletionTokens == 0 || ans.Total <= 0 {
			t.Fatalf("stream=%v answer meta %+v", stream, ans)
		}

		// A planner from before postconditions gets plain strings.
		old := plannerMsgs("Turn on Wi-Fi and then Bluetooth")
		old[0].Text = "You are the planner of phoneflow. Answer with JSON only."
		ans, err = planner.Chat(ctx, old)
		if err != nil || !strings.Contains(ans.Text, `"plan":["Turn on Wi-Fi","Turn on Bluetooth"]`) {
			t.Fatalf("stream=%v plan for a planner without postconditions %q (%v)", stream, ans.Text, err)
		}

		executor := client(t, srv.URL, "autoglm-phone-9b", "", stream)
		ans, err = executor.Chat(ctx, executorMsgs(settingsScreen))
		if err != nil {
			t.Fatalf("stream=%v executor: %v", stream, err)
		}
		resp, err := autoglm.Parse(ans.Text)
		if err != nil {
			t.Fatalf("stream=%v executor answer does not parse: %v\n%s", stream, err, ans.Text)
		}
		if resp.Action.Name != autoglm.ActionTap || resp.Action.Element == nil || *resp.Action.Element != (autoglm.Point{500, 120}) {
			t.Fatalf("stream=%v action %+v, want Tap [500,120]", stream, resp.Action)
		}
		if stream && (ans.ThinkEnd <= 0 || ans.TTFT <= 0 || ans.ThinkEnd > ans.Total) {
			t.Fatalf("streaming timings TTFT=%v ThinkEnd=%v Total=%v", ans.TTFT, ans.ThinkEnd, ans.Total)
		}
	}
}

func TestClientFaultClasses(t *testing.T) {
	ctx := context.Background()
	for _, stream := range []bool{false, true} {
		for _, c := range []struct {
			name      string
			cfg       modelserver.Config
			key       string
			retryable bool
			status    int
		}{
			{"429", modelserver.Config{RateLimit429: 1, RetryAfter: 2 * time.Second}, "", true, 429},
			{"500", modelserver.Config{Rate500: 1}, "", true, 500},
			{"401", modelserver.Config{APIKey: "right-key"}, "wrong-key", false, 401},
		} {
			srv := httptest.NewServer(modelserver.New(c.cfg))
			_, err := client(t, srv.URL, modelserver.ExecutorModel, c.key, stream).Chat(ctx, executorMsgs(settingsScreen))
			srv.Close()
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("%s stream=%v: err %v is not an *llm.Error", c.name, stream, err)
			}
			if llm.IsRetryable(err) != c.retryable || e.Status != c.status {
				t.Fatalf("%s stream=%v: kind %v status %d, want retryable=%v status %d (%v)", c.name, stream, e.Kind, e.Status, c.retryable, c.status, err)
			}
			if c.name == "429" && llm.RetryAfter(err) != 2*time.Second {
				t.Fatalf("429 stream=%v: RetryAfter = %v, want 2s", stream, llm.RetryAfter(err))
			}
			if strings.Contains(err.Error(), "wrong-key") || strings.Contains(err.Error(), "right-key") {
				t.Fatalf("error leaks the key: %v", err)
			}
		}
	}
}

func TestClientMalformedAndWrongTap(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(modelserver.New(modelserver.Config{RateMalformed: 1, Seed: 5}))
	defer srv.Close()
	kinds := map[string]bool{}
	for i := range 9 {
		ans, err := client(t, srv.URL, modelserver.ExecutorModel, "", i%2 == 0).Chat(ctx, executorMsgs(settingsScreen))
		if err != nil {
			t.Fatal(err)
		}
		_, perr := autoglm.Parse(ans.Text)
		var pe *autoglm.ParseError
		if !errors.As(perr, &pe) || pe.Raw != ans.Text {
			t.Fatalf("malformed answer %q parsed: err=%v", ans.Text, perr)
		}
		kinds[pe.Reason] = true
		p, err := client(t, srv.URL, modelserver.PlannerModel, "", i%2 == 1).Chat(ctx, plannerMsgs("Open Clock"))
		if err != nil {
			t.Fatal(err)
		}
		var plan struct {
			Status string   `json:"status"`
			Plan   []string `json:"plan"`
		}
		if json.Unmarshal([]byte(p.Text), &plan) == nil && plan.Status == "planned" && len(plan.Plan) > 0 {
			t.Fatalf("malformed planner answer is a valid plan: %s", p.Text)
		}
	}
	if len(kinds) < 2 {
		t.Fatalf("malformed executor answers fail for one reason only: %v", kinds)
	}

	wrong := httptest.NewServer(modelserver.New(modelserver.Config{RateWrongTap: 1, Seed: 5}))
	defer wrong.Close()
	ans, err := client(t, wrong.URL, modelserver.ExecutorModel, "", true).Chat(ctx, executorMsgs(settingsScreen))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := autoglm.Parse(ans.Text)
	if err != nil {
		t.Fatalf("wrong-tap answer must still parse: %v", err)
	}
	if resp.Action.Name != autoglm.ActionTap || *resp.Action.Element == (autoglm.Point{500, 120}) {
		t.Fatalf("wrong tap not injected: %+v", resp.Action)
	}
}

// TestPlannerContract runs the project's planner requests and validators
// against the server: plan, the showcase replan, done, and recovery after
// an invalid answer through the correction messages.
func TestPlannerContract(t *testing.T) {
	ctx := context.Background()
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	defer srv.Close()
	c := client(t, srv.URL, "deepseek-chat", "", true) // role from the system prompt
	goal := "Read the time of the first alarm in Clock and then send it to Alice"

	ans, err := c.Chat(ctx, planner.BuildPlanMessages(planner.PlanContext{Goal: goal}, []string{"reading"}))
	if err != nil {
		t.Fatal(err)
	}
	d, err := planner.ParsePlan(ans.Text)
	if err != nil {
		t.Fatalf("plan answer invalid: %v", err)
	}
	if d.Status != planner.StatusPlanned || len(d.Plan) != 2 || d.Plan[1] != "Send Alice a message with what was read" {
		t.Fatalf("plan = %+v", d)
	}

	ans, err = c.Chat(ctx, planner.BuildReplanMessages(planner.ReplanContext{Goal: goal,
		Done:      []planner.TodoResult{{Todo: d.Plan[0], Status: "done", Result: "07:00", Steps: 2}},
		Remaining: d.Plan[1:]}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := planner.ParseReplan(ans.Text)
	if err != nil || r.Status != planner.StatusReplanned || len(r.Plan) != 1 || r.Plan[0] != "Send Alice a message: 07:00" {
		t.Fatalf("replan = %+v, %v", r, err)
	}

	ans, err = c.Chat(ctx, planner.BuildReplanMessages(planner.ReplanContext{Goal: goal,
		Done: []planner.TodoResult{{Todo: d.Plan[0], Status: "done", Result: "07:00"}, {Todo: r.Plan[0], Status: "done", Result: "sent"}}}))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := planner.ParseReplan(ans.Text); err != nil || r.Status != planner.StatusDone || !strings.Contains(r.Response, "07:00") {
		t.Fatalf("final replan = %+v, %v", r, err)
	}

	// An invalid answer, then the correction: the server answers properly.
	bad := httptest.NewServer(modelserver.New(modelserver.Config{RateMalformed: 1}))
	defer bad.Close()
	msgs := planner.BuildPlanMessages(planner.PlanContext{Goal: "Send a message"}, nil)
	ans, err = client(t, bad.URL, modelserver.PlannerModel, "", false).Chat(ctx, msgs)
	if err != nil {
		t.Fatal(err)
	}
	_, verr := planner.ParsePlan(ans.Text)
	if verr == nil {
		t.Fatalf("malformed planner answer validated: %s", ans.Text)
	}
	ans, err = c.Chat(ctx, planner.FeedbackMessages(msgs, ans.Text, verr))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := planner.ParsePlan(ans.Text); err != nil || d.Status != planner.StatusAskUser ||
		d.Question != "Who should I send the message to, and what should it say?" {
		t.Fatalf("after correction: %+v, %v", d, err)
	}
}

// The planner's stuck correction goes over real HTTP in the JSON response
// format, and the answer keeps the contract.
func TestCorrectionOverHTTP(t *testing.T) {
	ms := modelserver.New(modelserver.Config{})
	srv := httptest.NewServer(ms)
	defer srv.Close()
	sw := func(text, id string, y int) uitree.Element {
		return uitree.Element{Class: "android.widget.Switch", Text: text, ResourceID: "com.android.settings:id/" + id,
			Bounds: uitree.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 160}, Clickable: true, Checkable: true}
	}
	msgs := planner.BuildCorrectionMessages(planner.CorrectionContext{
		Todo: "Turn on Bluetooth", Why: "the screen did not change after 3 actions",
		Recent: []string{`do(action="Tap", element=[500,900]) → ok`, `do(action="Tap", element=[500,900]) → ok`},
		App:    "Settings", AppPackage: "com.android.settings", Width: 1080, Height: 2400,
		Elements: []uitree.Element{
			{Class: "android.widget.TextView", Text: "Settings", Bounds: uitree.Bounds{X1: 0, Y1: 80, X2: 1080, Y2: 200}},
			sw("Wi-Fi", "wifi_switch", 260), sw("Bluetooth", "bluetooth_switch", 440),
		},
	})
	for _, stream := range []bool{false, true} {
		c := client(t, srv.URL, modelserver.PlannerModel, "", stream)
		ans, err := c.Chat(llm.WithJSON(context.Background(), planner.CorrectionSchema), msgs)
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		got, err := planner.ParseCorrection(ans.Text)
		if err != nil {
			t.Fatalf("stream=%v: answer %q: %v", stream, ans.Text, err)
		}
		if !strings.Contains(got, `do(action="Tap", element=[500,216])`) || !strings.Contains(got, "[500,900]") {
			t.Errorf("stream=%v: correction %q does not name the Bluetooth switch instead of the missed point", stream, got)
		}
	}
	if st := ms.Stats(); st.Corrector != 2 || st.Planner != 0 {
		t.Errorf("stats = %+v, want 2 corrections answered in the corrector role", st)
	}
}
