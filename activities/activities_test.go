package activities

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

const tapAnswer = `<think>The Wi-Fi switch is at the top.</think><answer>do(action="Tap", element=[500,500])</answer>`

func TestStepObservesThinksAndKeepsImagesOutOfTheResult(t *testing.T) {
	a, p, m := newActivities(t, tapAnswer)
	ctx := context.Background()
	res, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: "turn on wifi", UITree: true, Think: true,
		Notes: []string{"use the switch"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Act != nil || len(p.got()) != 0 {
		t.Fatalf("acted without an action: %+v %v", res.Act, p.got())
	}
	s := res.Screen
	if !strings.HasPrefix(s.ScreenRef, "sha256:") || !strings.HasPrefix(s.TreeRef, "sha256:") || s.Hash == "" ||
		s.App != "Settings" || s.Width != 1080 || s.Height != 2400 {
		t.Fatalf("observation = %+v", s)
	}
	png, err := a.Blobs.Get(ctx, s.ScreenRef)
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Fatalf("screenshot blob: %v", err)
	}
	th := res.Think
	if th == nil || th.ParseError != "" || th.Response.Action.Name != autoglm.ActionTap || *th.Response.Action.Element != (autoglm.Point{500, 500}) {
		t.Fatalf("think = %+v", th)
	}
	req := m.last()
	user := req[len(req)-1]
	if len(user.Images) != 1 || !strings.Contains(user.Text, "Task: turn on wifi") ||
		!strings.Contains(user.Text, "- use the switch") || !strings.Contains(user.Text, `Switch "Wi-Fi"`) {
		t.Fatalf("executor request = %q (%d images)", user.Text, len(user.Images))
	}
	// The turns kept for later requests live in the blob store: text only,
	// without the element list.
	turns := historyOf(t, a, th.HistoryRef)
	if len(turns) != 1 || strings.Contains(turns[0].User, "UI elements") || !strings.Contains(turns[0].User, "Task: turn on wifi") ||
		!strings.Contains(turns[0].Assistant, `do(action="Tap"`) || th.Turn.User != "" {
		t.Fatalf("turns = %+v", turns)
	}
	b, _ := json.Marshal(res)
	if len(b) > 1500 {
		t.Fatalf("step result is %d bytes: %s", len(b), b)
	}
	t.Logf("step result payload: %d bytes", len(b))
}

func historyOf(t *testing.T, a *Activities, ref string) []Turn {
	t.Helper()
	data, err := a.Blobs.Get(context.Background(), ref)
	if err != nil {
		t.Fatalf("history blob %q: %v", ref, err)
	}
	var turns []Turn
	if err := json.Unmarshal(data, &turns); err != nil {
		t.Fatal(err)
	}
	return turns
}

func TestStepActsThenObservesAndMapsCoordinates(t *testing.T) {
	a, p, _ := newActivities(t, tapAnswer)
	ctx := context.Background()
	first, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Think: false})
	if err != nil {
		t.Fatal(err)
	}
	act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	res, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Act: &act, ScreenHash: first.Screen.Hash,
		Width: 1080, Height: 2400, Think: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.got(); !slices.Equal(got, []string{"tap 540 1200"}) {
		t.Fatalf("inputs = %v", got)
	}
	if res.Act.Result != "ok" || res.Screen.Hash == first.Screen.Hash {
		t.Fatalf("act = %+v, hash %s -> %s", res.Act, first.Screen.Hash, res.Screen.Hash)
	}
	// The previous action and its result reach the model.
	turns := historyOf(t, a, res.Think.HistoryRef)
	if u := turns[len(turns)-1].User; !strings.Contains(u, `Previous action: do(action="Tap", element=[500,500])`) ||
		!strings.Contains(u, "Previous action result: ok") {
		t.Fatalf("turn = %q", u)
	}
}

