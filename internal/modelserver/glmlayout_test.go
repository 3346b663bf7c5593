package modelserver

import (
	"reflect"
	"testing"
)

// The offline executor reads the autoglm layout: the task from the first
// user message, the screen from the newest, earlier actions from the
// assistant turns.
func TestGLMRequestRead(t *testing.T) {
	msgs := []message{
		{Role: "system", Text: "You are a phone operator."},
		{Role: "user", Text: "Turn on Wi-Fi\n\n{\"current_app\": \"Launcher\"}"},
		{Role: "assistant", Text: `<think>Open it.</think><answer>do(action="Launch", app="Settings")</answer>`},
		{Role: "user", Images: 1, Text: "** Screen Info **\n\n" +
			`{"current_app": "Settings", "last_action_result": "app not found: \"X\"", "notes": ["You seem stuck"], ` +
			`"ui_elements": ["[1] Switch \"Wi-Fi\" id=wifi_switch checked=false clickable at=[879,212]"]}`},
	}
	o, hist, ok := glmRequest(msgs)
	if !ok {
		t.Fatal("not read as the autoglm layout")
	}
	if o.Task != "Turn on Wi-Fi" || o.App != "Settings" || o.Package != packageOf("Settings") ||
		o.PrevResult != `app not found: "X"` || !reflect.DeepEqual(o.Notes, []string{"You seem stuck"}) ||
		len(o.Elems) != 1 || o.Elems[0].ID != "wifi_switch" || o.PrevAction != `do(action="Launch", app="Settings")` {
		t.Errorf("observation %+v", o)
	}
	if len(hist) != 1 || hist[0].Name != "Launch" {
		t.Errorf("history %+v", hist)
	}
	// The first step: the task and the info in one message.
	o, _, ok = glmRequest(msgs[:2])
	if !ok || o.Task != "Turn on Wi-Fi" || o.App != "Launcher" {
		t.Errorf("first step: %v %+v", ok, o)
	}
	// The phoneflow layout is not mistaken for it.
	if _, _, ok := glmRequest([]message{{Role: "user", Text: "Task: Turn on Wi-Fi\nCurrent app: Settings (com.android.settings)\nScreen: normal"}}); ok {
		t.Error("phoneflow layout read as autoglm")
	}
	if step := decide(msgs[:2], false); step.action == "" || step.think == "" {
		t.Errorf("decide on the first autoglm step: %+v", step)
	}
}
