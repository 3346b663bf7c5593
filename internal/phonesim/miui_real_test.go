package phonesim

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The miui skin's 便签 editor, home screen and lock screen compared with
// the real Xiaomi dumps they follow (testdata/real/SOURCES.md) on what a
// check and a model read: where the title and text fields sit and what
// they are, the header's controls (described, not written; enabled or
// not), the tool row; the launcher's icons, dock, clock widget and search
// bar; the lock screen's clock, notification cards and bottom area.
// The Russian dumps give the shape; the skin's words are Chinese.

// ancestorIDs are the short resource ids of i's ancestors, nearest first.
func ancestorIDs(es []uitree.Element, i int) []string {
	par := uitree.Parents(es)
	var out []string
	for j := par[i]; j >= 0; j = par[j] {
		out = append(out, es[j].ShortID())
	}
	return out
}

func inside(es []uitree.Element, i int, id string) bool {
	for _, a := range ancestorIDs(es, i) {
		if a == id {
			return true
		}
	}
	return false
}

// noteEditorShape is what a check reads off 便签's editor.
type noteEditorShape struct {
	TitleClass, BodyClass           string
	FieldsShareParent, BodyBelow    bool
	FieldsIn                        string // the ids of the fields' ancestors, nearest first
	SameColumn, NoLineBetween       bool
	Header                          []string // ids of the header's controls, left to right
	HeaderDescribedOnly             bool
	UndoEnabled, RedoEnabled        bool
	DoneEnabled, HomeLeftOfTheTitle bool
	Tools                           string // ids of editor_mode_toolbar2's children
	ToolsDescribedOnly              bool
}

func noteEditorOf(t *testing.T, es []uitree.Element) noteEditorShape {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "note_title", byShortID("note_title"))
	bi := find(t, es, "rich_editor", byShortID("rich_editor"))
	title, body := es[ti], es[bi]
	s := noteEditorShape{
		TitleClass: title.Class, BodyClass: body.Class,
		FieldsShareParent: par[ti] == par[bi], BodyBelow: body.Bounds.Y1 >= title.Bounds.Y2 && body.Bounds.Y1-title.Bounds.Y2 < 60,
		FieldsIn:   strings.Join(ancestorIDs(es, ti)[:3], " < "),
		SameColumn: title.Bounds.X1 == body.Bounds.X1 && title.Bounds.X2 == body.Bounds.X2, NoLineBetween: true,
		HeaderDescribedOnly: true, ToolsDescribedOnly: true,
	}
	for i, e := range es {
		if i != ti && i != bi && e.Text != "" && e.Bounds.Y1 >= title.Bounds.Y2 && e.Bounds.Y2 <= body.Bounds.Y1 && e.Bounds.Y2 > e.Bounds.Y1 {
			s.NoLineBetween = false // a date or a count of characters between the fields
		}
		if !inside(es, i, "header") || !e.Clickable {
			continue
		}
		s.Header = append(s.Header, e.ShortID())
		if e.Text != "" || e.Desc == "" || e.ShortClass() != "ImageView" {
			s.HeaderDescribedOnly = false
		}
		switch e.ShortID() {
		case "undo":
			s.UndoEnabled = e.Enabled
		case "redo":
			s.RedoEnabled = e.Enabled
		case "done":
			s.DoneEnabled = e.Enabled
		case "home":
			s.HomeLeftOfTheTitle = e.Bounds.X2 <= title.Bounds.X2/2 && e.Bounds.Y2 <= title.Bounds.Y1
		}
	}
	bar := find(t, es, "editor_mode_toolbar2", byShortID("editor_mode_toolbar2"))
	var tools []string
	for j := bar + 1; j < uitree.SubtreeEnd(es, bar); j++ {
		if par[j] == bar {
			tools = append(tools, es[j].ShortID())
			if es[j].Text != "" || es[j].Desc == "" || !es[j].Clickable || es[j].ShortClass() != "ImageView" {
				s.ToolsDescribedOnly = false
			}
		}
	}
	s.Tools = strings.Join(tools, " ")
	return s
}