func TestActRetryDoesNotActTwice(t *testing.T) {
	a, p, _ := newActivities(t)
	ctx := context.Background()
	obs, err := a.Observe(ctx, ObserveInput{Serial: "fake-1"})
	if err != nil {
		t.Fatal(err)
	}
	act := autoglm.Action{Name: autoglm.ActionBack}
	// Attempt 1 sent the input, then the activity failed before reporting.
	if _, err := a.act(ctx, p, 1, act, obs.Hash, 1080, 2400); err != nil {
		t.Fatal(err)
	}
	r, err := a.act(ctx, p, 2, act, obs.Hash, 1080, 2400)
	if err != nil || r.Result != ActAlreadyApplied {
		t.Fatalf("retry = %+v, %v", r, err)
	}
	if len(p.got()) != 1 {
		t.Fatalf("inputs = %v", p.got())
	}
	// A retry whose screen did not change (the input never arrived) acts.
	obs2, _ := a.Observe(ctx, ObserveInput{Serial: "fake-1"})
	if r, err := a.act(ctx, p, 2, act, obs2.Hash, 1080, 2400); err != nil || r.Result != "ok" || len(p.got()) != 2 {
		t.Fatalf("retry on unchanged screen = %+v, %v, %v", r, err, p.got())
	}
}

func TestActErrors(t *testing.T) {
	a, p, _ := newActivities(t)
	ctx := context.Background()
	r, err := a.Act(ctx, ActInput{Serial: "fake-1", Action: autoglm.Action{Name: autoglm.ActionLaunch, App: "Foo"}})
	if err != nil || !strings.Contains(r.Result, `app not found: "Foo"`) || !strings.Contains(r.Result, "Settings") {
		t.Fatalf("app not found = %+v, %v", r, err)
	}
	p.failNext = errors.New("adb: connection reset")
	_, err = a.Act(ctx, ActInput{Serial: "fake-1", Action: autoglm.Action{Name: autoglm.ActionHome}})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.NonRetryable() || ae.Type() != ErrTypeDevice {
		t.Fatalf("disconnect = %v", err)
	}
	_, err = a.Act(ctx, ActInput{Serial: "other", Action: autoglm.Action{Name: autoglm.ActionHome}})
	if !errors.As(err, &ae) || !ae.NonRetryable() {
		t.Fatalf("unknown serial = %v", err)
	}
	r, err = a.Act(ctx, ActInput{Serial: "fake-1", Action: autoglm.Action{Name: autoglm.ActionTap}})
	if err != nil || !strings.Contains(r.Result, "needs element") {
		t.Fatalf("tap without element = %+v, %v", r, err)
	}
}

func TestThinkParseErrorIsAResult(t *testing.T) {
	a, _, _ := newActivities(t, "I would tap the switch.")
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Think.Response != nil || res.Think.ParseError == "" || res.Think.Turn.Assistant != "I would tap the switch." {
		t.Fatalf("think = %+v", res.Think)
	}
	// The unparseable answer stays in the history so the model sees it with the feedback.
	if turns := historyOf(t, a, res.Think.HistoryRef); len(turns) != 1 || turns[0].Assistant != "I would tap the switch." {
		t.Fatalf("turns = %+v", turns)
	}
}

func TestModelErrorsMapToRetryPolicy(t *testing.T) {
	limited := &llm.Error{Kind: llm.Retryable, Status: 429, RetryAfter: 7 * time.Second, Msg: "rate limited"}
	badKey := &llm.Error{Kind: llm.Permanent, Status: 401, Msg: "bad key: check api_key"}
	a, _, _ := newActivities(t, limited, badKey)
	ctx := context.Background()

	_, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Think: true})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.NonRetryable() || ae.NextRetryDelay() != 7*time.Second || ae.Type() != ErrTypeModelRetryable {
		t.Fatalf("429 = %v", err)
	}
	_, err = a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Think: true})
	if !errors.As(err, &ae) || !ae.NonRetryable() || ae.Type() != ErrTypeModelPermanent {
		t.Fatalf("401 = %v", err)
	}
}

func TestSensitiveScreen(t *testing.T) {
	a, p, m := newActivities(t, tapAnswer)
	p.sensitive = true
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "pay", Think: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Screen.Sensitive || res.Screen.ScreenRef != "" || res.Screen.Hash == "" {
		t.Fatalf("observation = %+v", res.Screen)
	}
	user := m.last()[len(m.last())-1]
	if len(user.Images) != 0 || !strings.Contains(user.Text, "Screen: sensitive: screenshot unavailable (secure screen)") {
		t.Fatalf("request = %q, %d images", user.Text, len(user.Images))
	}
}

