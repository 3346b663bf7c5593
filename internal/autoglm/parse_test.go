package autoglm

import (
	"errors"
	"strings"
	"testing"
)

func pt(x, y int) *Point { return &Point{x, y} }

func TestParseAccepts(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		thinking string
		want     Action
	}{
		{"autoglm launch",
			`<think>The user wants Settings; I am on the home screen, so launch it.</think><answer>do(action="Launch", app="Settings")</answer>`,
			"The user wants Settings; I am on the home screen, so launch it.", Action{Name: ActionLaunch, App: "Settings"}},
		{"autoglm tap with newlines",
			"<think>\nWi-Fi switch is at the top.\n</think>\n<answer>do(action=\"Tap\", element=[500,212])</answer>\n",
			"Wi-Fi switch is at the top.", Action{Name: ActionTap, Element: pt(500, 212)}},
		{"sensitive tap",
			`<think>Pay button.</think><answer>do(action="Tap", element=[820,930], message="Confirm payment of ¥20")</answer>`,
			"Pay button.", Action{Name: ActionTap, Element: pt(820, 930), Message: "Confirm payment of ¥20"}},
		{"type chinese text keeps its punctuation",
			`<think>输入消息</think><answer>do(action="Type", text="会议改到下午2点，请知悉。")</answer>`,
			"输入消息", Action{Name: ActionType, Text: "会议改到下午2点，请知悉。"}},
		{"type_name", `<answer>do(action="Type_Name", text="张三")</answer>`, "", Action{Name: ActionTypeName, Text: "张三"}},
		{"swipe", `<think>Scroll down.</think><answer>do(action="Swipe", start=[500,800], end=[500,200])</answer>`,
			"Scroll down.", Action{Name: ActionSwipe, Start: pt(500, 800), End: pt(500, 200)}},
		{"long press spelled with space", `<answer>do(action="Long Press", element=[100,900])</answer>`, "", Action{Name: ActionLongPress, Element: pt(100, 900)}},
		{"long press spelled with underscore", `do(action="Long_Press", element=[100,900])`, "", Action{Name: ActionLongPress, Element: pt(100, 900)}},
		{"double tap", `<answer>do(action="Double Tap", element=[5,6])</answer>`, "", Action{Name: ActionDoubleTap, Element: pt(5, 6)}},
		{"back", `<think>Wrong page.</think><answer>do(action="Back")</answer>`, "Wrong page.", Action{Name: ActionBack}},
		{"home", `<answer>do(action="Home")</answer>`, "", Action{Name: ActionHome}},
		{"wait", `<answer>do(action="Wait", duration="2 seconds")</answer>`, "", Action{Name: ActionWait, Duration: "2 seconds"}},
		{"take over", `<think>Login needs a password.</think><answer>do(action="Take_over", message="Please log in")</answer>`,
			"Login needs a password.", Action{Name: ActionTakeOver, Message: "Please log in"}},
		{"interact", `<answer>do(action="Interact")</answer>`, "", Action{Name: ActionInteract}},
		{"interact asks in words", `<answer>do(action="Interact", message="What should the message to Bob say?")</answer>`, "", Action{Name: ActionInteract, Message: "What should the message to Bob say?"}},
		{"note", `<answer>do(action="Note", message="price is 12.50")</answer>`, "", Action{Name: ActionNote, Message: "price is 12.50"}},
		{"call api", `<answer>do(action="Call_API", instruction="summarise the notes")</answer>`, "", Action{Name: ActionCallAPI, Instruction: "summarise the notes"}},
		{"finish", `<think>Wi-Fi is on.</think><answer>finish(message="Wi-Fi is on")</answer>`, "Wi-Fi is on.", Action{Name: ActionFinish, Message: "Wi-Fi is on"}},
		{"finish via do", `do(action="finish", message="done")`, "", Action{Name: ActionFinish, Message: "done"}},
		{"finish positional", `finish("All set")`, "", Action{Name: ActionFinish, Message: "All set"}},
		{"finish empty", `<answer>finish()</answer>`, "", Action{Name: ActionFinish}},
		// GPT-4o style: plain reasoning, fenced action, no tags.
		{"gpt-4o fenced",
			"I can see the Settings app icon on the home screen. I'll open it.\n\n```python\ndo(action=\"Tap\", element=[250, 430])\n```",
			"I can see the Settings app icon on the home screen. I'll open it.", Action{Name: ActionTap, Element: pt(250, 430)}},
		// Claude style: reasoning then an answer tag, single quotes.
		{"claude single quotes",
			"The Bluetooth toggle is visible.\n\n<answer>do(action='Tap', element=[500, 318])</answer>",
			"The Bluetooth toggle is visible.", Action{Name: ActionTap, Element: pt(500, 318)}},
		// GLM-4.6V style box wrapper.
		{"glm box", `<think>Open the Clock app.</think><answer><|begin_of_box|>do(action="Launch", app="Clock")<|end_of_box|></answer>`,
			"Open the Clock app.", Action{Name: ActionLaunch, App: "Clock"}},
		{"stray closing answer", `Tap Wi-Fi. do(action="Tap", element=[500,212])</answer>`, "Tap Wi-Fi.", Action{Name: ActionTap, Element: pt(500, 212)}},
		{"closing think without opening", `The toggle is off.</think><answer>do(action="Tap", element=[900,212])</answer>`,
			"The toggle is off.", Action{Name: ActionTap, Element: pt(900, 212)}},
		{"chinese quotes and fullwidth punctuation", `<answer>do（action=“Launch”，app=“微信”）</answer>`, "", Action{Name: ActionLaunch, App: "微信"}},
		{"fullwidth brackets", `do(action="Tap", element=［120，340］)`, "", Action{Name: ActionTap, Element: pt(120, 340)}},
		{"extra whitespace", "do( action = \"Tap\" ,  element = [ 500 , 300 ] )", "", Action{Name: ActionTap, Element: pt(500, 300)}},
		{"multi-line call", "do(action=\"Swipe\",\n   start=[500,800],\n   end=[500,200])", "", Action{Name: ActionSwipe, Start: pt(500, 800), End: pt(500, 200)}},
		{"quoted coordinates", `do(action="Tap", element="[10,20]")`, "", Action{Name: ActionTap, Element: pt(10, 20)}},
		{"missing closing paren", `<answer>do(action="Back"</answer>`, "", Action{Name: ActionBack}},
		{"unquoted action", `do(action=Home)`, "", Action{Name: ActionHome}},
		{"action label stripped", "Reasoning here.\nAction: do(action=\"Home\")", "Reasoning here.", Action{Name: ActionHome}},
		{"calls inside thinking are reasoning",
			`<think>I could do(action="Back") but Home is better.</think><answer>do(action="Home")</answer>`,
			`I could do(action="Back") but Home is better.`, Action{Name: ActionHome}},
		{"tagged action wins over prose",
			`Last time do(action="Back") failed, and the format do(action="Tap", element=[x,y]) needs numbers. <answer>do(action="Home")</answer>`,
			`Last time do(action="Back") failed, and the format do(action="Tap", element=[x,y]) needs numbers.`, Action{Name: ActionHome}},
		{"same action twice", "<answer>do(action=\"Back\")</answer>\n```\ndo(action=\"Back\")\n```", "", Action{Name: ActionBack}},
		{"inner quotes survive", `do(action="Type", text="He said "hi" to me")`, "", Action{Name: ActionType, Text: `He said "hi" to me`}},
		{"escaped quotes", `do(action="Type", text="a \"b\" c\\d\nline")`, "", Action{Name: ActionType, Text: "a \"b\" c\\d\nline"}},
		{"comma inside text", `do(action="Type", text="Hi, see you at 2pm, ok")`, "", Action{Name: ActionType, Text: "Hi, see you at 2pm, ok"}},
		{"prose do with parenthesis ignored", `Not sure what to do (yet). do(action="Wait", duration="1 seconds")`,
			"Not sure what to do (yet).", Action{Name: ActionWait, Duration: "1 seconds"}},
		{"click alias", `do(action="click", element=[1,2])`, "", Action{Name: ActionTap, Element: pt(1, 2)}},
		{"float coordinates", `do(action="Tap", element=[500.4, 299.6])`, "", Action{Name: ActionTap, Element: pt(500, 300)}},
		{"edges of the grid", `do(action="Swipe", start=[0,0], end=[999,999])`, "", Action{Name: ActionSwipe, Start: pt(0, 0), End: pt(999, 999)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.in, err)
			}
			if !sameAction(got.Action, tc.want) {
				t.Errorf("action = %s, want %s", FormatAction(got.Action), FormatAction(tc.want))
			}
			if got.Thinking != tc.thinking {
				t.Errorf("thinking = %q, want %q", got.Thinking, tc.thinking)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	cases := []struct{ name, in, reason string }{
		{"empty", "", "no action found"},
		{"prose only", "I think the task is complete.", "no action found"},
		{"tags without action", "<think>hmm</think><answer>I will tap Wi-Fi</answer>", "no action found"},
		{"placeholder", `do(action="Tap", element=[x,y])`, "placeholder"},
		{"placeholder with spaces", `<answer>do(action="Tap", element=[x, y])</answer>`, "placeholder"},
		{"out of range", `do(action="Tap", element=[1200,300])`, "outside 0-999"},
		{"negative", `do(action="Tap", element=[-5,300])`, "outside 0-999"},
		{"one coordinate", `do(action="Tap", element=[500])`, "two coordinates"},
		{"missing element", `do(action="Tap")`, "needs element"},
		{"swipe missing end", `do(action="Swipe", start=[1,2])`, "needs end"},
		{"launch without app", `do(action="Launch")`, "Launch needs app"},
		{"type without text", `do(action="Type")`, "needs text"},
		{"unknown action", `do(action="Fly", element=[1,2])`, `unknown action "Fly"`},
		{"two different actions", `do(action="Back") or maybe do(action="Home")`, "two different actions"},
		{"two different tagged actions", `<answer>do(action="Back")</answer><answer>do(action="Home")</answer>`, "two different actions"},
		{"bad tagged action beside prose action", `do(action="Back") <answer>do(action="Tap", element=[x,y])</answer>`, "placeholder"},
		{"prose with two actions", `First do(action="Tap", element=[1,2]) then do(action="Tap", element=[3,4])`, "two different actions"},
		{"unterminated string", `do(action="Type", text="hello`, "unterminated string"},
		{"no action key", `do(element=[1,2])`, "no action found"},
		{"garbage between args", `do(action="Tap" element=[1,2])`, "separate arguments with commas"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %+v, %v; want *ParseError", tc.in, got, err)
			}
			if pe.Raw != tc.in {
				t.Errorf("Raw = %q, want the input", pe.Raw)
			}
			if !strings.Contains(pe.Reason, tc.reason) {
				t.Errorf("reason = %q, want it to mention %q", pe.Reason, tc.reason)
			}
			if !strings.Contains(pe.Feedback(), pe.Reason) || !strings.Contains(pe.Feedback(), "<answer>") {
				t.Errorf("feedback = %q", pe.Feedback())
			}
		})
	}
}

