package routine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The screens of the trajectories below, as the simulator's apps lay them
// out: a list of rows, an editor with fields, a Settings list of switches.
func button(text, id string, y int) uitree.Element {
	return uitree.Element{Class: "android.widget.Button", Text: text, ResourceID: "app:id/" + id, Clickable: true, Enabled: true,
		Bounds: uitree.Bounds{X1: 600, Y1: y, X2: w - 24, Y2: y + 160}}
}

func field(id, value string, y int) uitree.Element {
	return uitree.Element{Class: "android.widget.EditText", Text: value, ResourceID: "app:id/" + id, Clickable: true, Enabled: true,
		Bounds: uitree.Bounds{X1: 24, Y1: y, X2: 580, Y2: y + 160}}
}

func switchRow(label string, on bool, y int) uitree.Element {
	return uitree.Element{Class: "android.widget.Switch", Text: label, Checkable: true, Checked: on, Clickable: true, Enabled: true,
		Bounds: uitree.Bounds{X1: 0, Y1: y, X2: w, Y2: y + 180}}
}

func tapOn(elems []uitree.Element, label string) autoglm.Action {
	for _, e := range elems {
		if e.Text == label || e.Desc == label {
			x, y := e.Bounds.Center()
			return autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{uitree.Relative(x, w), uitree.Relative(y, h)}}
		}
	}
	panic("no element " + label)
}

func obs(app string, elems []uitree.Element, a autoglm.Action) Observed {
	return Observed{AppPackage: app, Elems: elems, Width: w, Height: h, Action: a}
}

// messageTrace is the trajectory of a message sent to the contact whose row
// shows contact, typing text.
func messageTrace(contact, text, finish string, names ...string) []Observed {
	list := messagesList(names...)
	conv := []uitree.Element{field("compose", "", 2000), button("Send", "send", 2000)}
	typed := []uitree.Element{field("compose", text, 2000), button("Send", "send", 2000)}
	return []Observed{
		obs("launcher", []uitree.Element{row("Messages", 600)}, autoglm.Action{Name: autoglm.ActionLaunch, App: "Messages"}),
		obs("msg", list, tapOn(list, contact)),
		obs("msg", conv, tapOn(conv, "")),
		obs("msg", conv, autoglm.Action{Name: autoglm.ActionType, Text: text}),
		obs("msg", typed, tapOn(typed, "Send")),
		obs("msg", conv, autoglm.Action{Name: autoglm.ActionFinish, Message: finish}),
	}
}

func alarmTrace(typed, finish string) []Observed {
	list := []uitree.Element{button("Add alarm", "add_alarm", 2100)}
	form := []uitree.Element{field("alarm_time", "", 300), button("Save", "save", 2100)}
	filled := []uitree.Element{field("alarm_time", typed, 300), button("Save", "save", 2100)}
	return []Observed{
		obs("launcher", []uitree.Element{row("Clock", 600)}, autoglm.Action{Name: autoglm.ActionLaunch, App: "Clock"}),
		obs("clock", list, tapOn(list, "Add alarm")),
		obs("clock", form, tapOn(form, "")),
		obs("clock", form, autoglm.Action{Name: autoglm.ActionType, Text: typed}),
		obs("clock", filled, tapOn(filled, "Save")),
		obs("clock", list, autoglm.Action{Name: autoglm.ActionFinish, Message: finish}),
	}
}

func learned(todo string, trace []Observed) Routine {
	task, steps := Learn(todo, trace)
	return Routine{Version: Version, ID: "r-" + strings.Repeat("a", 12), Key: Key{Template: task.Template}, Params: task.Params, Steps: steps}
}

// replays matches todo against r and returns the plan, failing when it
// does not match.
func replays(t *testing.T, r Routine, todo string) []ReplayStep {
	t.Helper()
	m, ok, why := Match(todo, []Routine{r})
	if !ok {
		t.Fatalf("%q does not match %q: %s", todo, r.Key.Template, why)
	}
	return Plan(m.Routine, m.Task)
}