func TestThinkFromBlobsAndTaskPrompt(t *testing.T) {
	a, _, m := newActivities(t, tapAnswer)
	mem, err := promptmem.Open(t.TempDir() + "/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.Record("settings", true, "Prefer the quick settings panel."); err != nil {
		t.Fatal(err)
	}
	a.Prompts = mem
	ctx := context.Background()
	obs, err := a.Observe(ctx, ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	th, err := a.Think(ctx, ThinkInput{Task: "wifi", TaskType: "settings", Screen: obs,
		History: []Turn{{User: "Task: wifi", Assistant: "<think>x</think><answer>do(action=\"Home\")</answer>"}}})
	if err != nil || th.Response == nil {
		t.Fatalf("think = %+v, %v", th, err)
	}
	req := m.last()
	if len(req) != 4 || !strings.Contains(req[0].Text, "Prefer the quick settings panel.") || len(req[3].Images) != 1 || len(req[1].Images) != 0 {
		t.Fatalf("request shape: %d messages, system %q", len(req), req[0].Text)
	}
	// The next think reads the turns so far from the blob its result named.
	m.answers = append(m.answers, tapAnswer)
	th2, err := a.Think(ctx, ThinkInput{Task: "wifi", Screen: obs, HistoryRef: th.HistoryRef})
	if err != nil {
		t.Fatal(err)
	}
	if req := m.last(); len(req) != 6 || req[3].Role != llm.RoleUser || !strings.Contains(req[4].Text, "do(action=\"Tap\"") {
		t.Fatalf("second request has %d messages", len(req))
	}
	if turns := historyOf(t, a, th2.HistoryRef); len(turns) != 3 {
		t.Fatalf("history after two thinks = %d turns", len(turns))
	}
}

func TestPlanAndReplan(t *testing.T) {
	a, _, m := newActivities(t,
		`{"status":"planned","plan":["open settings","turn on wifi"],"task_type":"settings"}`,
		`{"status":"replanned","plan":[]}`,
		`{"status":"done","response":"Wi-Fi is on"}`,
	)
	ctx := context.Background()
	d, err := a.PlanOnce(ctx, PlanInput{Goal: "turn on wifi", UserMessages: []string{"quickly"}})
	if err != nil || d.Status != PlanPlanned || len(d.Plan) != 2 || d.TaskType != "settings" {
		t.Fatalf("plan = %+v, %v", d, err)
	}
	if !strings.Contains(m.last()[1].Text, `"user_messages":["quickly"]`) {
		t.Fatalf("plan request = %q", m.last()[1].Text)
	}
	in := ReplanInput{Goal: "turn on wifi", Done: []DoneTodo{{Todo: "open settings", Status: "done", Steps: 3}},
		Remaining: []string{"turn on wifi"}, Feedback: []string{"todo 1 done"}}
	d, err = a.Replan(ctx, in)
	if err != nil || d.Invalid == "" || d.Raw != `{"status":"replanned","plan":[]}` {
		t.Fatalf("invalid replan = %+v, %v", d, err)
	}
	in.Invalid, in.Rejected = d.Invalid, d.Raw
	d, err = a.Replan(ctx, in)
	if err != nil || d.Status != PlanDone || d.Response != "Wi-Fi is on" {
		t.Fatalf("replan = %+v, %v", d, err)
	}
	req := m.last()
	if len(req) != 4 || req[2].Role != llm.RoleAssistant || req[3].Text != in.Invalid || !strings.Contains(req[1].Text, `"done":[`) {
		t.Fatalf("retry request = %+v", req)
	}
}

func TestScreenHash(t *testing.T) {
	p := newFakePhone()
	a := p.render()
	p.clock = 3 // only the status bar differs
	b := p.render()
	p.shade += 30
	c := p.render()
	ha, _ := ScreenHash(a)
	hb, _ := ScreenHash(b)
	hc, _ := ScreenHash(c)
	if ha != hb || ha == hc {
		t.Fatalf("hashes %s %s %s", ha, hb, hc)
	}
	if _, err := ScreenHash([]byte("not a png")); err == nil {
		t.Fatal("garbage hashed")
	}
}

func TestParseWait(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"2 seconds": 2 * time.Second, "2s": 2 * time.Second, "1.5 second": 1500 * time.Millisecond,
		"500ms": 500 * time.Millisecond, "3": 3 * time.Second, "1 minute": time.Minute, "soon": time.Second,
		"": time.Second, "-4 s": time.Second,
	} {
		if got := ParseWait(in); got != want {
			t.Errorf("ParseWait(%q) = %v, want %v", in, got, want)
		}
	}
}

