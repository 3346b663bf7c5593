package postcond

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The vendor note editors as the simulator draws them
// (internal/phonesim/layout_vendor_notes.go): 便签's 返回 and 完成编辑 over
// note_title and rich_editor, Samsung Notes' Navigate up over two fields
// with no ids.
func miuiEditor(title, body string, reading bool) []uitree.Element {
	b := func(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2} }
	es := []uitree.Element{
		{Class: "android.widget.FrameLayout", Bounds: b(0, 0, 1080, 2400)},
		{Class: "android.widget.ImageView", ResourceID: "com.miui.notes:id/home", Desc: "返回", Clickable: true, Depth: 1, Bounds: b(0, 84, 144, 252)},
	}
	if reading {
		es = append(es, uitree.Element{Class: "android.widget.ImageView", Desc: "分享", Clickable: true, Depth: 1, Bounds: b(812, 104, 916, 232)})
	} else {
		es = append(es, uitree.Element{Class: "android.widget.ImageView", ResourceID: "com.miui.notes:id/done", Desc: "完成编辑", Clickable: true, Depth: 1, Bounds: b(956, 104, 1060, 232)})
	}
	field := func(id, hint, text string, y1, y2 int) uitree.Element {
		shown := text
		if shown == "" {
			shown = hint
		}
		return uitree.Element{Class: "android.widget.EditText", ResourceID: "com.miui.notes:id/" + id, Text: shown, Hint: hint, Clickable: true, Depth: 1, Bounds: b(48, y1, 1032, y2)}
	}
	return append(es, field("note_title", "标题", title, 272, 412), field("rich_editor", "开始书写", body, 512, 2060))
}

func oneuiEditor(title, body string) []uitree.Element {
	b := func(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2} }
	t := title
	if t == "" {
		t = "Title"
	}
	return []uitree.Element{
		{Class: "android.widget.FrameLayout", Bounds: b(0, 0, 1080, 2400)},
		{Class: "android.widget.ImageButton", Desc: "Navigate up", Clickable: true, Depth: 1, Bounds: b(0, 84, 144, 252)},
		{Class: "android.widget.ImageView", Desc: "More options", Clickable: true, Depth: 1, Bounds: b(936, 104, 1056, 232)},
		{Class: "android.widget.EditText", Text: t, Hint: "Title", Clickable: true, Depth: 1, Bounds: b(48, 272, 1032, 412)},
		{Class: "android.widget.EditText", Text: body, Clickable: true, Depth: 1, Bounds: b(48, 432, 1032, 2060)},
	}
}

// Leaving a filled 便签 or Samsung Notes editor saves it, so a Back there
// is judged as the save; 完成编辑 is a commit of its own; a saved 便签 note
// opened for reading and left by a todo that does not name it is not.
func TestVendorNoteEditorsSaveOnLeaving(t *testing.T) {
	labels := DefaultCommitLabels
	miui := miuiEditor("周末", "买菜", false)
	if i, ok := BackSaves("新建笔记周末，内容是买菜", miui, labels); !ok || miui[i].Desc != "返回" {
		t.Fatalf("a Back from the filled 便签 editor: %d, %v", i, ok)
	}
	if !IsCommit(miui[2], labels) {
		t.Fatal("完成编辑 is not a commit control")
	}
	if _, ok := BackSaves("新建笔记周末", miuiEditor("", "", false), labels); ok {
		t.Fatal("a Back from an empty editor is judged as a save")
	}
	reading := miuiEditor("Shopping list", "Milk, eggs, bread", true)
	if _, ok := BackSaves("Delete the note Trip", reading, labels); ok {
		t.Fatal("a Back from a saved note opened by mistake is judged as a save")
	}
	if _, ok := BackSaves("Add butter to the note Shopping list", reading, labels); !ok {
		t.Fatal("a Back from the note the todo names is not judged")
	}
	samsung := oneuiEditor("Trip", "Passport")
	if i, ok := BackSaves("note Trip: Passport", samsung, labels); !ok || samsung[i].Desc != "Navigate up" {
		t.Fatalf("a Back from the filled Samsung Notes editor: %d, %v", i, ok)
	}
	// A conversation's draft with 返回 and a Send is not an editor that
	// saves on leaving.
	msg := []uitree.Element{
		{Class: "android.widget.FrameLayout", Bounds: uitree.Bounds{X2: 1080, Y2: 2400}},
		{Class: "android.widget.ImageButton", Desc: "返回", Clickable: true, Depth: 1, Bounds: uitree.Bounds{Y1: 84, X2: 144, Y2: 252}},
		{Class: "android.widget.EditText", Text: "明天见", Hint: "短信", Clickable: true, Depth: 1, Bounds: uitree.Bounds{X1: 24, Y1: 2060, X2: 820, Y2: 2220}},
		{Class: "android.widget.Button", Text: "发送", Clickable: true, Depth: 1, Bounds: uitree.Bounds{X1: 844, Y1: 2060, X2: 1056, Y2: 2220}},
	}
	if _, ok := BackSaves("Send Alice 明天见", msg, labels); ok {
		t.Fatal("a Back from a 短信 draft is judged as a save")
	}
}

