package activities

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
)

// An answer in another family's grammar fails the first think at once,
// not retried, with the family and the setting named.
func TestThinkWrongFamilyIsPermanent(t *testing.T) {
	for _, c := range []struct{ protocol, answer, want string }{
		{autoglm.ProtocolAutoGLM, "Thought: open it\nAction: click(start_box='(100,200)')", "executor.protocol: uitars"},
		{autoglm.ProtocolAutoGLM, "<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": \"click\", \"coordinate\": [1, 2]}}\n</tool_call>", "executor.protocol: mobile_use"},
		{autoglm.ProtocolUITARS, `do(action="Tap", element=[500,300])`, "executor.protocol: autoglm"},
	} {
		a, _, m := newActivities(t, c.answer)
		a.Exec.Protocol = c.protocol
		_, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true})
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) || !ae.NonRetryable() || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: %v; want a non-retryable error naming %q", c.protocol, err, c.want)
		}
		if len(m.reqs) != 1 {
			t.Fatalf("%d requests", len(m.reqs))
		}
	}
}

// An answer the max-tokens limit cut off is said to be cut off, and the
// next request asks for fewer tokens.
func TestThinkCutOffAnswer(t *testing.T) {
	cut := &llm.Answer{Text: "我需要点击。实际上我应该点击。实际上我应该点击。do(action=\"Tap\", element=[50", FinishReason: "length"}
	a, _, m := newActivities(t, cut, tapAnswer)
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Think.Response != nil || !strings.Contains(res.Think.ParseError, "cut off by the max_tokens limit") || !res.Think.Turn.CutOff {
		t.Fatalf("think = %+v", res.Think)
	}
	if _, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true, HistoryRef: res.Think.HistoryRef}); err != nil {
		t.Fatal(err)
	}
	if len(m.lowered) != 2 || m.lowered[0] || !m.lowered[1] {
		t.Fatalf("lowered max tokens per request: %v, want [false true]", m.lowered)
	}
}

// The replayed turn is the answer as the model wrote it: curly quotes
// stay unescaped.
func TestThinkReplaysTheAnswerAsWritten(t *testing.T) {
	a, _, _ := newActivities(t, "输入。\ndo(action=\"Type\", text=\"“你好”，我到了\")")
	a.Exec.Protocol = autoglm.ProtocolAutoGLM
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true})
	if err != nil {
		t.Fatal(err)
	}
	turns := historyOf(t, a, res.Think.HistoryRef)
	if want := "<think>输入。</think><answer>do(action=\"Type\", text=\"“你好”，我到了\")</answer>"; turns[0].Assistant != want {
		t.Fatalf("turn %q, want %q", turns[0].Assistant, want)
	}
}

// The autoglm layout reports the app as the model's reference client does:
// its own label, System Home for any vendor's launcher and for apps it
// does not know.
func TestThinkCurrentAppAsTheModelKnowsIt(t *testing.T) {
	for pkg, want := range map[string]string{
		"com.miui.home":                `"current_app": "System Home"`,
		"com.huawei.android.launcher":  `"current_app": "System Home"`,
		"com.sec.android.app.launcher": `"current_app": "System Home"`,
		"com.example.unknown":          `"current_app": "System Home"`,
		"com.android.launcher3":        `"current_app": "System Home"`,
		"com.tencent.mm":               `"current_app": "微信"`,
		"com.android.settings":         `"current_app": "AndroidSystemSettings"`,
	} {
		a, p, m := newActivities(t, tapAnswer)
		a.Exec.Protocol = autoglm.ProtocolAutoGLM
		p.pkg = pkg
		if _, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true}); err != nil {
			t.Fatal(err)
		}
		if user := m.last()[len(m.last())-1]; !strings.Contains(user.Text, want) {
			t.Errorf("%s: %q, want %s", pkg, user.Text, want)
		}
	}
}

// Under the tools protocol the model acts by element number of the list
// the request carried.
func TestThinkToolCallByElement(t *testing.T) {
	a, _, m := newActivities(t, &llm.Answer{ToolCalls: []llm.ToolCall{{Name: "tap", Arguments: `{"element": 1}`}}})
	a.Exec.Protocol = autoglm.ProtocolTools
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "Turn on Wi-Fi", Think: true, UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Think.Response == nil || res.Think.Response.Action.Name != autoglm.ActionTap || res.Think.Response.Action.Element == nil {
		t.Fatalf("think = %+v", res.Think)
	}
	if sys := m.last()[0].Text; !strings.Contains(sys, "calling one of the functions") {
		t.Fatalf("system prompt %q", sys)
	}
}

// An endpoint that answers with native tool calls and no text under the
// autoglm protocol (and any other text protocol) fails the first think at
// once with the reason, not retried as an empty answer.
func TestThinkNativeToolCallsUnderAutoGLM(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",`+
			`"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"click","arguments":"{\"x\":1}"}}]}}]}`)
	}))
	defer srv.Close()
	for _, protocol := range []string{autoglm.ProtocolAutoGLM, autoglm.ProtocolPhoneflow, autoglm.ProtocolUITARS, autoglm.ProtocolMobileUse} {
		requests.Store(0)
		a, _, _ := newActivities(t)
		a.Executor = llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "autoglm-phone-9b", Timeout: 10 * time.Second})
		a.Exec.Protocol = protocol
		_, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Think: true})
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) || !ae.NonRetryable() || !strings.Contains(err.Error(), "native tool calls") || !strings.Contains(err.Error(), "executor.protocol: tools") {
			t.Fatalf("%s: %v; want a non-retryable error saying tool calls are not read and naming executor.protocol: tools", protocol, err)
		}
		if n := requests.Load(); n != 1 {
			t.Fatalf("%s: %d requests, want the first answer to end it", protocol, n)
		}
	}
}

// Under mobile_use a read task's value reaches the finish: the family
// answers it with answer(text=…) and then calls terminate, which carries
// only the status.
func TestThinkMobileUseFinishCarriesTheAnswer(t *testing.T) {
	call := func(args string) string {
		return "Thought: the first alarm is 07:00.\nAction: say it.\n<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": " + args + "}\n</tool_call>"
	}
	a, _, _ := newActivities(t, call(`{"action": "answer", "text": "07:00"}`), call(`{"action": "terminate", "status": "success"}`))
	a.Exec.Protocol = autoglm.ProtocolMobileUse
	first, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "What time is the first alarm?", Think: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := first.Think.Response; r == nil || r.Action.Name != autoglm.ActionNote || r.Action.Message != "07:00" {
		t.Fatalf("first think = %+v, want the answer as a note", first.Think)
	}
	next, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "What time is the first alarm?", Think: true,
		HistoryRef: first.Think.HistoryRef, Notes: []string{"Noted: 07:00"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := next.Think.Response; r == nil || r.Action.Name != autoglm.ActionFinish || r.Action.Message != "07:00" {
		t.Fatalf("second think = %+v, want finish with the answered value", next.Think)
	}
	// The turn is kept as the model wrote it.
	if turns := historyOf(t, a, next.Think.HistoryRef); !strings.Contains(turns[1].Assistant, `"terminate"`) {
		t.Fatalf("kept turn %q", turns[1].Assistant)
	}
}