func FuzzParseWait(f *testing.F) {
	for _, s := range []string{"2 seconds", "500ms", "1e9 minutes", "NaN s", "-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := ParseWait(s); d < 0 {
			t.Fatalf("ParseWait(%q) = %v", s, d)
		}
	})
}

func FuzzScreenHash(f *testing.F) {
	f.Add(newFakePhone().render())
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ScreenHash(data)
		if err == nil && h == "" {
			t.Fatal("empty hash without error")
		}
	})
}

// A value label that changes makes a new text digest, the status bar's
// clock does not, and a tree with nothing of the app has none.
func TestTextHashSeesAValueLabelChange(t *testing.T) {
	tree := func(value, clock string) []uitree.Element {
		return []uitree.Element{
			{Package: "com.android.systemui", Text: clock},
			{Package: "com.android.settings", Text: "Brightness " + value},
			{Package: "com.android.settings", Text: "-"},
		}
	}
	a, b := textHash(tree("40%", "12:00")), textHash(tree("30%", "12:00"))
	if a == "" || a == b {
		t.Fatalf("40%% and 30%% digest as %q and %q", a, b)
	}
	if c := textHash(tree("40%", "12:01")); c != a {
		t.Fatalf("the clock changed the digest: %q, %q", a, c)
	}
	if h := textHash([]uitree.Element{{Package: "com.android.systemui", Text: "12:00"}}); h != "" {
		t.Fatalf("the system's windows alone digest as %q", h)
	}
}

func TestPlannerIsToldTheTimeTheBudgetAndTheTodosLastActions(t *testing.T) {
	a, _, m := newActivities(t,
		`{"status":"planned","plan":["send the message"],"task_type":"message"}`,
		`{"status":"done","response":"sent"}`,
	)
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 12, 30, 0, 0, time.UTC)
	sit := Situation{Now: now, TimeZone: "Asia/Shanghai", StepsUsed: 12, MaxSteps: 100, TodoMaxSteps: 30}
	if _, err := a.PlanOnce(ctx, PlanInput{Goal: "message Alice tonight", Situation: sit}); err != nil {
		t.Fatal(err)
	}
	want := `"situation":{"now":"2026-11-26 20:30 Thursday","time_zone":"Asia/Shanghai","steps_used":12,"steps_left":88,"todo_max_steps":30}`
	if !strings.Contains(m.last()[1].Text, want) {
		t.Errorf("plan request %s\nwant %s", m.last()[1].Text, want)
	}
	in := ReplanInput{Goal: "message Alice tonight", Done: []DoneTodo{{Todo: "send the message", Status: "failed", Result: "todo step cap reached (30 steps)", Steps: 30}},
		LastActions: []string{`Tap "Send" → ok`, `Back → ok`}, Situation: sit}
	if _, err := a.Replan(ctx, in); err != nil {
		t.Fatal(err)
	}
	req := m.last()[1].Text
	if !strings.Contains(req, `"last_actions":["Tap \"Send\" → ok","Back → ok"]`) || !strings.Contains(req, want) {
		t.Errorf("replan request %s", req)
	}
	// Inputs recorded before the situation was sent add nothing.
	if _, err := a.Replan(ctx, ReplanInput{Goal: "g", Remaining: []string{"x"}}); err == nil && strings.Contains(m.last()[1].Text, "situation") {
		t.Errorf("an old input got a situation: %s", m.last()[1].Text)
	}
}