// A note's text is read from the vendor editors as from Keep's: 便签's by
// its hint 开始书写, Samsung Notes' as the field below the title; one saved
// with the wrong text does not pass.
func TestVendorNoteBodyIsRead(t *testing.T) {
	for name, es := range map[string][]uitree.Element{
		"miui":  miuiEditor("Trip", "passport, charger", false),
		"oneui": oneuiEditor("Trip", "passport, charger"),
	} {
		for _, c := range []struct {
			want string
			held bool
		}{{"passport", true}, {"sunscreen", false}} {
			r := Eval([]Check{{Kind: FieldHolds, Field: "Body", Value: c.want}}, Observed{Final: Screen{App: "Notes", Elements: es}})
			if r[0].Held != c.held {
				t.Errorf("%s: body holds %q = %v (%s)", name, c.want, r[0].Held, r[0].Evidence)
			}
		}
		if _, v := FieldValue(es, "Title"); v != "Trip" {
			t.Errorf("%s: the title reads %q", name, v)
		}
	}
	// An empty Samsung Notes editor: the title shows its hint, holds nothing.
	if _, v := FieldValue(oneuiEditor("", ""), "Title"); v != "" {
		t.Errorf("an empty title reads %q", v)
	}
}

// 便签's list is titled 便签 and a page's way up is described 返回: checks
// written with "Notes" and "Navigate up" read them.
func TestMIUIWordsForListAndUp(t *testing.T) {
	es := []uitree.Element{
		{Class: "android.widget.FrameLayout", Bounds: uitree.Bounds{X2: 1080, Y2: 2400}},
		{Class: "android.widget.TextView", Text: "便签", Depth: 1, Bounds: uitree.Bounds{X1: 48, Y1: 84, X2: 1032, Y2: 252}},
		{Class: "android.widget.ImageButton", Desc: "返回", Clickable: true, Depth: 1, Bounds: uitree.Bounds{Y1: 84, X2: 144, Y2: 252}},
	}
	r := Eval([]Check{{Kind: ElementExists, Text: "Notes"}, {Kind: ElementExists, Text: "Navigate up"}}, Observed{Final: Screen{App: "Notes", Elements: es}})
	if !AllHeld(r) {
		t.Fatal(Summary(r))
	}
}

// A note saved with words other than those the todo quotes is refused on
// the vendor editors too, whose body field is not named body: 便签's
// rich_editor (read by its hint) and Samsung Notes' field without an id,
// for 完成编辑, 返回 and Navigate up alike.
func TestVendorNoteSavedWithOtherWordsIsRefused(t *testing.T) {
	task := `Create a note titled "Ideas" saying "周五交报告"`
	for _, c := range []struct {
		name    string
		es      func(body string) []uitree.Element
		control int
	}{
		{"miui 完成编辑", func(b string) []uitree.Element { return miuiEditor("Ideas", b, false) }, 2},
		{"miui 返回", func(b string) []uitree.Element { return miuiEditor("Ideas", b, false) }, 1},
		{"oneui Navigate up", func(b string) []uitree.Element { return oneuiEditor("Ideas", b) }, 1},
	} {
		wrong := c.es("ok")
		if why := WrongTarget(Target{Task: task, Control: wrong[c.control], Elements: wrong}); why == "" {
			t.Errorf("%s: the note saved with \"ok\" is not refused", c.name)
		}
		right := c.es("周五交报告")
		if why := WrongTarget(Target{Task: task, Control: right[c.control], Elements: right}); why != "" {
			t.Errorf("%s: the right note is refused: %s", c.name, why)
		}
	}
}
