package postcond

import (
	"strings"
	"testing"
)

// A final screen whose tree could not be read shows nothing either way:
// every check that reads the tree does not hold and says why; the app in
// front, read without the tree, is still checked.
func TestUnreadTreeHoldsNothing(t *testing.T) {
	on := true
	o := Observed{Final: Screen{App: "Settings", AppPackage: "com.android.settings", Unread: "uiautomator found no idle state"}}
	for _, c := range []Check{
		{Kind: ElementAbsent, Text: "Delete"},
		{Kind: ElementExists, Text: "Wi-Fi"},
		{Kind: Switch, Label: "Wi-Fi", On: &on},
		{Kind: FieldHolds, Field: "Title", Value: ""},
		{Kind: RowShows, Row: "Wi-Fi", Shows: "Off"},
		{Kind: LastSent, Conversation: "Mom", Contains: "hi"},
	} {
		r := Eval([]Check{c}, o)[0]
		if r.Held || !strings.Contains(r.Evidence, "not verified") || !strings.Contains(r.Evidence, "idle state") {
			t.Errorf("%s on an unread tree: held %v, %q", c.Kind, r.Held, r.Evidence)
		}
	}
	if r := Eval([]Check{{Kind: AppInFront, App: "Settings"}}, o)[0]; !r.Held {
		t.Errorf("app_in_front needs no tree: %q", r.Evidence)
	}
}