func TestFormatRoundTrip(t *testing.T) {
	acts := []Action{
		{Name: ActionLaunch, App: "设置"},
		{Name: ActionTap, Element: pt(0, 999)},
		{Name: ActionTap, Element: pt(3, 4), Message: `pay "now"`},
		{Name: ActionType, Text: "line1\nline2\t\\ “quoted” ‘x’ 「y」, ) ("},
		{Name: ActionType, Text: ""},
		{Name: ActionTypeName, Text: "Zhang San"},
		{Name: ActionSwipe, Start: pt(1, 2), End: pt(3, 4)},
		{Name: ActionLongPress, Element: pt(5, 6)},
		{Name: ActionDoubleTap, Element: pt(7, 8)},
		{Name: ActionBack}, {Name: ActionHome}, {Name: ActionInteract},
		{Name: ActionWait, Duration: "2 seconds"}, {Name: ActionWait},
		{Name: ActionTakeOver, Message: "log in"}, {Name: ActionNote, Message: "n"},
		{Name: ActionCallAPI, Instruction: "sum"},
		{Name: ActionFinish, Message: "done </answer> </think>"},
		{Name: ActionFinish},
	}
	for _, a := range acts {
		s := FormatAction(a)
		got, err := Parse("<think>x</think><answer>" + s + "</answer>")
		if err != nil {
			t.Errorf("Parse(FormatAction(%+v) = %s): %v", a, s, err)
			continue
		}
		if !sameAction(got.Action, a) {
			t.Errorf("round trip of %s gave %s", s, FormatAction(got.Action))
		}
	}
	if got := FormatAction(Action{Name: ActionTap, Element: pt(500, 212)}); got != `do(action="Tap", element=[500,212])` {
		t.Errorf("FormatAction = %s", got)
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		`<think>x</think><answer>do(action="Tap", element=[500,212])</answer>`,
		`do(action="Swipe", start=[1,2], end=[3,4])`,
		`finish(message="ok")`, `do（action=“Launch”，app=“微信”）`, `do(action="Type", text="a \"b\"`,
		"```\ndo(action='Back')\n```", `<|begin_of_box|>do(action="Home")<|end_of_box|>`,
		`do(action="Tap", element=[x,y])`, `do(action="Tap", element=【1，2】, message=")")`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := Parse(in)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Raw != in {
				t.Fatalf("error %v is not a *ParseError with the raw text", err)
			}
			return
		}
		s := FormatAction(r.Action)
		again, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) ok as %s, but reparse failed: %v", in, s, err)
		}
		if !sameAction(again.Action, r.Action) {
			t.Fatalf("unstable: %q -> %s -> %s", in, s, FormatAction(again.Action))
		}
	})
}

