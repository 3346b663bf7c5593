package modelserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// screen writes an executor request text for a task on an element list.
func screen(task, app, prevAction, prevResult string, elems ...uitree.Listed) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n", task)
	if app != "" {
		fmt.Fprintf(&b, "Current app: %s (%s)\n", app, packageOf(app))
	}
	if prevAction != "" {
		fmt.Fprintf(&b, "Previous action: %s\nPrevious action result: %s\n", prevAction, prevResult)
	}
	b.WriteString("Screen: normal\n" + uitree.ListHeader)
	for i, l := range elems {
		l.Index = i + 1
		b.WriteString("\n" + l.String())
	}
	return b.String()
}

func withNotes(text string, notes ...string) string {
	return strings.Replace(text, uitree.ListHeader, "Notes:\n- "+strings.Join(notes, "\n- ")+"\n"+uitree.ListHeader, 1)
}

func el(class, text string, x, y int, opts ...string) uitree.Listed {
	l := uitree.Listed{Class: class, Text: text, At: [2]int{x, y}}
	for _, o := range opts {
		switch {
		case o == "clickable":
			l.Clickable = true
		case o == "focused":
			l.Focused = true
		case o == "on", o == "off":
			l.Checkable, l.Checked = true, o == "on"
		case strings.HasPrefix(o, "id="):
			l.ID = o[3:]
		case strings.HasPrefix(o, "desc="):
			l.Desc = o[5:]
		}
	}
	return l
}

// answer runs the persona on one request (with earlier assistant turns) and
// checks that what it says parses with the protocol parser.
func answer(t *testing.T, text string, earlier ...string) autoglm.Action {
	t.Helper()
	var msgs []message
	msgs = append(msgs, message{Role: "system", Text: "You operate a phone."})
	for _, e := range earlier {
		msgs = append(msgs, message{Role: "user", Text: "Task: earlier"}, message{Role: "assistant", Text: "<think>x</think><answer>" + e + "</answer>"})
	}
	msgs = append(msgs, message{Role: "user", Text: text, Images: 1})
	st := decide(msgs, false)
	raw := "<think>" + st.think + "</think><answer>" + st.action + "</answer>"
	resp, err := autoglm.Parse(raw)
	if err != nil {
		t.Fatalf("persona answer does not parse: %v\n%s", err, raw)
	}
	return resp.Action
}

var launcher = []uitree.Listed{
	el("TextView", "Settings", 125, 330, "clickable", "desc=Settings"),
	el("TextView", "Messages", 625, 330, "clickable", "desc=Messages"),
	el("TextView", "Bank", 375, 470, "clickable", "desc=Bank"),
}

var settingsList = []uitree.Listed{
	el("TextView", "Settings", 500, 60),
	el("Switch", "Wi-Fi", 500, 142, "clickable", "on", "id=wifi_switch"),
	el("Switch", "Bluetooth", 500, 217, "clickable", "off", "id=bluetooth_switch"),
	el("Switch", "Airplane mode", 500, 292, "clickable", "off", "id=airplane_switch"),
	el("TextView", "Brightness 50%", 300, 367, "id=brightness_value"),
	el("Button", "-", 735, 367, "clickable", "id=brightness_down"),
	el("Button", "+", 888, 367, "clickable", "id=brightness_up"),
	el("TextView", "Display", 500, 442, "clickable"),
}