func TestMIUINoteEditorIsTheRealOne(t *testing.T) {
	want := noteEditorOf(t, realDump(t, "avito-miui-notes-editor-ru.xml"))
	if want.UndoEnabled || want.RedoEnabled || !want.DoneEnabled || strings.Join(want.Header, " ") != "home undo redo done" {
		t.Fatalf("the real editor reads %+v; the comparison is off", want)
	}
	p := New(Config{Skin: SkinMIUI})
	launch(t, p, pkgNotes)
	tapWhere(t, p, "content_add", byShortID("content_add"))
	tapWhere(t, p, "the title field", byShortID("note_title"))
	es := simDump(t, p)
	if got := noteEditorOf(t, es); !sameEditor(got, want) {
		t.Errorf("便签's editor = %+v\nthe real one = %+v", got, want)
	}
	// The words are Chinese: 返回, 撤销, 恢复, 完成编辑, the fields' hints.
	for id, desc := range map[string]string{"home": "返回", "undo": "撤销", "redo": "恢复", "done": miuiDoneDesc} {
		if e := es[find(t, es, id, byShortID(id))]; e.Desc != desc {
			t.Errorf("%s is described %q, want %q", id, e.Desc, desc)
		}
	}
	// Typing enables 撤销, which takes the words back and enables 恢复.
	typeADB(t, p, "周末")
	es = simDump(t, p)
	if !es[find(t, es, "undo", byShortID("undo"))].Enabled || es[find(t, es, "redo", byShortID("redo"))].Enabled {
		t.Fatal("after typing, 撤销 is disabled or 恢复 enabled")
	}
	tapWhere(t, p, "撤销", byShortID("undo"))
	es = simDump(t, p)
	if f := es[find(t, es, "note_title", byShortID("note_title"))]; f.Text != miuiTitleHint || !es[find(t, es, "redo", byShortID("redo"))].Enabled {
		t.Fatalf("after 撤销 the title is %q and 恢复 is not enabled", f.Text)
	}
	tapWhere(t, p, "恢复", byShortID("redo"))
	es = simDump(t, p)
	if f := es[find(t, es, "note_title", byShortID("note_title"))]; f.Text != "周末" {
		t.Fatalf("after 恢复 the title is %q", f.Text)
	}
	// A tap on a disabled control does nothing.
	p2 := New(Config{Skin: SkinMIUI})
	launch(t, p2, pkgNotes)
	tapWhere(t, p2, "content_add", byShortID("content_add"))
	before := p2.State()
	tapWhere(t, p2, "the disabled 撤销", byShortID("undo"))
	if after := p2.State(); after.Screen != before.Screen || len(after.Notes) != len(before.Notes) {
		t.Fatalf("a tap on the disabled 撤销 changed %+v to %+v", before.Screen, after.Screen)
	}
}

// sameEditor compares the shapes but for the header of a note opened
// from the list, the same controls in the same order.
func sameEditor(a, b noteEditorShape) bool {
	return a.TitleClass == b.TitleClass && a.BodyClass == b.BodyClass && a.FieldsShareParent == b.FieldsShareParent &&
		a.BodyBelow == b.BodyBelow && a.FieldsIn == b.FieldsIn && a.SameColumn == b.SameColumn && a.NoLineBetween == b.NoLineBetween &&
		strings.Join(a.Header, " ") == strings.Join(b.Header, " ") && a.HeaderDescribedOnly == b.HeaderDescribedOnly &&
		a.UndoEnabled == b.UndoEnabled && a.RedoEnabled == b.RedoEnabled && a.DoneEnabled == b.DoneEnabled &&
		a.HomeLeftOfTheTitle == b.HomeLeftOfTheTitle && a.Tools == b.Tools && a.ToolsDescribedOnly == b.ToolsDescribedOnly
}

// launcherIcon is what a check reads off a home screen icon.
type launcherIcon struct {
	Class, Text          string
	Clickable, InTheGrid bool
	Children             string // "class#id" of the children that show something, in order
	NamedBy              string // what in the subtree writes the name: "icon_title", or ""
}

func launcherIconOf(t *testing.T, es []uitree.Element, name string) launcherIcon {
	t.Helper()
	i := find(t, es, "the icon "+name, func(e uitree.Element) bool { return e.Desc == name && e.Clickable })
	e := es[i]
	ic := launcherIcon{Class: e.Class, Text: e.Text, Clickable: e.Clickable, InTheGrid: inside(es, i, "workspace")}
	var kids []string
	for j := i + 1; j < uitree.SubtreeEnd(es, i); j++ {
		k := es[j]
		if k.Bounds.X2 <= k.Bounds.X1 || k.Bounds.Y2 <= k.Bounds.Y1 {
			continue // korneo's dock titles have empty bounds: not shown
		}
		switch {
		case k.ShortID() == "icon_icon":
			kids = append(kids, k.ShortClass()+"#icon_icon")
			if k.Desc != name {
				kids[len(kids)-1] += "(described " + k.Desc + ")"
			}
		case k.Text == name:
			kids = append(kids, k.ShortClass()+"#"+k.ShortID())
			ic.NamedBy = k.ShortID()
		}
	}
	ic.Children = strings.Join(kids, " ")
	return ic
}

