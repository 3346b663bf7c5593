package postcond

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A later screen says whether an earlier todo's state still holds only
// where it shows the state's subject.
func TestRecheckJudgesOnlyWhatTheScreenShows(t *testing.T) {
	on, off := true, false
	bt := Check{Kind: Switch, Label: "Bluetooth", On: &on}
	wifi := Check{Kind: Switch, Label: "Wi-Fi", On: &off}
	gone := Check{Kind: ElementAbsent, Text: "Shopping list"}
	made := Check{Kind: ElementExists, Text: "Trip"}
	screen := Screen{App: "Settings", Elements: []uitree.Element{
		{Class: "android.widget.Switch", Text: "Bluetooth", Checkable: true, Checked: false, Bounds: uitree.Bounds{X1: 0, Y1: 100, X2: 1080, Y2: 200}},
		{Class: "android.widget.Switch", Text: "Airplane mode", Checkable: true, Checked: true, Bounds: uitree.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 300}},
	}}
	rs := Recheck([]Check{bt, wifi, gone, made}, screen)
	if len(rs) != 1 || rs[0].Check.Label != "Bluetooth" || rs[0].Held {
		t.Fatalf("results %+v, want only Bluetooth, no longer on", rs)
	}
	screen.Elements[0].Checked = true
	if rs := Recheck([]Check{bt}, screen); len(rs) != 1 || !rs[0].Held {
		t.Fatalf("Bluetooth on again: %+v", rs)
	}
	notes := Screen{App: "Notes", Elements: []uitree.Element{{Class: "android.widget.TextView", Text: "Shopping list", Bounds: uitree.Bounds{X1: 0, Y1: 300, X2: 1080, Y2: 400}}}}
	if rs := Recheck([]Check{gone}, notes); len(rs) != 1 || rs[0].Held {
		t.Fatalf("a deleted note shown again: %+v", rs)
	}
}
