package routine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

const w, h = 1080, 2400

func row(text string, y int) uitree.Element {
	return uitree.Element{Class: "android.widget.TextView", Text: text, Clickable: true, Enabled: true,
		Bounds: uitree.Bounds{X1: 0, Y1: y, X2: w, Y2: y + 180}}
}

func messagesList(names ...string) []uitree.Element {
	e := []uitree.Element{{Class: "android.widget.FrameLayout", Bounds: uitree.Bounds{X2: w, Y2: h}},
		{Class: "android.widget.TextView", Text: "Messages", Bounds: uitree.Bounds{X1: 0, Y1: 84, X2: w, Y2: 252}}}
	for i, n := range names {
		e = append(e, row(n, 252+i*180))
	}
	return e
}

func TestFingerprintIgnoresContentButNotStructure(t *testing.T) {
	base := messagesList("Alice Chen", "Bob Li", "Mom")
	fp := Fingerprint("msg", base, w, h, "img")
	conv := func(body, field string) []uitree.Element {
		return []uitree.Element{
			{Class: "android.widget.TextView", Text: body, Bounds: uitree.Bounds{X1: 48, Y1: 300, X2: 800, Y2: 420}},
			{Class: "android.widget.EditText", Text: field, ResourceID: "app:id/compose", Clickable: true, Bounds: uitree.Bounds{X1: 24, Y1: 2000, X2: 800, Y2: 2160}},
		}
	}
	for _, tc := range []struct {
		name  string
		a, b  string
		equal bool
	}{
		{"same screen", fp, Fingerprint("msg", messagesList("Alice Chen", "Bob Li", "Mom"), w, h, "other image"), true},
		{"other message text and field value", Fingerprint("msg", conv("hi", ""), w, h, ""), Fingerprint("msg", conv("see you at 7", "typing"), w, h, ""), true},
		{"digits in a label", Fingerprint("clock", []uitree.Element{row("07:00", 300)}, w, h, ""), Fingerprint("clock", []uitree.Element{row("08:30", 300)}, w, h, ""), true},
		{"other list order", fp, Fingerprint("msg", messagesList("Bob Li", "Alice Chen", "Mom"), w, h, ""), false},
		{"a pop-up", fp, Fingerprint("msg", append(messagesList("Alice Chen", "Bob Li", "Mom"),
			uitree.Element{Class: "android.widget.Button", Text: "Not now", Clickable: true, Bounds: uitree.Bounds{X1: 300, Y1: 1200, X2: 780, Y2: 1360}}), w, h, ""), false},
		{"another app", fp, Fingerprint("contacts", base, w, h, ""), false},
		{"a switch in the other state", Fingerprint("s", []uitree.Element{{Class: "Switch", Text: "Wi-Fi", Checkable: true, Clickable: true, Bounds: uitree.Bounds{X2: w, Y2: 180}}}, w, h, ""),
			Fingerprint("s", []uitree.Element{{Class: "Switch", Text: "Wi-Fi", Checkable: true, Checked: true, Clickable: true, Bounds: uitree.Bounds{X2: w, Y2: 180}}}, w, h, ""), false},
		{"no tree: the image hash", Fingerprint("bank", nil, w, h, "abc"), "img:bank:abc", true},
	} {
		if (tc.a == tc.b) != tc.equal {
			t.Errorf("%s: %q vs %q, want equal=%t", tc.name, tc.a, tc.b, tc.equal)
		}
	}
	if Fingerprint("x", nil, w, h, "") != "" {
		t.Error("a screen with neither tree nor image has a fingerprint")
	}
}

