package activities

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// notesPhone is a Notes app: a list of notes 180 px a row between y=252
// and y=2100, scrolled by swipes, with a New note button under it; or,
// with editor set, the editor with its title and body fields.
type notesPhone struct {
	*fakePhone
	notes  []string
	scroll int
	editor []string // title, body
	// composeSave draws Save as Jetpack Compose does (Google Messages'
	// Send is one): a clickable node without text or description whose
	// child, not clickable, carries the label.
	composeSave bool
}

func (p *notesPhone) UITree(context.Context) ([]uitree.Element, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pkg := "com.example.notes"
	if p.editor != nil {
		editor := []uitree.Element{
			{Class: "android.widget.EditText", Package: pkg, Text: p.editor[0], Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 300, X2: 1032, Y2: 450}},
			{Class: "android.widget.EditText", Package: pkg, Text: p.editor[1], Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 500, X2: 1032, Y2: 1000}},
			{Class: "android.widget.Button", Package: pkg, Text: "Save", Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 1100, X2: 1032, Y2: 1260}},
		}
		if p.composeSave {
			save := uitree.Bounds{X1: 48, Y1: 1100, X2: 1032, Y2: 1260}
			editor[2] = uitree.Element{Class: "android.view.View", Package: pkg, Clickable: true, Bounds: save, Depth: 1}
			editor = append(editor, uitree.Element{Class: "android.view.View", Package: pkg, Desc: "Save", Bounds: save, Depth: 2})
		}
		return editor, nil
	}
	tree := []uitree.Element{{Class: "androidx.recyclerview.widget.RecyclerView", Package: pkg, Scrollable: len(p.notes)*180 > 1848,
		Bounds: uitree.Bounds{X1: 0, Y1: 252, X2: 1080, Y2: 2100}}}
	for i, n := range p.notes {
		y1, y2 := max(252+i*180-p.scroll, 252), min(432+i*180-p.scroll, 2100)
		if y2 > y1 {
			tree = append(tree, uitree.Element{Class: "android.widget.TextView", Package: pkg, Text: n, Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: y1, X2: 1080, Y2: y2}})
		}
	}
	return append(tree, uitree.Element{Class: "android.widget.Button", Package: pkg, Text: "New note", Clickable: true,
		Bounds: uitree.Bounds{X1: 300, Y1: 2170, X2: 780, Y2: 2330}}), nil
}

func (p *notesPhone) Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error {
	p.mu.Lock()
	p.scroll = min(max(p.scroll+y1-y2, 0), max(0, len(p.notes)*180-1848))
	p.mu.Unlock()
	return p.fakePhone.Swipe(ctx, x1, y1, x2, y2, d)
}

func (p *notesPhone) CurrentApp(context.Context) (device.App, error) {
	return device.App{Package: "com.example.notes", Name: "Notes"}, nil
}

type notesPool struct{ p *notesPhone }

func (f notesPool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f notesPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

func newNotes(t *testing.T, n int) (*Activities, *notesPhone) {
	t.Helper()
	a, fp, _ := newActivities(t)
	p := &notesPhone{fakePhone: fp}
	for i := 1; i <= n; i++ {
		p.notes = append(p.notes, fmt.Sprintf("n%d", i))
	}
	a.Devices = notesPool{p}
	return a, p
}

// tapAt is a Step that taps the pixel (x, y) of the 1080×2400 screen.
func tapAt(task string, x, y int, commits ...string) StepInput {
	return StepInput{Serial: "fake-1", Task: task, Width: 1080, Height: 2400, Commits: commits,
		Act: &autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{uitree.Relative(x, 1080), uitree.Relative(y, 2400)}}}
}

func taps(in []string) int {
	n := 0
	for _, s := range in {
		if strings.HasPrefix(s, "tap ") {
			n++
		}
	}
	return n
}

