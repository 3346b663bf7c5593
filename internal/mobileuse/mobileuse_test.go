package mobileuse

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestParseActions(t *testing.T) {
	px := autoglm.Frame{W: 1092, H: 2408}
	rel := autoglm.Frame{Relative: true, Scale: RelativeScale}
	call := func(args string) string {
		return "Thought: next.\nAction: do it.\n<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": " + args + "}\n</tool_call>"
	}
	for _, c := range []struct {
		answer string
		f      autoglm.Frame
		want   string
	}{
		{call(`{"action": "click", "coordinate": [546, 1204]}`), px, `do(action="Tap", element=[500,500])`},
		{call(`{"action": "click", "coordinate": [499, 999]}`), rel, `do(action="Tap", element=[499,999])`},
		{call(`{"action": "long_press", "coordinate": [100, 100], "time": 2}`), rel, `do(action="Long Press", element=[100,100])`},
		{call(`{"action": "swipe", "coordinate": [500, 800], "coordinate2": [500, 200]}`), rel, `do(action="Swipe", start=[501,801], end=[501,200])`},
		{call(`{"action": "type", "text": "hi"}`), rel, `do(action="Type", text="hi")`},
		{call(`{"action": "open", "text": "Settings"}`), rel, `do(action="Launch", app="Settings")`},
		{call(`{"action": "system_button", "button": "Back"}`), rel, `do(action="Back")`},
		{call(`{"action": "system_button", "button": "Home"}`), rel, `do(action="Home")`},
		{call(`{"action": "wait", "time": 2}`), rel, `do(action="Wait", duration="2 seconds")`},
		{call(`{"action": "answer", "text": "3 alarms"}`), rel, `do(action="Note", message="3 alarms")`},
		{call(`{"action": "terminate", "status": "success"}`), rel, `finish(message="success")`},
		{call(`{"action": "terminate", "status": ["success"]}`), rel, `finish(message="success")`},
		{call(`"{\"action\": \"click\", \"coordinate\": [10, 10]}"`), rel, `do(action="Tap", element=[10,10])`},
		{call(`{"action": "swipe", "direction": "up"}`), rel, `do(action="Swipe", start=[500,700], end=[500,300])`},
		{call(`{"action": "drag", "start_coordinate": [100, 100], "end_coordinate": [100, 500]}`), rel, `do(action="Swipe", start=[100,100], end=[100,501])`},
		{call(`{"action": "click", "coordinate": [100, 100, 300, 300]}`), rel, `do(action="Tap", element=[200,200])`},
		{call(`{"action": "system_button", "button": "back"}`), rel, `do(action="Back")`},
		{call(`{"action": "terminate", "status": "fail"}`), rel, `finish(message="failure: the task could not be completed")`},
		{call(`{"action": "AWAKE", "text": "WeChat"}`), rel, `do(action="Launch", app="WeChat")`},
		{call(`{"action": "ask_user", "text": "Which account?"}`), rel, `do(action="Take_over", message="Which account?")`},
		{"<thinking>x</thinking>\n<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": \"click\", \"coordinate\": [10, 10]}}", rel, `do(action="Tap", element=[10,10])`},
	} {
		got, err := Parse(c.answer, c.f)
		if err != nil {
			t.Errorf("%q: %v", c.answer, err)
			continue
		}
		if g := autoglm.FormatAction(got.Action); g != c.want {
			t.Errorf("%q: %s, want %s", c.answer, g, c.want)
		}
	}
	for _, c := range []struct{ answer, reason string }{
		{call(`{"action": "key", "text": "volume_up"}`), "no phone action"},
		{call(`{"action": "click", "coordinate": [1200, 10]}`), "outside the 1092x2408 image"},
		{call(`{"action": "terminate"}`), "success"},
		{"<tool_call>{\"name\": \"computer_use\", \"arguments\": {}}</tool_call>", "only function is mobile_use"},
		{"I will click.", "no action found"},
	} {
		_, err := Parse(c.answer, px)
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%q: %v, want %q", c.answer, err, c.reason)
		}
	}
}

func TestRequestLayout(t *testing.T) {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 1080, 2400)))
	cfg := autoglm.DefaultConfig()
	cfg.Protocol, cfg.Format, cfg.MaxPixels = autoglm.ProtocolMobileUse, "png", autoglm.FullSize
	in := autoglm.StepInput{Task: "Open Settings", Screenshot: b.Bytes(), Width: 1080, Height: 2400,
		History: []autoglm.Turn{{Assistant: "Thought: x\nAction: \"I opened the \"app\" drawer.\"\n<tool_call>\n{}\n</tool_call>"}}}
	msgs, err := BuildMessages(cfg, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0].Text, "The screen's resolution is 1092x2408.") || !strings.Contains(msgs[0].Text, "<tools>\n{") {
		t.Fatalf("system %q", msgs[0].Text)
	}
	if want := "The user query: Open Settings.\nTask progress (You have done the following operation on the current device): Step 1: I opened the app drawer.; .\n"; msgs[1].Text != want {
		t.Fatalf("user %q, want %q", msgs[1].Text, want)
	}
	if len(msgs[1].Images) != 1 || msgs[1].ImagesFirst {
		t.Fatal("the screenshot goes after the text")
	}
	cfg.Coordinates = autoglm.CoordsRelative
	msgs, _ = BuildMessages(cfg, in)
	if !strings.Contains(msgs[0].Text, "999x999") {
		t.Fatal("relative frame not declared as 999x999")
	}
	var tool map[string]any
	s := msgs[0].Text
	if err := json.Unmarshal([]byte(s[strings.Index(s, "<tools>\n")+8:strings.Index(s, "\n</tools>")]), &tool); err != nil {
		t.Fatalf("tool declaration is not JSON: %v", err)
	}
}