func TestPersonaSteps(t *testing.T) {
	for _, c := range []struct {
		name    string
		text    string
		earlier []string
		want    string
	}{
		{"launch from launcher", screen("Turn off Wi-Fi", "Launcher", "", "", launcher...), nil,
			`do(action="Launch", app="Settings")`},
		{"toggle", screen("Turn off Wi-Fi", "Settings", "", "", settingsList...), nil,
			`do(action="Tap", element=[500,142])`},
		{"already in state", screen("Turn off Bluetooth", "Settings", "", "", settingsList...), nil,
			`finish(message="Bluetooth is off")`},
		{"brightness up one step", screen("Increase the brightness", "Settings", "", "", settingsList...), nil,
			`do(action="Tap", element=[888,367])`},
		{"brightness stepped", screen("Increase the brightness", "Settings", `do(action="Tap", element=[888,367])`, "ok", settingsList...),
			[]string{`do(action="Tap", element=[888,367])`}, `finish(message="Brightness is 50%")`},
		{"failed launch goes home", screen("Open Messages", "Settings", `do(action="Launch", app="Messages")`, `app not found: "Messages"`, settingsList...),
			[]string{`do(action="Launch", app="Messages")`}, `do(action="Home")`},
		{"then taps the icon", screen("Open Messages", "Launcher", `do(action="Home")`, "ok", launcher...),
			[]string{`do(action="Launch", app="Messages")`, `do(action="Home")`}, `do(action="Tap", element=[625,330])`},
		{"no icon: give up", screen("Open WeChat", "Launcher", `do(action="Launch", app="WeChat")`, `app not found: "WeChat" (did you mean: Messages)`, launcher...),
			[]string{`do(action="Launch", app="WeChat")`}, `finish(message="Could not open WeChat: app not found: \"WeChat\" (did you mean: Messages)")`},
		{"scroll for About phone", screen("Read the Android version", "Settings", "", "", settingsList...), nil,
			`do(action="Swipe", start=[500,750], end=[500,250])`},
		{"scroll bounded", screen("Read the Android version", "Settings", `do(action="Swipe", start=[500,750], end=[500,250])`, "ok", settingsList...),
			strings.Split(strings.Repeat(`do(action="Swipe", start=[500,750], end=[500,250])|`, maxScrolls-1)+`do(action="Swipe", start=[500,750], end=[500,250])`, "|"),
			`do(action="Back")`},
		{"wait first", screen("Wait 40 seconds, then turn off Wi-Fi", "Launcher", "", "", launcher...), nil,
			`do(action="Wait", duration="40s")`},
		{"then the rest", screen("Wait 40 seconds, then turn off Wi-Fi", "Settings", `do(action="Wait", duration="40s")`, "waited 40s", settingsList...),
			[]string{`do(action="Wait", duration="40s")`}, `do(action="Note", message="Done 1/2: Waited 40s")`},
		{"only a wait", screen("Wait 20 minutes", "Launcher", `do(action="Wait", duration="20m0s")`, "waited 20m0s", launcher...),
			[]string{`do(action="Wait", duration="20m0s")`}, `finish(message="Waited 20m0s")`},
		{"bank takes over", screen("Sign in to the bank", "Bank", "", "", el("Button", "Sign in", 500, 600, "clickable")), nil,
			`do(action="Take_over", message="Please sign in to the bank app yourself")`},
		{"after take over", screen("Sign in to the bank", "Bank", `do(action="Take_over", message="Please sign in to the bank app yourself")`, "ok", el("Button", "Sign in", 500, 600, "clickable")),
			[]string{`do(action="Take_over", message="Please sign in to the bank app yourself")`}, `finish(message="The user took over the bank app")`},
		{"sensitive sign in tap", screen("Tap Sign in in the Bank app", "Bank", "", "", el("Button", "Sign in", 500, 600, "clickable")), nil,
			`do(action="Tap", element=[500,600], message="Signing in to the bank app needs your approval")`},
		{"sign in tapped", screen("Tap Sign in in the Bank app", "Bank", `do(action="Tap", element=[500,600], message="Signing in to the bank app needs your approval")`, "ok",
			el("TextView", "Sign in", 500, 60), el("TextView", "Enter your password", 500, 200), el("EditText", "Password", 500, 320, "clickable")),
			[]string{`do(action="Tap", element=[500,600], message="Signing in to the bank app needs your approval")`}, `finish(message="Tapped Sign in")`},
		{"sensitive delete tap", screen("Tap Delete", "Notes", "", "", el("Button", "Delete", 500, 900, "clickable")), nil,
			`do(action="Tap", element=[500,900], message="Tapping \"Delete\" deletes data: approval needed")`},
		{"chinese contact by desc", screen("给张三发消息说你好", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"),
			el("TextView", "Zhang San", 500, 292, "clickable", "desc=张三"), el("Button", "Start chat", 500, 937, "clickable")), nil,
			`do(action="Tap", element=[500,292])`},
		{"wrong conversation", screen("Send Bob a message saying hi", "Messages", "", "",
			el("TextView", "Alice Chen", 500, 60), el("EditText", "", 390, 883, "clickable", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button")), nil,
			`do(action="Back")`},
		{"focused field gets typed", screen("Send Bob a message saying hi", "Messages", "", "",
			el("TextView", "Bob Li", 500, 60), el("EditText", "", 390, 883, "clickable", "focused", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button")), nil,
			`do(action="Type", text="hi")`},
		// An earlier todo typed the text and ran out of steps; this one
		// tapped Send, then flicked a banner away: the field is empty and
		// the message shows, so it is sent, not typed again.
		{"sent text an earlier todo typed", screen("Send Bob a message saying hi", "Messages", `do(action="Swipe", start=[500,88], end=[500,28])`, "ok",
			el("TextView", "Bob Li", 500, 60), el("TextView", "hi", 600, 500, "desc=Sent"),
			el("EditText", "", 390, 883, "clickable", "focused", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button")),
			[]string{`do(action="Tap", element=[879,883])`, `do(action="Swipe", start=[500,88], end=[500,28])`},
			`finish(message="Sent \"hi\" to Bob")`},
		{"start chat when no conversation", screen("Send Mom a message saying hi", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"), el("Button", "Start chat", 500, 937, "clickable")), nil,
			`do(action="Tap", element=[500,937])`},
		// A todo without the words opens the conversation, then asks;
		// the answer (a note) is what it types; no answer ends it.
		{"missing text asked in the conversation", screen("Send a message to Bob", "Messages", "", "",
			el("TextView", "Bob Li", 500, 60), el("EditText", "", 390, 883, "clickable", "focused", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button")), nil,
			`do(action="Interact", message="What should the message to Bob say?")`},
		{"missing text answered by the planner", withNotes(screen("Send a message to Bob", "Messages", `do(action="Interact", message="What should the message to Bob say?")`, "the planner answered: see you at 8",
			el("TextView", "Bob Li", 500, 60), el("EditText", "", 390, 883, "clickable", "focused", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button")), "Planner: see you at 8"),
			[]string{`do(action="Interact", message="What should the message to Bob say?")`}, `do(action="Type", text="see you at 8")`},
		{"missing text answered by the person", withNotes(screen("Send a message to Bob", "Messages", `do(action="Type", text="ok then")`, "ok",
			el("TextView", "Bob Li", 500, 60), el("EditText", "ok then", 390, 883, "clickable", "focused", "id=compose_message_text", "desc=Text message"),
			el("Button", "Send", 879, 883, "clickable", "id=send_button")), "User: ok then"),
			[]string{`do(action="Interact", message="What should the message to Bob say?")`, `do(action="Type", text="ok then")`}, `do(action="Tap", element=[879,883])`},
		{"missing text not answered", screen("Send a message to Bob", "Messages", `do(action="Interact", message="What should the message to Bob say?")`, "ok",
			el("TextView", "Bob Li", 500, 60)),
			[]string{`do(action="Interact", message="What should the message to Bob say?")`},
			`finish(message="Cannot send the message: the task does not say what it should say")`},
		{"missing recipient asked at once", screen(`Send the message "on my way"`, "Launcher", "", "", launcher...), nil,
			`do(action="Interact", message="Who should I send the message \"on my way\" to?")`},
		{"no such contact and no words", screen("Send a message to Carol", "Messages", "", "",
			el("TextView", "New conversation", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable")), nil,
			`do(action="Interact", message="There is no contact named Carol on this phone, and the task does not say what to write. What should I do?")`},
		{"failed action not repeated", screen("Tap Display", "Settings", `do(action="Tap", element=[500,442])`, "error: input failed", settingsList...),
			[]string{`do(action="Tap", element=[500,442])`}, `do(action="Back")`},
		{"unknown task", screen("Order a pizza", "Launcher", "", "", launcher...), nil,
			`finish(message="Cannot do \"Order a pizza\": no app on this phone (Settings, Contacts, Messages, Clock, Notes, Bank) does it")`},
		{"stuck note", withNotes(screen("Turn off Wi-Fi", "Settings", `do(action="Tap", element=[500,142])`, "ok", settingsList...),
			"You seem stuck: the screen did not change or you repeated the same action. Try something different."),
			[]string{`do(action="Tap", element=[500,142])`}, `do(action="Back")`},
		{"finish now note", withNotes(screen("Turn off Wi-Fi", "Settings", "", "", settingsList...),
			"You have spent 30 turns on this subtask. Finish now with finish(message=...) describing what you achieved, or use Take_over to ask the user."),
			nil, `finish(message="Stopped before \"Turn off Wi-Fi\" was done: too many turns")`},
		{"single-loop progress from notes", withNotes(screen("Read the time of the first alarm in Clock and then send it to Alice", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"), el("Button", "Start chat", 500, 937, "clickable")),
			"Noted: Done 1/2: 07:00"), nil, `do(action="Tap", element=[500,142])`},
		{"take over answered", screen("Sign in to the bank", "Bank", `do(action="Take_over", message="Please sign in to the bank app yourself")`, "user answered: done",
			el("Button", "Sign in", 500, 600, "clickable")), nil, `finish(message="The user took over the bank app")`},
		{"no task", "Current app: Launcher (com.android.launcher3)", nil, `finish(message="No task given")`},
		{"latest message: open the conversation", screen("Read the latest message from Bob Li in Messages", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"), el("TextView", "Bob Li", 500, 242, "clickable")),
			nil, `do(action="Tap", element=[500,242])`},
		{"latest message: the newest received bubble, not the newest bubble", screen("Read the latest message from Bob Li in Messages", "Messages", "", "",
			el("TextView", "Bob Li", 500, 60), el("TextView", "Lunch?", 300, 300, "desc=Received"), el("TextView", "Sent you the slides.", 300, 400, "desc=Received"),
			el("TextView", "thanks", 700, 500, "desc=Sent"),
			el("EditText", "", 390, 883, "clickable", "id=compose_message_text", "desc=Text message")),
			nil, `finish(message="Sent you the slides.")`},
		{"latest message: another conversation is open", screen("What was Alice's last message", "Messages", "", "",
			el("TextView", "Bob Li", 500, 60), el("TextView", "Lunch?", 300, 300, "desc=Received"),
			el("EditText", "", 390, 883, "clickable", "id=compose_message_text", "desc=Text message")),
			nil, `do(action="Back")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := autoglm.FormatAction(answer(t, c.text, c.earlier...))
			want, err := autoglm.Parse(c.want)
			if err != nil {
				t.Fatalf("bad want %s: %v", c.want, err)
			}
			if got != autoglm.FormatAction(want.Action) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestParseObservation(t *testing.T) {
	text := "Task: Turn on Wi-Fi\nCurrent app: Settings (com.android.settings)\nPrevious action: do(action=\"Back\")\n" +
		"Previous action result: screen did not change\nScreen: sensitive: screenshot unavailable (secure screen)\nNotes:\n- use the switch\n- hurry\n" +
		uitree.ListHeader + "\n" + settingsList[1].String()
	o := parseObservation(text)
	if o.Task != "Turn on Wi-Fi" || o.App != "Settings" || o.Package != "com.android.settings" || o.PrevAction != `do(action="Back")` ||
		o.PrevResult != "screen did not change" || !o.Sensitive || len(o.Notes) != 2 || o.Notes[1] != "hurry" || len(o.Elems) != 1 || o.Elems[0].ID != "wifi_switch" {
		t.Fatalf("parsed %+v", o)
	}
}

func TestInferApp(t *testing.T) {
	for _, c := range []struct {
		elems []uitree.Listed
		want  string
	}{
		{launcher, "Launcher"},
		{settingsList, "Settings"},
		{[]uitree.Listed{el("TextView", "Alarm", 500, 60), el("Button", "Add alarm", 500, 937, "clickable", "id=add_alarm")}, "Clock"},
		{[]uitree.Listed{el("Button", "Sign in", 500, 600, "clickable")}, "Bank"},
		{nil, ""},
	} {
		if got := inferApp(c.elems); got != c.want {
			t.Errorf("inferApp(%v) = %q, want %q", c.elems, got, c.want)
		}
	}
	// Without a Current app line the persona still sees it is in Settings.
	text := strings.Replace(screen("Turn off Wi-Fi", "", "", "", settingsList...), "Current app", "", 1)
	if got := autoglm.FormatAction(answer(t, text)); got != `do(action="Tap", element=[500,142])` {
		t.Fatalf("without Current app: %s", got)
	}
}

func FuzzDecide(f *testing.F) {
	f.Add(screen("Send Alice a message saying hi", "Messages", "", "", launcher...), `do(action="Tap", element=[1,2])`)
	f.Add(screen("Read the time of the first alarm in Clock and then send it to Alice", "Clock", "", "", el("TextView", "07:00 Wake up", 500, 142)), `do(action="Note", message="Done 1/2: 07:00")`)
	f.Add(screen("Create an alarm at 7 labelled \"x\" and then open Notes; turn on wifi", "Launcher", "do(", "oops", settingsList...), "finish(message=")
	f.Fuzz(func(t *testing.T, text, earlier string) {
		msgs := []message{{Role: "assistant", Text: earlier}, {Role: "user", Text: text}}
		st := decide(msgs, false)
		raw := "<think>" + st.think + "</think><answer>" + st.action + "</answer>"
		if _, err := autoglm.Parse(raw); err != nil {
			t.Fatalf("persona answer does not parse: %v\n%s", err, raw)
		}
	})
}

func FuzzSplitGoal(f *testing.F) {
	for _, s := range []string{"Turn on Wi-Fi and Bluetooth", "打开设置然后打开蓝牙", `Send Bob "a; b" and then open Clock`, "read it, then send it to Alice"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, goal string) {
		for _, c := range SplitGoal(goal) {
			if strings.TrimSpace(c) == "" {
				t.Fatalf("empty todo from %q", goal)
			}
		}
		_ = planGoal(planContext{Goal: goal})
	})
}