func TestLookBeforeCommitFindsTheNoteBelowTheScreen(t *testing.T) {
	a, p := newNotes(t, 30)
	res, err := a.Step(context.Background(), tapAt("Create a note titled n25 with the text x", 540, 2250))
	if err != nil {
		t.Fatal(err)
	}
	if res.Act == nil || res.Act.Refused == "" || !strings.HasPrefix(res.Act.Result, ActRefused+":") || !strings.Contains(res.Act.Result, `"n25"`) {
		t.Fatalf("want a refusal naming the note, got %+v", res.Act)
	}
	if taps(p.got()) != 0 || p.scroll != 0 {
		t.Fatalf("a refused commit reached the phone or left the list moved: %v, scroll %d", p.got(), p.scroll)
	}
	// A note that is not there: the tap goes through, after a look that
	// put the list back.
	res, err = a.Step(context.Background(), tapAt("Create a note titled n31 with the text x", 540, 2250))
	if err != nil {
		t.Fatal(err)
	}
	if res.Act == nil || res.Act.Refused != "" || res.Act.Result != "ok" || taps(p.got()) != 1 || p.scroll != 0 {
		t.Fatalf("want the tap applied with the list back at the top: %+v, inputs %v, scroll %d", res.Act, p.got(), p.scroll)
	}
	// A tap on something that commits nothing is never looked at.
	before := len(p.got())
	if _, err := a.Step(context.Background(), tapAt("Create a note titled n25 with the text x", 540, 600)); err != nil {
		t.Fatal(err)
	}
	if got := p.got()[before:]; len(got) != 1 || !strings.HasPrefix(got[0], "tap ") {
		t.Fatalf("a plain tap: %v", got)
	}
}

// saveTwiceIsRefused taps Save in the editor twice for task: the first
// tap is a commit, the second, with the same content, is refused and sends
// no input. It returns the first tap's result.
func saveTwiceIsRefused(t *testing.T, a *Activities, p *notesPhone, task string) StepResult {
	t.Helper()
	res, err := a.Step(context.Background(), tapAt(task, 540, 1180))
	if err != nil {
		t.Fatal(err)
	}
	if res.Act.Result != "ok" || res.Act.Commit == "" {
		t.Fatalf("the first Save: %+v", res.Act)
	}
	again, err := a.Step(context.Background(), tapAt(task, 540, 1180, res.Act.Commit))
	if err != nil {
		t.Fatal(err)
	}
	if again.Act.Refused == "" || taps(p.got()) != 1 {
		t.Fatalf("the second Save of the same note: %+v, inputs %v", again.Act, p.got())
	}
	return res
}

func TestSameCommitTwiceInOneTodoIsRefused(t *testing.T) {
	a, p := newNotes(t, 3)
	p.editor = []string{"n4", "x"}
	task := "Create a note titled n4 with the text x"
	res := saveTwiceIsRefused(t, a, p, task)
	// Other content, or a todo that asks for several, is a new commit.
	p.editor = []string{"n5", "x"}
	if r, _ := a.Step(context.Background(), tapAt(task, 540, 1180, res.Act.Commit)); r.Act.Refused != "" {
		t.Fatalf("other content refused: %+v", r.Act)
	}
	p.editor = []string{"n4", "x"}
	if r, _ := a.Step(context.Background(), tapAt("Create two notes titled n4 with the text x", 540, 1180, res.Act.Commit)); r.Act.Refused != "" {
		t.Fatalf("a todo asking for two refused: %+v", r.Act)
	}
}

// A commit control whose label is on a child (Compose: a textless
// clickable node around a described one, as Google Messages draws Send
// message) is a commit all the same: tapped twice with the same content,
// the second tap is refused.
func TestSameCommitTwiceThroughAComposeControlIsRefused(t *testing.T) {
	a, p := newNotes(t, 3)
	p.editor, p.composeSave = []string{"n4", "x"}, true
	saveTwiceIsRefused(t, a, p, "Create a note titled n4 with the text x")
}

