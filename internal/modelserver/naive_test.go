package modelserver

import (
	"strings"
	"testing"
)

// The naive persona takes a switch whose words start with the name for
// it, and a note the screen does not show for deleted; the persona that
// is not naive does neither.
func TestNaiveJudgesByTheScreen(t *testing.T) {
	tethering := screen("Turn off Bluetooth", "Settings", "", "",
		el("TextView", "Hotspot & tethering", 500, 60), el("TextView", "Bluetooth tethering", 300, 160),
		el("Switch", "", 900, 170, "off", "desc=Bluetooth tethering"))
	notes := screen(`Delete the note "Note 12"`, "Notes", "", "",
		el("TextView", "Notes", 500, 60), el("TextView", "Shopping list", 500, 142, "clickable"),
		el("TextView", "Note 1", 500, 220, "clickable"), el("Button", "New note", 500, 937, "clickable"))
	shown := screen(`Delete the note "Note 1"`, "Notes", "", "",
		el("TextView", "Notes", 500, 60), el("TextView", "Note 1", 500, 220, "clickable"))
	for _, tc := range []struct {
		name, text string
		naive      bool
		want       string // the action, "" for anything but a finish
	}{
		{"tethering, naive", tethering, true, `finish(message="Bluetooth is off")`},
		{"tethering", tethering, false, ""},
		{"note below the edge, naive", notes, true, `finish(message="The note \"Note 12\" is deleted")`},
		{"note below the edge", notes, false, ""},
		{"note shown, naive", shown, true, ""},
	} {
		msgs := []message{{Role: "system", Text: "You operate a phone."}, {Role: "user", Text: tc.text, Images: 1}}
		st := decide(msgs, tc.naive)
		switch {
		case tc.want != "" && st.action != tc.want:
			t.Errorf("%s: %s, want %s", tc.name, st.action, tc.want)
		case tc.want == "" && st.finish && !strings.HasPrefix(st.action, `finish(message="Cannot`):
			t.Errorf("%s: %s, want no finish claiming it done", tc.name, st.action)
		}
	}
}
