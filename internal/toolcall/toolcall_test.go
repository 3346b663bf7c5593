package toolcall

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

func TestParseCalls(t *testing.T) {
	elems := []uitree.Listed{{Index: 1, Text: "Wi-Fi", At: [2]int{500, 217}}, {Index: 2, Text: "Bluetooth", At: [2]int{500, 300}}}
	for _, c := range []struct {
		call llm.ToolCall
		want string
	}{
		{llm.ToolCall{Name: "tap", Arguments: `{"element": 2}`}, `do(action="Tap", element=[500,300])`},
		{llm.ToolCall{Name: "tap", Arguments: `{"x": 10, "y": 990}`}, `do(action="Tap", element=[10,990])`},
		{llm.ToolCall{Name: "tap", Arguments: `{"element": 1, "message": "pays 5 EUR"}`}, `do(action="Tap", element=[500,217], message="pays 5 EUR")`},
		{llm.ToolCall{Name: "swipe", Arguments: `{"direction": "down"}`}, `do(action="Swipe", start=[500,700], end=[500,300])`},
		{llm.ToolCall{Name: "type_text", Arguments: `{"text": "hi"}`}, `do(action="Type", text="hi")`},
		{llm.ToolCall{Name: "launch_app", Arguments: `{"app": "Settings"}`}, `do(action="Launch", app="Settings")`},
		{llm.ToolCall{Name: "back", Arguments: ``}, `do(action="Back")`},
		{llm.ToolCall{Name: "wait", Arguments: `{"seconds": 2}`}, `do(action="Wait", duration="2 seconds")`},
		{llm.ToolCall{Name: "finish", Arguments: `{"message": "done"}`}, `finish(message="done")`},
	} {
		got, err := Parse([]llm.ToolCall{c.call}, elems)
		if err != nil {
			t.Errorf("%+v: %v", c.call, err)
			continue
		}
		if g := autoglm.FormatAction(got.Action); g != c.want {
			t.Errorf("%+v: %s, want %s", c.call, g, c.want)
		}
	}
	for _, c := range []struct {
		calls  []llm.ToolCall
		reason string
	}{
		{nil, "no tool call"},
		{[]llm.ToolCall{{Name: "tap", Arguments: `{"element": 9}`}}, "not in the UI element list"},
		{[]llm.ToolCall{{Name: "tap", Arguments: `{"x": 1200, "y": 5}`}}, "from 0 to 999"},
		{[]llm.ToolCall{{Name: "tap", Arguments: `{"element": 1}`}, {Name: "back"}}, "two different actions"},
		{[]llm.ToolCall{{Name: "screenshot"}}, "not one of the phone's functions"},
	} {
		if _, err := Parse(c.calls, elems); err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%+v: %v, want %q", c.calls, err, c.reason)
		}
	}
	if len(Tools()) != 12 {
		t.Fatalf("%d tools", len(Tools()))
	}
}