func TestVerifyFindsTheNoteBelowTheFinalScreen(t *testing.T) {
	a, p := newNotes(t, 30)
	scr := Observation{App: "Notes", AppPackage: "com.example.notes", Width: 1080, Height: 2400}
	v, err := a.Verify(context.Background(), VerifyInput{Serial: "fake-1", Task: "Create a note titled n28 with the text x", Message: "Saved the note", Screen: scr})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != verify.Done || v.By != verify.ByProbe || v.Probes == 0 || !strings.Contains(v.Evidence, `"n28"`) {
		t.Fatalf("verdict %+v", v)
	}
	if taps(p.got()) != 0 || p.scroll != 0 {
		t.Fatalf("verification tapped or left the list moved: %v, scroll %d", p.got(), p.scroll)
	}
	// A note that is not on the phone is left to the verifier model.
	a.Executor = &fakeModel{answers: []any{`{"status":"failed","evidence":"no note n40 is listed"}`}}
	v, err = a.Verify(context.Background(), VerifyInput{Serial: "fake-1", Task: "Create a note titled n40 with the text x", Message: "Saved the note", Screen: scr})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != verify.Failed || v.By != verify.ByModel {
		t.Fatalf("verdict %+v", v)
	}
}

// A note saved at the end of a list as long as a phone that was filled
// and then soaked (160 notes) is found, and the list is put back.
func TestVerifyFindsTheNoteAtTheEndOfALongList(t *testing.T) {
	a, p := newNotes(t, 160)
	scr := Observation{App: "Notes", AppPackage: "com.example.notes", Width: 1080, Height: 2400}
	v, err := a.Verify(context.Background(), VerifyInput{Serial: "fake-1", Task: "Create a note titled n160 with the text x", Message: "Saved the note", Screen: scr})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != verify.Done || v.By != verify.ByProbe || !strings.Contains(v.Evidence, `"n160"`) {
		t.Fatalf("verdict %+v", v)
	}
	if taps(p.got()) != 0 || p.scroll != 0 {
		t.Fatalf("verification tapped or left the list moved: %v, scroll %d", p.got(), p.scroll)
	}
}

// dialogNotes is the Notes editor where a system dialog comes to the
// front as the first tap arrives and takes it (docs/design.md §15): the
// tap lands on the dialog, not on Save. sent says whether the first tap
// took effect anyway, shown as the note's title on the screen.
type dialogNotes struct {
	*notesPhone
	dialog, sent bool
}

func (p *dialogNotes) UITree(ctx context.Context) ([]uitree.Element, error) {
	p.mu.Lock()
	dialog, sent := p.dialog, p.sent
	p.mu.Unlock()
	if dialog {
		return []uitree.Element{
			{Class: "android.widget.TextView", Package: "android", Text: "Notes isn't responding", Bounds: uitree.Bounds{X1: 132, Y1: 900, X2: 948, Y2: 1000}},
			{Class: "android.widget.Button", Package: "android", Text: "Wait", Clickable: true, Bounds: uitree.Bounds{X1: 132, Y1: 1360, X2: 520, Y2: 1500}},
		}, nil
	}
	tree, err := p.notesPhone.UITree(ctx)
	if sent {
		tree = append(tree, uitree.Element{Class: "android.widget.TextView", Package: "com.example.notes", Text: p.editor[0], Bounds: uitree.Bounds{X1: 48, Y1: 200, X2: 1032, Y2: 280}})
	}
	return tree, err
}

func (p *dialogNotes) Tap(ctx context.Context, x, y int) error {
	p.mu.Lock()
	first := !p.dialog && len(p.inputs) == 0
	if first {
		p.dialog = true
	}
	p.mu.Unlock()
	return p.notesPhone.Tap(ctx, x, y)
}

// A commit tap that a system window met right after it is not counted
// as made while its content is still in its fields and shown no more
// often: tapped again once the dialog is gone, it reaches the phone. With
// any trace of it on the screen, the tap again is refused.
func TestCommitTapThatASystemWindowMetIsNotCountedWithoutATrace(t *testing.T) {
	for _, sent := range []bool{false, true} {
		a, np := newNotes(t, 0)
		np.editor = []string{"n4", "x"}
		p := &dialogNotes{notesPhone: np}
		a.Devices = dialogPool{p}
		task := "Create a note titled n4 with the text x"
		first := tapAt(task, 540, 1180)
		first.UITree = true
		res, err := a.Step(context.Background(), first)
		if err != nil {
			t.Fatal(err)
		}
		if res.Act.Result != "ok" || res.Act.Commit == "" {
			t.Fatalf("the Save a dialog met: %+v", res.Act)
		}
		p.mu.Lock()
		p.dialog, p.sent = false, sent
		p.mu.Unlock()
		again, err := a.Step(context.Background(), tapAt(task, 540, 1180, res.Act.Commit))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !sent && (again.Act.Refused != "" || taps(np.got()) != 2):
			t.Fatalf("nothing of the first Save is on the screen, yet the Save again was refused: %+v, inputs %v", again.Act, np.got())
		case sent && (again.Act.Refused == "" || taps(np.got()) != 1):
			t.Fatalf("the note's title shows once more since the first Save, yet it was tapped again: %+v, inputs %v", again.Act, np.got())
		}
	}
}

