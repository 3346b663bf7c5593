package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// keepEditor is Google Keep's text-note editor as the simulator's pixel
// skin dumps it (internal/phonesim/layout_pixel_notes.go): Navigate up, the
// title and note fields showing their hints while empty, the edit time of
// a saved note, More. There is no Save: leaving the editor saves it.
func keepEditor(title, body string, saved bool) []uitree.Element {
	const pkg = "com.google.android.keep"
	field := func(id, hint, text string, b uitree.Bounds) uitree.Element {
		shown := text
		if shown == "" {
			shown = hint
		}
		return uitree.Element{Class: "android.widget.EditText", Package: pkg, ResourceID: pkg + ":id/" + id, Text: shown, Hint: hint, Clickable: true, Bounds: b}
	}
	es := []uitree.Element{
		{Class: "android.widget.ImageButton", Package: pkg, Desc: "Navigate up", Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: 80, X2: 144, Y2: 252}},
		field("editable_title", "Title", title, uitree.Bounds{X1: 48, Y1: 272, X2: 1032, Y2: 412}),
		field("edit_note_text", "Note", body, uitree.Bounds{X1: 48, Y1: 432, X2: 1032, Y2: 2000}),
	}
	if saved {
		es = append(es, uitree.Element{Class: "android.widget.TextView", Package: pkg, ResourceID: pkg + ":id/edit_date", Text: "Edited 9:00 AM", Bounds: uitree.Bounds{X1: 320, Y1: 2190, X2: 760, Y2: 2270}})
	}
	return append(es, uitree.Element{Class: "android.widget.ImageButton", Package: pkg, Desc: "More", Clickable: true, Bounds: uitree.Bounds{X1: 916, Y1: 2160, X2: 1040, Y2: 2300}})
}

// pressBack is a Step that presses the system Back on the screen tree.
func pressBack(task, treeRef string, expect ...postcond.Check) StepInput {
	return StepInput{Serial: "fake-1", Task: task, Width: 1080, Height: 2400, ScreenTreeRef: treeRef, Expect: expect,
		Act: &autoglm.Action{Name: autoglm.ActionBack}}
}

func backs(in []string) int {
	n := 0
	for _, s := range in {
		if s == "back" {
			n++
		}
	}
	return n
}

// Keep saves a note when its editor is left, by Navigate up or by the
// system Back alike: a Back on a filled editor is judged as the Navigate up
// tap is. A body other than the todo's is refused and the Back never
// reaches the phone; the todo's own body goes through as the commit it is,
// under the key the Navigate up tap on the same screen has, so the todo's
// log holds one save of that content whichever way it left.
func TestBackLeavingKeepIsJudgedAsNavigateUp(t *testing.T) {
	a, p, _ := newActivities(t)
	task := `Create a note titled "Ideas" saying "周五交报告"`
	expect := []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.ElementExists, Text: "Ideas"}}
	misread := tree(t, a, keepEditor("Ideas", "ok", false))
	res, err := a.Step(context.Background(), pressBack(task, misread, expect...))
	if err != nil {
		t.Fatal(err)
	}
	if res.Act == nil || !strings.HasPrefix(res.Act.Result, ActRefused) || !strings.Contains(res.Act.Refused, "ok") || res.Act.Commit != "" {
		t.Fatalf("a Back leaving Ideas with the body ok: %+v; want it refused", res.Act)
	}
	if backs(p.got()) != 0 {
		t.Fatalf("the refused Back reached the phone: %v", p.got())
	}

	right := tree(t, a, keepEditor("Ideas", "周五交报告", false))
	res, err = a.Step(context.Background(), pressBack(task, right, expect...))
	if err != nil {
		t.Fatal(err)
	}
	if res.Act == nil || res.Act.Result != "ok" || res.Act.Refused != "" || res.Act.Commit == "" || !strings.Contains(res.Act.Committed, "周五交报告") {
		t.Fatalf("a Back leaving Ideas with the todo's body: %+v; want it sent as a commit", res.Act)
	}
	if backs(p.got()) != 1 {
		t.Fatalf("the phone got %v, want one Back", p.got())
	}
	up := tapAt(task, 72, 166)
	up.ScreenTreeRef, up.Expect = right, expect
	tap, err := a.Step(context.Background(), up)
	if err != nil {
		t.Fatal(err)
	}
	if tap.Act == nil || tap.Act.Commit == "" || tap.Act.Commit != res.Act.Commit {
		t.Fatalf("the Navigate up tap on the same screen is keyed %q, the Back %q; want one key", tap.Act.Commit, res.Act.Commit)
	}
}

// A Back that leaves nothing to save is no commit and is never judged: an
// empty new note, another saved note the todo does not name (the way out of
// a note opened by mistake), and an editor that has a Save of its own
// (the classic Notes, where Back leaves without saving).
func TestBackThatSavesNothingIsNotJudged(t *testing.T) {
	a, p, _ := newActivities(t)
	task := `Add butter to the note "Shopping list"`
	expect := []postcond.Check{{Kind: postcond.RowShows, Row: "Shopping list", Shows: "butter"}}
	classic := []uitree.Element{
		{Class: "android.widget.EditText", Package: "com.example.notes", Text: "Trip", Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 300, X2: 1032, Y2: 450}},
		{Class: "android.widget.EditText", Package: "com.example.notes", Text: "passport", Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 500, X2: 1032, Y2: 1000}},
		{Class: "android.widget.Button", Package: "com.example.notes", Text: "Save", Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 1100, X2: 1032, Y2: 1260}},
	}
	for name, es := range map[string][]uitree.Element{
		"an empty new note":         keepEditor("", "", false),
		"another saved note":        keepEditor("Trip", "passport", true),
		"the classic Notes' editor": classic,
	} {
		before := backs(p.got())
		res, err := a.Step(context.Background(), pressBack(task, tree(t, a, es), expect...))
		if err != nil {
			t.Fatal(err)
		}
		if res.Act == nil || res.Act.Result != "ok" || res.Act.Refused != "" || res.Act.Commit != "" || res.Act.Committed != "" {
			t.Errorf("%s: the Back gave %+v; want it sent as no commit", name, res.Act)
		}
		if backs(p.got()) != before+1 {
			t.Errorf("%s: the Back did not reach the phone: %v", name, p.got())
		}
	}
	// The saved note the todo names is judged: the Back gets the verdict
	// and the commit key the Navigate up tap on the same screen gets.
	for _, body := range []string{"Milk, eggs, bread", "Milk, eggs, bread, butter", "butter"} {
		ref := tree(t, a, keepEditor("Shopping list", body, true))
		back, err := a.Step(context.Background(), pressBack(task, ref, expect...))
		if err != nil {
			t.Fatal(err)
		}
		up := tapAt(task, 72, 166)
		up.ScreenTreeRef, up.Expect = ref, expect
		tap, err := a.Step(context.Background(), up)
		if err != nil {
			t.Fatal(err)
		}
		if back.Act.Commit == "" || back.Act.Commit != tap.Act.Commit || back.Act.Refused != tap.Act.Refused {
			t.Errorf("Shopping list left with %q: the Back gave %+v, the Navigate up tap %+v; want one verdict and key", body, back.Act, tap.Act)
		}
	}
}
