package fleet

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/device"
)

func TestSelector(t *testing.T) {
	shop := Phone{Serial: "a", Labels: []string{"shop", "work"}}
	tablet := Phone{Serial: "b", Labels: []string{"tablet"}}
	for _, tc := range []struct {
		on   string
		want []string
	}{
		{"any", []string{"a", "b"}},
		{"label=shop", []string{"a"}},
		{" label = tablet ", []string{"b"}},
		{"label=none", nil},
		{"serial=b", []string{"b"}},
		{"planner", []string{"a", "b"}},
	} {
		s, err := ParseSelector(tc.on)
		if err != nil {
			t.Fatalf("%q: %v", tc.on, err)
		}
		var got []string
		for _, p := range s.Select([]Phone{shop, tablet}) {
			got = append(got, p.Serial)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("--on %q selects %v, want %v", tc.on, got, tc.want)
		}
		if again, err := ParseSelector(s.String()); err != nil || again != s {
			t.Errorf("--on %q does not read back from %q: %+v %v", tc.on, s.String(), again, err)
		}
	}
	for _, bad := range []string{"", "shop", "label=", "owner=me", "anything"} {
		if _, err := ParseSelector(bad); err == nil || !strings.Contains(err.Error(), "label=LABEL") {
			t.Errorf("--on %q: error %v, want one naming the forms", bad, err)
		}
	}
	if (Selector{Label: "shop"}).Kind() != "a phone labelled shop" || (Selector{Any: true}).Kind() != "any phone" ||
		(Selector{Planner: true}).Kind() != "a phone the planner chooses" {
		t.Error("Kind does not say what is waited for")
	}
}

func TestSummary(t *testing.T) {
	got := Summary([]Phone{
		{Serial: "z", Facts: device.Facts{Model: "SM-T500"}},
		{Serial: "a", Labels: []string{"shop"}, Facts: device.Facts{Model: "Pixel 7", Android: "14", Width: 1080, Height: 2400,
			Lock: device.LockKindSecure, Apps: []string{"Clock", "Messages"}}},
	})
	want := "- a [shop]: Pixel 7, Android 14, 1080x2400, lock: secure; apps: Clock, Messages\n- z: SM-T500\n"
	if got != want {
		t.Errorf("Summary =\n%s\nwant\n%s", got, want)
	}
	if Summary(nil) != "" {
		t.Error("an empty fleet has a summary")
	}
}