func TestMIUILauncherIsTheRealOne(t *testing.T) {
	real := realDump(t, "blackhole-miui-launcher-home-zh.xml")
	p := New(Config{Skin: SkinMIUI})
	sim := simDump(t, p)
	// A page's icon: the described RelativeLayout in the workspace, its
	// icon_icon, and the icon_title that writes the name.
	want := launcherIconOf(t, real, "便签")
	if want.Text != "" || want.NamedBy != "icon_title" || !want.InTheGrid {
		t.Fatalf("the real 便签 icon reads %+v; the comparison is off", want)
	}
	for _, name := range []string{"便签", "设置", "时钟", "联系人"} {
		if got := launcherIconOf(t, sim, name); got != want {
			t.Errorf("the %s icon = %+v\nthe real 便签 icon = %+v", name, got, want)
		}
	}
	// The dock: 短信 is only described, under and outside the workspace,
	// on all three phones.
	dock := launcherIconOf(t, real, "短信")
	if dock.NamedBy != "" || dock.InTheGrid || dock.Children != "ImageView#icon_icon" {
		t.Fatalf("the real dock's 短信 reads %+v; the comparison is off", dock)
	}
	for _, o := range []struct{ dump, name string }{{"lanaudio-miui-launcher-zh.xml", "短信"}, {"korneo-miui-launcher-ru.xml", "Телефон"}} {
		es := realDump(t, o.dump)
		i := find(t, es, o.dump+" "+o.name, func(e uitree.Element) bool { return e.Desc == o.name && e.Clickable })
		if inside(es, i, "workspace") || !inside(es, i, "hotseat") || !inside(es, i, "hotseat_content_screen") {
			t.Errorf("%s: %s is not in the hotseat beside the workspace", o.dump, o.name)
		}
	}
	if k := launcherIconOf(t, realDump(t, "korneo-miui-launcher-ru.xml"), "Камера"); k.NamedBy != "" || k.Children != "ImageView#icon_icon" {
		t.Errorf("korneo's dock Камера reads %+v", k)
	}
	if got := launcherIconOf(t, sim, "短信"); got != dock {
		t.Errorf("the dock's 短信 = %+v\nthe real one = %+v", got, dock)
	}
	if i := find(t, sim, "the dock's 短信", func(e uitree.Element) bool { return e.Desc == "短信" && e.Clickable }); !inside(sim, i, "hotseat_content_screen") || !inside(sim, i, "hotseat") {
		t.Errorf("the dock's 短信 is not in the hotseat: %v", ancestorIDs(sim, i))
	}
	for _, dump := range []struct {
		name string
		es   []uitree.Element
	}{{"real", real}, {"sim", sim}} {
		es := dump.es
		ws := es[find(t, es, dump.name+" workspace", byShortID("workspace"))]
		if ws.Class != "com.miui.home.launcher.ScreenView" || !ws.Scrollable {
			t.Errorf("%s workspace = %+v", dump.name, ws)
		}
		// The page's icons above the dock's.
		page := es[find(t, es, dump.name+" 便签", func(e uitree.Element) bool { return e.Desc == "便签" && e.Clickable })]
		d := es[find(t, es, dump.name+" 短信", func(e uitree.Element) bool { return e.Desc == "短信" && e.Clickable })]
		if d.Bounds.Y1 < page.Bounds.Y2 {
			t.Errorf("%s: the dock's 短信 %v is not under the page's icons %v", dump.name, d.Bounds, page.Bounds)
		}
		// The clock widget writes no time; a View is described by it as spoken.
		spoken := regexp.MustCompile(`^(上午|下午)\d{1,2}点\d{2}分$`)
		ci := find(t, es, dump.name+" clock", func(e uitree.Element) bool { return spoken.MatchString(e.Desc) })
		if c := es[ci]; c.Text != "" || c.ShortClass() != "View" || !inside(es, ci, "workspace") {
			t.Errorf("%s clock = %+v", dump.name, c)
		}
		clockText := regexp.MustCompile(`^\d{1,2}:\d{2}$`)
		for _, e := range es {
			if clockText.MatchString(e.Text) && e.Package == "com.miui.home" {
				t.Errorf("%s: the home screen writes the time %q", dump.name, e.Text)
			}
		}
		if sb := es[find(t, es, dump.name+" search_bar", byShortID("search_bar"))]; sb.Desc != "搜索框" || sb.ShortClass() != "FrameLayout" {
			t.Errorf("%s search bar = %+v", dump.name, sb)
		}
	}
	// The widget opens Clock; an icon its app.
	tapWhere(t, p, "the clock widget", func(e uitree.Element) bool { return strings.HasSuffix(e.Desc, "分") })
	if got := p.top().app; got != pkgClock {
		t.Errorf("the clock widget opened %s", got)
	}
}