func noReplay(t *testing.T, rs []Routine, todo string) string {
	t.Helper()
	if m, ok, _ := Match(todo, rs); ok {
		t.Fatalf("%q matched %q with %+v: it must not replay", todo, m.Routine.Key.Template, m.Task.Params)
	}
	_, _, why := Match(todo, rs)
	return why
}

func typedIn(plan []ReplayStep) []string {
	var out []string
	for _, p := range plan {
		if p.Action.Name == autoglm.ActionType {
			out = append(out, p.Action.Text)
		}
	}
	return out
}

func TestLearnUnquotedMessage(t *testing.T) {
	r := learned("Send Bob Li a message saying routine one",
		messageTrace("Bob Li", "routine one", `Sent "routine one" to Bob Li`, "Alice Chen", "Bob Li", "Mom"))
	if r.Key.Template != "send {1} a message saying {2}" {
		t.Fatalf("template %q", r.Key.Template)
	}
	want := []Param{{Kind: KindLabel, Value: "Bob Li"}, {Kind: KindTyped, Value: "routine one"}}
	if !reflect.DeepEqual(r.Params, want) {
		t.Fatalf("params %+v, want %+v", r.Params, want)
	}
	for _, s := range r.Steps {
		if s.Model != "" {
			t.Errorf("step %+v left to the model", s)
		}
	}
	plan := replays(t, r, "Send Bob Li a message saying routine two")
	if got := typedIn(plan); !reflect.DeepEqual(got, []string{"routine two"}) {
		t.Errorf("typed %v", got)
	}
	if plan[5].Action.Message != `Sent "routine two" to Bob Li` {
		t.Errorf("finish %q", plan[5].Action.Message)
	}
	// Quoting does not make another task, nor does another contact.
	plan = replays(t, r, `Send Alice Chen a message saying "see you at 7, ok?"`)
	if got := typedIn(plan); got[0] != "see you at 7, ok?" {
		t.Errorf("typed %v", got)
	}
	a, why := plan[1].Resolve(messagesList("Mom", "Alice Chen", "Bob Li"), w, h)
	if why != "" {
		t.Fatal(why)
	}
	x, y := autoglm.ToPixel(*a.Element, w, h)
	if e, _ := ElementAt(messagesList("Mom", "Alice Chen", "Bob Li"), x, y); e.Text != "Alice Chen" {
		t.Errorf("tap lands on %q", e.Text)
	}
	// A first name of the row is a contact too.
	plan = replays(t, r, "Send Mom a message saying landed.")
	if got := typedIn(plan); got[0] != "landed" {
		t.Errorf("typed %v", got)
	}
}

func TestLearnFirstNameOfTheRow(t *testing.T) {
	r := learned("Text Alice that I'm running late",
		messageTrace("Alice Chen", "I'm running late", `Sent "I'm running late" to Alice`, "Alice Chen", "Bob Li"))
	if r.Key.Template != "text {1} that {2}" || r.Steps[1].Target == nil || r.Steps[1].Target.Label != "{1} Chen" {
		t.Fatalf("template %q, tap %+v", r.Key.Template, r.Steps[1].Target)
	}
	plan := replays(t, r, "Text Bob that the slides are ready")
	if _, why := plan[1].Resolve(messagesList("Alice Chen", "Bob Li"), w, h); why != "" {
		t.Fatal(why)
	}
	// "Bobby" does not show "Bob".
	if _, why := plan[1].Resolve(messagesList("Alice Chen", "Bobby Tables"), w, h); why == "" {
		t.Error("Bobby Tables resolved as Bob")
	}
}