// BenchmarkParse covers a typical answer and adversarial inputs that once
// made the scanner rescan the text for every candidate call.
func BenchmarkParse(b *testing.B) {
	inputs := map[string]string{
		"typical":        `<think>The Wi-Fi switch is off; tap it.</think><answer>do(action="Tap", element=[500,212])</answer>`,
		"open-strings":   strings.Repeat(`do(action="`, 5000),
		"open-lists":     strings.Repeat(`do(action="Tap", element=[`, 2000),
		"bare-values":    strings.Repeat(`do(action=`, 6000),
		"think-failures": "<think>" + strings.Repeat(`do(action="Tap", element=[x,y]) `, 1500) + `</think>do(action="Back")`,
	}
	for name, in := range inputs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				_, _ = Parse(in)
			}
		})
	}
}

// TestSaidKeepsTheCallAsWritten checks that the replayed turn holds the
// call exactly as the model wrote it: curly quotes unescaped, arguments
// in the model's own spacing.
func TestSaidKeepsTheCallAsWritten(t *testing.T) {
	got, err := Parse("我要输入。\ndo(action=\"Type\", text=\"“你好”，我到了\")")
	if err != nil {
		t.Fatal(err)
	}
	if want := "<think>我要输入。</think><answer>do(action=\"Type\", text=\"“你好”，我到了\")</answer>"; got.Said != want {
		t.Fatalf("said %q, want %q", got.Said, want)
	}
	got, err = Parse("<think>x</think>\n<answer>do(action=\"Back\")</answer>")
	if err != nil || got.Said != `<think>x</think><answer>do(action="Back")</answer>` {
		t.Fatalf("tagged: %q, %v", got.Said, err)
	}
}