func TestBuildPlanResolve(t *testing.T) {
	rec := Parse(`Send Alice a message saying "see you at 7"`)
	list := messagesList("Alice Chen", "Bob Li", "Mom")
	tapAlice := autoglm.Point{500, uitree.Relative(252+90, h)}
	steps := Build(rec, []Observed{
		{AppPackage: "launcher", Elems: []uitree.Element{row("Messages", 600)}, Width: w, Height: h, Action: autoglm.Action{Name: autoglm.ActionLaunch, App: "Messages"}},
		{AppPackage: "msg", Elems: list, Width: w, Height: h, Action: autoglm.Action{Name: autoglm.ActionTap, Element: &tapAlice}},
		{AppPackage: "msg", ImageHash: "h1", Width: w, Height: h, Action: autoglm.Action{Name: autoglm.ActionType, Text: "see you at 7"}},
		{AppPackage: "msg", ImageHash: "h2", Width: w, Height: h, Action: autoglm.Action{Name: autoglm.ActionType, Text: "07:00 it is"}},
		{AppPackage: "msg", ImageHash: "h3", Width: w, Height: h, Action: autoglm.Action{Name: autoglm.ActionFinish, Message: `Sent "see you at 7" to Alice`}},
		{AppPackage: "msg", ImageHash: "h3", Width: w, Height: h, Action: autoglm.Action{Name: autoglm.ActionFinish, Message: "The first alarm is 07:00"}},
	})
	if tg := steps[1].Target; tg == nil || tg.Label != "{1} Chen" || tg.Class != "TextView" {
		t.Fatalf("tap target = %+v, want the row labelled {1} Chen", tg)
	}
	if steps[2].Action.Text != "{2}" || steps[2].Model != "" {
		t.Errorf("typed parameter: %+v", steps[2])
	}
	if steps[3].Model == "" || steps[5].Model == "" || steps[4].Model != "" {
		t.Errorf("literal text typed or reported must be left to the model: %q %q %q", steps[3].Model, steps[4].Model, steps[5].Model)
	}

	now := Parse(`Send Bob a message saying "running late"`)
	plan := Plan(Routine{ID: "r-1", Steps: steps}, now)
	if plan[2].Action.Text != "running late" || plan[4].Action.Message != `Sent "running late" to Bob` || plan[1].Total != 6 || plan[1].Index != 2 {
		t.Fatalf("plan: %+v", plan)
	}
	// The tap goes to Bob's row wherever it is, also in another order.
	for _, order := range [][]string{{"Alice Chen", "Bob Li", "Mom"}, {"Mom", "Alice Chen", "Bob Li"}} {
		elems := messagesList(order...)
		a, why := plan[1].Resolve(elems, w, h)
		if why != "" {
			t.Fatal(why)
		}
		x, y := autoglm.ToPixel(*a.Element, w, h)
		if e, _ := ElementAt(elems, x, y); e.Text != "Bob Li" {
			t.Errorf("order %v: the tap lands on %q", order, e.Text)
		}
	}
	if _, why := plan[1].Resolve(messagesList("Alice Chen", "Mom"), w, h); !strings.Contains(why, `"Bob"`) {
		t.Errorf("no Bob on the screen: %q", why)
	}
	if _, why := plan[1].Resolve(messagesList("Bob Li", "Bob Marley"), w, h); !strings.Contains(why, "2 elements") {
		t.Errorf("two Bobs: %q", why)
	}
	// A todo of the template with fewer parameters cannot fill {2}.
	short := Plan(Routine{ID: "r-1", Steps: steps}, Task{Template: rec.Template, Params: now.Params[:1]})
	if short[2].Model == "" {
		t.Error("a missing parameter must leave the step to the model")
	}
}

func TestStoreRecordsCountsAndDrops(t *testing.T) {
	for _, kind := range storeKinds {
		t.Run(kind.name, func(t *testing.T) { testStoreRecordsCountsAndDrops(t, kind.open(t)()) })
	}
}

func testStoreRecordsCountsAndDrops(t *testing.T, s *Store) {
	todo := `Send Alice a message saying "hi"`
	task := Task{Template: "send {1} a message saying {2}", Params: []Param{{Kind: KindLabel, Value: "Alice"}, {Kind: KindTyped, Value: "hi"}}}
	key := Key{Template: task.Template, App: "launcher", Model: "Pixel", Width: w, Height: h}
	steps := []Step{{Screen: "tree:a", Action: autoglm.Action{Name: autoglm.ActionLaunch, App: "Messages"}}}
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	// A failure with no routine replayed records nothing.
	if rec, err := s.Record(Outcome{Key: key, Task: task, Replayed: 0}, now); err != nil || !rec.Ignored {
		t.Fatalf("failure without a routine: %+v %v", rec, err)
	}
	rec, err := s.Record(Outcome{Key: key, Task: task, Steps: steps, Success: true}, now)
	if err != nil || !rec.Created || rec.Routine.Successes != 1 {
		t.Fatalf("first success: %+v %v", rec, err)
	}
	other := key
	other.Width, other.Height = 720, 1600
	if _, ok, note, err := s.Match(todo, other); ok || err != nil || !strings.Contains(note, "recorded on Pixel 1080x2400") {
		t.Fatalf("another resolution: found %t, note %q, %v", ok, note, err)
	}
	if m, ok, _, err := s.Match(`Send Bob a message saying "bye"`, key); !ok || err != nil || m.Routine.ID != key.ID() {
		t.Fatalf("same phone: found %t, %v", ok, err)
	}
	for i := 1; i < MaxFailures; i++ {
		rec, err := s.Record(Outcome{Key: key, Task: task, Replayed: 2, Why: "screen differs"}, now)
		if err != nil || rec.Dropped || rec.Routine.Failures != i {
			t.Fatalf("failure %d: %+v %v", i, rec, err)
		}
	}
	// A success resets the count.
	if rec, _ := s.Record(Outcome{Key: key, Task: task, Steps: steps, Success: true}, now); rec.Routine.Failures != 0 || rec.Routine.Successes != 2 || rec.Updated {
		t.Fatalf("success after failures: %+v", rec)
	}
	for i := 1; i <= MaxFailures; i++ {
		rec, err = s.Record(Outcome{Key: key, Task: task, Replayed: 1, Why: "not verified"}, now)
		if err != nil {
			t.Fatal(err)
		}
	}
	if !rec.Dropped {
		t.Fatalf("after %d failures in a row: %+v, want dropped", MaxFailures, rec)
	}
	if _, err := s.Get(key.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("dropped routine still readable: %v", err)
	}
	if err := s.Delete("r-0123456789ab"); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete of an unknown routine: %v", err)
	}
	if _, err := s.Get("../../x"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "routine IDs look like") {
		t.Errorf("a path as ID: %v", err)
	}
}