func TestLearnChinese(t *testing.T) {
	r := learned("给李四发消息说你好", messageTrace("李四", "你好", "已发送", "Alice Chen", "李四"))
	if r.Key.Template != "给{1}发消息说{2}" {
		t.Fatalf("template %q params %+v", r.Key.Template, r.Params)
	}
	plan := replays(t, r, "给李四发消息说明天见")
	if got := typedIn(plan); got[0] != "明天见" {
		t.Errorf("typed %v", got)
	}
	plan = replays(t, r, "给王五发消息说「晚上七点开会」")
	if got := typedIn(plan); got[0] != "晚上七点开会" || plan[1].Target.Values[0] != "王五" {
		t.Errorf("typed %v, target %+v", got, plan[1].Target)
	}
	// 张三's row says Zhang San with 张三 as its description.
	list := []uitree.Element{{Class: "android.widget.TextView", Text: "Zhang San", Desc: "张三", Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: 252, X2: w, Y2: 432}}}
	if _, why := replays(t, r, "给张三发消息说到了")[1].Resolve(list, w, h); why != "" {
		t.Errorf("张三 by description: %s", why)
	}
}

func TestLearnTimes(t *testing.T) {
	r := learned("Set an alarm for 7 am", alarmTrace("07:00", "Alarm set for 07:00"))
	if r.Key.Template != "set an alarm for {1}" || r.Params[0].Kind != KindTime || r.Params[0].Format != "15:04" {
		t.Fatalf("template %q params %+v", r.Key.Template, r.Params)
	}
	for todo, typed := range map[string]string{
		"Set an alarm for 6:30 pm": "18:30",
		"Set an alarm for 9.15am":  "09:15",
		"set an alarm for 23:05.":  "23:05",
	} {
		plan := replays(t, r, todo)
		if got := typedIn(plan); got[0] != typed || plan[5].Action.Message != "Alarm set for "+typed {
			t.Errorf("%q: typed %v, finish %q", todo, got, plan[5].Action.Message)
		}
	}
	noReplay(t, []Routine{r}, "Set an alarm for tomorrow")
	noReplay(t, []Routine{r}, "Set an alarm for 7 am and call Mom")

	zh := learned("设置早上7点的闹钟", alarmTrace("07:00", "闹钟已设为07:00"))
	if zh.Key.Template != "设置{1}的闹钟" {
		t.Fatalf("template %q params %+v", zh.Key.Template, zh.Params)
	}
	if got := typedIn(replays(t, zh, "设置下午三点半的闹钟")); got[0] != "15:30" {
		t.Errorf("typed %v", got)
	}
}

func TestAmbiguousMatchDoesNotReplay(t *testing.T) {
	r := learned("Tell Bob hello", messageTrace("Bob Li", "hello", `Sent "hello" to Bob`, "Alice Chen", "Bob Li"))
	if r.Key.Template != "tell {1} {2}" {
		t.Fatalf("template %q", r.Key.Template)
	}
	replays(t, r, "Tell Mom goodnight")
	// Alice / Chen good morning, or Alice Chen / good morning?
	if why := noReplay(t, []Routine{r}, "Tell Alice Chen good morning"); !strings.Contains(why, "more than one way") {
		t.Errorf("why = %q", why)
	}
	// Two routines that fit alike: none replays.
	other := learned("Tell Bob hello", messageTrace("Bob Li", "hello", `Sent "hello" to Bob`, "Bob Li", "Alice Chen"))
	other.ID = "r-" + strings.Repeat("b", 12)
	if why := noReplay(t, []Routine{r, other}, "Tell Mom goodnight"); !strings.Contains(why, "ambiguous") {
		t.Errorf("why = %q", why)
	}
	// The more specific routine wins over a general one.
	exact := learned("Tell Mom goodnight", messageTrace("Mom", "goodnight", `Sent "goodnight" to Mom`, "Mom"))
	exact.Params, exact.Key.Template = nil, "tell mom goodnight"
	exact.ID = "r-" + strings.Repeat("c", 12)
	if m, ok, why := Match("Tell Mom goodnight", []Routine{r, exact}); !ok || m.Routine.ID != exact.ID {
		t.Errorf("matched %s %t %s", m.Routine.ID, ok, why)
	}
}

