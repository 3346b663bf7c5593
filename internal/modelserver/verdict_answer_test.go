package modelserver

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The verifier's own reading of a read: an app's name (the app in front,
// an icon on the home screen), the name of an app's top screen and what
// the task itself says are never the value it asks for, however the
// answer repeats the task around them.
func TestVerifierAnswerIsNoAppScreenOrQuestion(t *testing.T) {
	home := observation{App: "Launcher", Elems: []uitree.Listed{{Text: "09:41", ID: "clock"},
		{Text: "Settings", Desc: "Settings", Clickable: true}, {Text: "Contacts", Desc: "Contacts", Clickable: true}}}
	list := observation{App: "Contacts", Elems: []uitree.Listed{{Text: "People", ID: "title"},
		{Text: "Alice Chen", Clickable: true}, {Text: "Bob Li", Clickable: true}, {Text: "李四", Clickable: true}}}
	card := observation{App: "Contacts", Elems: []uitree.Listed{{Desc: "Navigate up", Clickable: true}, {Text: "Alice Chen", ID: "title"},
		{Text: "+1 555 0101", ID: "phone_number"}, {Text: "Message", Class: "Button", Clickable: true}}}
	for _, c := range []struct {
		name      string
		obs       observation
		task, msg string
		want      string
	}{
		{"an icon's name", home, "Read me the name of the second person in my contacts",
			"Done: Read me the name of the second person in my contacts: Contacts.", "failed"},
		{"the app's name on its own screen", list, "Read me the name of the second person in my contacts", "Contacts", "failed"},
		{"the top screen's name", list, "Read me the name of the second person in my contacts", "People", "failed"},
		{"a person on the list", list, "Read me the name of the second person in my contacts",
			"Done: Read me the name of the second person in my contacts: Bob Li.", "done"},
		{"the number asked about", card, "Check who +1 555 0101 belongs to in my contacts",
			"Done: Check who +1 555 0101 belongs to in my contacts: Contacts.", "failed"},
		{"the number's owner", card, "Check who +1 555 0101 belongs to in my contacts",
			"Done: Check who +1 555 0101 belongs to in my contacts: Alice Chen.", "done"},
		{"a person the task names", list, "Show me 李四 in Contacts", "李四", "failed"},
	} {
		if v := judgeClaim(c.obs, c.task, c.msg); v.Status != c.want {
			t.Errorf("%s: %q on %s: %s (%s), want %s", c.name, c.msg, c.obs.App, v.Status, v.Evidence, c.want)
		}
	}
}