type dialogPool struct{ p *dialogNotes }

func (f dialogPool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f dialogPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

// A deleted note is gone only when the list past the screen's edge does
// not hold it either: element_absent is probed as element_exists is.
func TestVerifyLooksPastTheEdgeForAnAbsentNote(t *testing.T) {
	a, p := newNotes(t, 30)
	scr := Observation{App: "Notes", AppPackage: "com.example.notes", Width: 1080, Height: 2400}
	absent := func(text string) VerifyResult {
		t.Helper()
		v, err := a.Verify(context.Background(), VerifyInput{Serial: "fake-1", Task: "Delete the note " + text, Message: "Deleted the note",
			Screen: scr, Expect: []postcond.Check{{Kind: postcond.ElementAbsent, Text: text}}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := absent("n28"); v.Status != verify.Failed || v.Probes == 0 || !strings.Contains(v.Evidence, "still on the phone") {
		t.Fatalf("a note below the edge passed for deleted: %+v", v)
	}
	if v := absent("n40"); v.Status != verify.Done || !strings.Contains(v.Evidence, "past the screen's edge") {
		t.Fatalf("a note that is not on the phone: %+v", v)
	}
	if taps(p.got()) != 0 || p.scroll != 0 {
		t.Fatalf("verification tapped or left the list moved: %v, scroll %d", p.got(), p.scroll)
	}
}

// A finish decided before a pause is judged on the phone as it is after
// it: a person may have used the phone meanwhile (docs/design.md §9).
func TestVerifyObservesAgainAfterAWait(t *testing.T) {
	a, _ := newNotes(t, 5)
	// The screen the finish was decided on: n3 deleted, the list without it.
	before := Observation{App: "Notes", AppPackage: "com.example.notes", Width: 1080, Height: 2400, Hash: "old",
		TreeRef: tree(t, a, []uitree.Element{{Class: "android.widget.TextView", Text: "n1", Bounds: uitree.Bounds{X1: 0, Y1: 252, X2: 1080, Y2: 432}}})}
	in := VerifyInput{Serial: "fake-1", Task: "Delete the note n3", Message: "Deleted the note n3", Screen: before,
		Expect: []postcond.Check{{Kind: postcond.ElementAbsent, Text: "n3"}}}
	// On the old screen alone it would pass; the phone shows n3 now.
	if v, err := a.Verify(context.Background(), in); err != nil || v.Screen != nil {
		t.Fatalf("without a wait: %+v %v", v, err)
	}
	in.Reobserve = true
	v, err := a.Verify(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != verify.Failed || v.Screen == nil || v.Screen.TreeRef == before.TreeRef || !strings.Contains(v.Evidence, "observed again") ||
		!strings.Contains(v.Evidence, `"n3"`) {
		t.Fatalf("after a wait: %+v, want failed on the phone observed again", v)
	}
}

// Google Clock's "Add label" opens the label dialog: it starts like a
// commit but commits nothing, so the look before committing neither
// judges nor probes it; "Add alarm" and "Add contact" still commit.
func TestAddLabelOpensAFieldAndIsNoCommit(t *testing.T) {
	for label, commit := range map[string]bool{"Add label": false, "add a label": false, "添加备注": false,
		"Add alarm": true, "Add contact": true, "Add": true, "添加闹钟": true} {
		if got := commitRe.MatchString(label) && !opensFieldRe.MatchString(label); got != commit {
			t.Errorf("%q: a commit %v, want %v", label, got, commit)
		}
	}
}