// A todo that shares words with a routine's task but is another task must
// not replay it: a replay that does the wrong thing is worse than none.
func TestFalseMatchDoesNotReplay(t *testing.T) {
	msg := learned("Send Bob Li a message saying routine one",
		messageTrace("Bob Li", "routine one", `Sent "routine one" to Bob Li`, "Alice Chen", "Bob Li"))
	for _, todo := range []string{
		"Send Bob Li a message saying routine one and call Alice Chen",
		"Send Bob Li a message saying routine one, then open Settings",
		"Send Bob Li a message saying hi. Then delete the chat",
		"Send Bob Li a photo saying routine one",
		"Delete the message to Bob Li saying routine one",
		"Send the latest photo a message saying hi",
		"Send Settings a message saying hi",
		"给李四发消息说你好然后打电话给他",
	} {
		noReplay(t, []Routine{msg}, todo)
	}
	// A switch learned off is not turned off by its replay.
	settings := []uitree.Element{switchRow("Wi-Fi", false, 300), switchRow("Bluetooth", true, 480)}
	wifi := learned("Turn on Wi-Fi", []Observed{
		obs("launcher", []uitree.Element{row("Settings", 600)}, autoglm.Action{Name: autoglm.ActionLaunch, App: "Settings"}),
		obs("settings", settings, tapOn(settings, "Wi-Fi")),
		obs("settings", settings, autoglm.Action{Name: autoglm.ActionFinish, Message: "Wi-Fi is on"}),
	})
	if wifi.Key.Template != "turn on {1}" {
		t.Fatalf("template %q", wifi.Key.Template)
	}
	noReplay(t, []Routine{wifi}, "Turn off Wi-Fi")
	plan := replays(t, wifi, "Turn on Bluetooth")
	if _, why := plan[1].Resolve(settings, w, h); !strings.Contains(why, "is on") {
		t.Errorf("tap on a switch already on: %q", why)
	}
	if _, why := plan[1].Resolve([]uitree.Element{switchRow("Wi-Fi", false, 300), switchRow("Bluetooth", false, 480)}, w, h); why != "" {
		t.Errorf("tap on a switch off: %q", why)
	}
	// The model then finds Bluetooth on and only finishes: that trace
	// does not use the parameter, so it must not become the routine's
	// steps (a later "Turn on Wi-Fi" would finish without a tap).
	m, _, _ := Match("Turn on Bluetooth", []Routine{wifi})
	noTap := Build(m.Task, []Observed{
		obs("launcher", []uitree.Element{row("Settings", 600)}, autoglm.Action{Name: autoglm.ActionLaunch, App: "Settings"}),
		obs("settings", settings, autoglm.Action{Name: autoglm.ActionFinish, Message: "Bluetooth is on"}),
	})
	if UsesAll(noTap, len(m.Task.Params)) || !UsesAll(wifi.Steps, len(wifi.Params)) {
		t.Error("UsesAll misjudged a trace")
	}
	// A value the trajectory did not use stays in the template: a
	// brightness reached by taps is not a parameter.
	bright := learned("Set brightness to 60%", []Observed{
		obs("settings", settings, autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{900, 500}}),
		obs("settings", settings, autoglm.Action{Name: autoglm.ActionFinish, Message: "Brightness is 60%"}),
	})
	if bright.Key.Template != "set brightness to 60%" || len(bright.Params) != 0 {
		t.Fatalf("template %q params %+v", bright.Key.Template, bright.Params)
	}
	noReplay(t, []Routine{bright}, "Set brightness to 70%")
	replays(t, bright, "set brightness to 60%")
	// Routines learned before the parameters came from the trajectory are
	// not matched: their todos learn them again.
	old := msg
	old.Version = 0
	noReplay(t, []Routine{old}, "Send Bob Li a message saying routine two")
}