// keyguardShape is what a check reads off a lock screen.
type keyguardShape struct {
	TimeID, DateID                string
	InTheClock, DateUnderTime     bool
	CardClass, CardIn             string
	CardClickable, TextUnderTitle bool
	TitleID, TextID               string
	CardPackage                   bool // the card's texts are the posting app's, not systemui's
	Bottom                        string
}

func keyguardOf(t *testing.T, es []uitree.Element, title string) keyguardShape {
	t.Helper()
	par := uitree.Parents(es)
	hhmm := regexp.MustCompile(`^\d{1,2}:\d{2}$`)
	ti := find(t, es, "current_time", func(e uitree.Element) bool { return e.ShortID() == "current_time" && hhmm.MatchString(e.Text) })
	di := find(t, es, "current_date", byShortID("current_date"))
	k := keyguardShape{TimeID: es[ti].ResourceID, DateID: es[di].ResourceID, InTheClock: inside(es, ti, "miui_keyguard_clock_container") && inside(es, di, "miui_keyguard_clock_container"),
		DateUnderTime: es[di].Bounds.Y1 >= es[ti].Bounds.Y2-10 && es[di].Bounds.Y1 > es[ti].Bounds.Y1}
	ni := find(t, es, "the notification "+title, byText(title))
	card := par[ni]
	for card >= 0 && !es[card].Clickable {
		card = par[card]
	}
	k.CardClass, k.CardClickable, k.CardIn, k.TitleID = es[card].Class, card >= 0, es[par[card]].ShortID(), es[ni].ResourceID
	for j := card + 1; j < uitree.SubtreeEnd(es, card); j++ {
		if es[j].ResourceID == "android:id/text" && es[j].Text != "" {
			k.TextID, k.TextUnderTitle = es[j].ResourceID, es[j].Bounds.Y1 >= es[ni].Bounds.Y2
			k.CardPackage = es[j].Package != "com.android.systemui" && es[ni].Package == es[j].Package
			break
		}
	}
	var bottom []string
	for j, e := range es {
		if inside(es, j, "keyguard_bottom_area") && e.ShortID() != "" && e.Bounds.Y2 > e.Bounds.Y1 {
			if e.ShortID() == "right_button" || e.ShortID() == "keyguard_indication_text" {
				bottom = append(bottom, e.ShortID())
			}
		}
	}
	k.Bottom = strings.Join(bottom, " ")
	return k
}

func TestMIUIKeyguardIsTheRealOne(t *testing.T) {
	real := realDump(t, "fbtest-miui-lockscreen-notifications-es.xml")
	want := keyguardOf(t, real, "Depuración USB activada")
	if !want.CardClickable || !want.TextUnderTitle || !want.InTheClock {
		t.Fatalf("the real lock screen reads %+v; the comparison is off", want)
	}
	// The dump's charging line has empty bounds: only the camera shows.
	if want.Bottom != "right_button" {
		t.Fatalf("the real bottom area shows %q", want.Bottom)
	}
	want.Bottom = "keyguard_indication_text right_button" // the simulator's hint is shown
	p := New(Config{Skin: SkinMIUI, Life: Life{Messages: time.Hour, ScreenTimeout: 30 * time.Second, Manual: true}})
	p.Advance(time.Minute)
	p.Receive("Alice Chen", "Are you up?")
	sh(t, p, "input keyevent 224")
	if !p.State().Locked {
		t.Fatal("the phone is not locked")
	}
	es := simDump(t, p)
	if got := keyguardOf(t, es, "Alice Chen"); got != want {
		t.Errorf("the MIUI lock screen = %+v\nthe real one = %+v", got, want)
	}
	if e := es[find(t, es, "right_button", byShortID("right_button"))]; e.Desc != "相机" || e.Text != "" {
		t.Errorf("right_button = %+v", e)
	}
	sh(t, p, "input swipe 540 1900 540 700 300")
	if p.State().Locked {
		t.Fatal("a swipe up did not dismiss the MIUI lock screen")
	}
}
