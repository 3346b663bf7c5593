package uitars

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
)

func screenshot(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestParseActionSpace(t *testing.T) {
	px := autoglm.Frame{W: 1092, H: 2408}
	rel := autoglm.Frame{Relative: true, Scale: 1000}
	for _, c := range []struct {
		answer string
		f      autoglm.Frame
		want   string
	}{
		{"Thought: tap it\nAction: click(start_box='(546,1204)')", px, `do(action="Tap", element=[500,500])`},
		{"Action: click(point='<point>546 1204</point>')", px, `do(action="Tap", element=[500,500])`},
		{"Action: long_press(start_box='<|box_start|>(100,200)<|box_end|>')", rel, `do(action="Long Press", element=[100,200])`},
		{"Action: type(content='hello \\'you\\'\\n')", rel, `do(action="Type", text="hello \'you\'\n")`},
		{"Action: scroll(start_box='(500,500)', direction='down')", rel, `do(action="Swipe", start=[500,700], end=[500,300])`},
		{"Action: scroll(direction='right')", rel, `do(action="Swipe", start=[700,500], end=[300,500])`},
		{"Action: open_app(app_name='Settings')", rel, `do(action="Launch", app="Settings")`},
		{"Action: press_home()", rel, `do(action="Home")`},
		{"Action: press_back()", rel, `do(action="Back")`},
		{"Action: wait()", rel, `do(action="Wait", duration="5 seconds")`},
		{"Thought: done\nAction: finished(content='Wi-Fi is on')", rel, `finish(message="Wi-Fi is on")`},
		{"Action: call_user()", rel, `do(action="Take_over")`},
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
		{"Thought: x\nAction: hotkey(key='enter')", "not in the phone's action space"},
		{"Action: click(start_box='(1200,100)')", "outside the 1092x2408 image"},
		{"Action: click(start_box='(10,10)')\n\nAction: press_back()", "two different actions"},
		{"I would click the button.", "no action found"},
	} {
		_, err := Parse(c.answer, px)
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%q: %v, want %q", c.answer, err, c.reason)
		}
	}
}

// TestRequestLayout checks the request: the system message, the prompt
// with the task, earlier answers as written, the newest screenshot.
func TestRequestLayout(t *testing.T) {
	cfg := autoglm.DefaultConfig()
	cfg.Protocol, cfg.Format, cfg.MaxPixels = autoglm.ProtocolUITARS, "png", autoglm.FullSize
	in := autoglm.StepInput{Task: "Open Settings", Screenshot: screenshot(t, 108, 240), Width: 108, Height: 240,
		PreviousResult: "app not found: Foo", Notes: []string{"User: use the gear icon"},
		History: []autoglm.Turn{{User: "x", Assistant: "Thought: open it\nAction: open_app(app_name='Foo')"}}}
	msgs, err := BuildMessages(cfg, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 || msgs[0].Role != llm.RoleSystem || msgs[1].Role != llm.RoleUser || msgs[2].Role != llm.RoleAssistant || msgs[3].Role != llm.RoleUser {
		t.Fatalf("roles %v", msgs)
	}
	if !strings.Contains(msgs[1].Text, "## User Instruction\nOpen Settings") || !strings.Contains(msgs[1].Text, "Write the `Thought` part in English") {
		t.Fatalf("prompt %q", msgs[1].Text)
	}
	if msgs[2].Text != in.History[0].Assistant {
		t.Fatalf("replayed %q", msgs[2].Text)
	}
	last := msgs[3]
	if len(last.Images) != 1 || !last.ImagesFirst || !strings.Contains(last.Text, "app not found: Foo") || !strings.Contains(last.Text, "use the gear icon") {
		t.Fatalf("last %+v", last)
	}
	if f := Frame(cfg, 1080, 2400); f != (autoglm.Frame{W: 1092, H: 2408}) {
		t.Fatalf("frame %+v", f)
	}
}

// An answer relayed with its quotes backslash-escaped reads as written
// with plain quotes; a quote escaped inside such a value stays in it.
func TestParseEscapedQuotes(t *testing.T) {
	f := autoglm.Frame{Relative: true, Scale: 1000}
	for raw, want := range map[string]string{
		`Action: click(start_box=\'(500,250)\')`:                   `do(action="Tap", element=[500,250])`,
		`Action: finished(content=\'the alarm is at 07:00\')`:      `finish(message="the alarm is at 07:00")`,
		`Action: type(content=\"it\'s me\")`:                       autoglm.FormatAction(autoglm.Action{Name: autoglm.ActionType, Text: "it's me"}),
		`Action: drag(start_box=\'(1,2)\', end_box=\'(100,200)\')`: `do(action="Swipe", start=[1,2], end=[100,200])`,
	} {
		r, err := Parse(raw, f)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := autoglm.FormatAction(r.Action); got != want {
			t.Errorf("%s: %s, want %s", raw, got, want)
		}
	}
}
