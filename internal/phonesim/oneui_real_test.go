package phonesim

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The oneui skin's screens against the real Samsung dumps they follow
// (testdata/real/SOURCES.md): what a check and a model read off Settings'
// switch rows and switch bar, Samsung Messages' list and composer,
// Samsung Notes' cards and One UI's home screen, asserted on both trees.

func oneuiPhone() *Phone { return New(Config{Skin: SkinOneUI}) }

// ancestor is the nearest element above i that match takes, -1 for none.
func ancestor(es []uitree.Element, par []int, i int, match func(uitree.Element) bool) int {
	for a := par[i]; a >= 0; a = par[a] {
		if match(es[a]) {
			return a
		}
	}
	return -1
}

func clickable(e uitree.Element) bool { return e.Clickable }

// oneuiRow is what a check reads off a One UI switch row: the row's
// shape (switchRowOf, the Switch's text aside) and whether that text is a
// state word that agrees with the Switch's checked attribute.
type oneuiRow struct {
	Row                           switchRow
	SwitchSaysState, StateMatches bool
}

func oneuiRowOf(t *testing.T, es []uitree.Element, title string) oneuiRow {
	t.Helper()
	r := oneuiRow{Row: switchRowOf(t, es, title)}
	word := map[string]bool{"On": true, "Off": false, "Włączono": true, "Wyłączono": false}
	on, ok := word[r.Row.SwitchText]
	r.SwitchSaysState = ok
	par := uitree.Parents(es)
	row := par[par[find(t, es, "title "+title, byText(title))]]
	for j := row + 1; j < uitree.SubtreeEnd(es, row); j++ {
		if e := es[j]; e.ShortClass() == "Switch" {
			r.StateMatches = ok && e.Checked == on
		}
	}
	r.Row.SwitchText = "" // compared by what it says
	return r
}

func switchCheck(label string, on bool) postcond.Check {
	return postcond.Check{Kind: postcond.Switch, Label: label, On: &on}
}

func holds(es []uitree.Element, c postcond.Check) bool {
	r := postcond.Eval([]postcond.Check{c}, postcond.Observed{Final: postcond.Screen{App: "Settings", AppPackage: "com.android.settings", Elements: es}})
	return r[0].Held
}

// A One UI switch row: the title and summary in a RelativeLayout of the
// clickable row, and in widget_frame a clickable Switch whose own text is
// the state word (the Polish dump's Włączono, One UI's On); a check reads
// the row's title as its label and never the state word.
func TestOneUISwitchRowsAreTheRealOnes(t *testing.T) {
	real := realDump(t, "uiviewer-samsung-settings-developer-options-pl.xml")
	want := oneuiRowOf(t, real, "Pokaż dotknięcia")
	if !want.SwitchSaysState || !want.StateMatches || !want.Row.SwitchClickable || !want.Row.RowClickable || !want.Row.SummaryBeside {
		t.Fatalf("the real row reads %+v; the comparison is off", want)
	}
	if !holds(real, switchCheck("Pokaż dotknięcia", true)) || holds(real, switchCheck("Włączono", true)) ||
		!holds(real, switchCheck("Pokaż zmiany powierzchni", false)) {
		t.Fatal("the checks misread the real rows")
	}
	p := oneuiPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Connections")
	es := simDump(t, p)
	for _, title := range []string{"Wi-Fi", "Flight mode"} {
		if got := oneuiRowOf(t, es, title); got != want {
			t.Errorf("%s row = %+v\nthe real Pokaż dotknięcia row = %+v", title, got, want)
		}
	}
	if !holds(es, switchCheck("Wi-Fi", true)) || !holds(es, switchCheck("Airplane mode", false)) || holds(es, switchCheck("Airplane mode", true)) {
		t.Error("the checks misread the simulator's Connections rows")
	}
	for _, word := range []string{"On", "Off"} {
		if holds(es, switchCheck(word, true)) || holds(es, switchCheck(word, false)) {
			t.Errorf("a check reads a switch labelled %q: the word is a Switch's state", word)
		}
	}
	// The Switch takes a tap of its own: Flight mode turns on.
	tapWhere(t, p, "Flight mode's switch", func(e uitree.Element) bool {
		fm := es[find(t, es, "Flight mode", byText("Flight mode"))]
		return e.ShortClass() == "Switch" && e.Bounds.Y1 < fm.Bounds.Y2 && e.Bounds.Y2 > fm.Bounds.Y1
	})
	if !p.State().Toggles.Airplane {
		t.Fatal("a tap on Flight mode's Switch did not turn it on")
	}
	es = simDump(t, p)
	if got := oneuiRowOf(t, es, "Flight mode"); got != want {
		t.Errorf("Flight mode row, on = %+v\nthe real row = %+v", got, want)
	}
	if !holds(es, switchCheck("Airplane mode", true)) {
		t.Error("the check does not read Flight mode on")
	}
	tapUp(t, p)
	tapOn(t, p, "Display")
	plain := want
	plain.Row.SummaryBeside = false // One UI's Adaptive brightness row has no summary
	if got := oneuiRowOf(t, simDump(t, p), "Adaptive brightness"); got != plain {
		t.Errorf("Adaptive brightness row = %+v\nthe real row = %+v", got, want)
	}
}

// oneuiBarShape is what a check reads off One UI's switch bar and the
// page's app bar.
type oneuiBarShape struct {
	TextID, Background, Bar           string
	BackgroundClickable, DescStated   bool
	SwitchID, SwitchClass             string
	SwitchTextIsTitleAndState         bool
	SwitchClickable, SwitchRightOfIt  bool
	UpClass, UpParent, TitleID        string
	TitleBesideUp, SearchInTheBar     bool
	BarDescribed                      bool
	CheckReadsTitle, CheckRefusesWord bool
}

func oneuiBarOf(t *testing.T, es []uitree.Element, title, state string) oneuiBarShape {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "switch text "+state, func(e uitree.Element) bool { return e.Text == state && e.ShortID() == "switch_text" })
	bg := par[ti]
	s := oneuiBarShape{TextID: es[ti].ResourceID, Background: es[bg].ResourceID, Bar: es[par[bg]].ResourceID, BackgroundClickable: es[bg].Clickable}
	s.DescStated = strings.HasPrefix(es[bg].Desc, title+", "+state+", ")
	for j := bg + 1; j < uitree.SubtreeEnd(es, bg); j++ {
		if e := es[j]; e.ShortClass() == "Switch" {
			s.SwitchID, s.SwitchClass, s.SwitchClickable = e.ResourceID, e.Class, e.Clickable
			s.SwitchTextIsTitleAndState = e.Text == title+", "+state && e.Checkable
			s.SwitchRightOfIt = e.Bounds.X1 >= es[ti].Bounds.X2
		}
	}
	up := find(t, es, "Navigate up", func(e uitree.Element) bool {
		return e.Clickable && e.ShortClass() == "ImageButton" && e.Bounds.Y2 <= es[bg].Bounds.Y1
	})
	s.UpClass, s.UpParent = es[up].Class, es[par[up]].ShortID()
	tt := find(t, es, "the page title "+title, func(e uitree.Element) bool { return e.Text == title && e.ShortClass() == "TextView" })
	s.TitleID = es[tt].ResourceID
	s.TitleBesideUp = par[tt] == par[up] && es[tt].Bounds.X1 >= es[up].Bounds.X2
	for j := par[up] + 1; j < uitree.SubtreeEnd(es, par[up]); j++ {
		if e := es[j]; e.ShortClass() == "Button" && e.Clickable && e.Desc != "" && e.Bounds.X1 > es[tt].Bounds.X2 {
			s.SearchInTheBar = true
		}
	}
	for _, e := range es {
		s.BarDescribed = s.BarDescribed || e.Desc == title && e.ShortClass() == "FrameLayout"
	}
	s.CheckReadsTitle = holds(es, switchCheck(title, true)) != holds(es, switchCheck(title, false))
	s.CheckRefusesWord = !holds(es, switchCheck(state, true)) && !holds(es, switchCheck(state, false))
	return s
}

func TestOneUISwitchBarIsTheRealOne(t *testing.T) {
	want := oneuiBarOf(t, realDump(t, "uiviewer-samsung-settings-developer-options-pl.xml"), "Opcje programisty", "Włączony")
	if !want.BackgroundClickable || !want.SwitchTextIsTitleAndState || want.TitleID != "" || !want.CheckReadsTitle || !want.CheckRefusesWord {
		t.Fatalf("the real bar reads %+v; the comparison is off", want)
	}
	p := oneuiPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Connections")
	tapOn(t, p, "Wi-Fi")
	es := simDump(t, p)
	if got := oneuiBarOf(t, es, "Wi-Fi", "On"); got != want {
		t.Errorf("the Wi-Fi page's bar = %+v\nthe real one = %+v", got, want)
	}
	if !holds(es, switchCheck("Wi-Fi", true)) || holds(es, switchCheck("Wi-Fi", false)) {
		t.Error("the check misreads the Wi-Fi bar")
	}
	tapOn(t, p, "On")
	if p.State().Toggles.WiFi {
		t.Fatal("a tap on the bar did not turn Wi-Fi off")
	}
	if got := oneuiBarOf(t, simDump(t, p), "Wi-Fi", "Off"); got != want {
		t.Errorf("the Wi-Fi page's bar, off = %+v\nthe real one = %+v", got, want)
	}
}

// convListShape is what a check reads off Samsung Messages' list.
type convListShape struct {
	ListID, RowClass, CardID       string
	SnippetBelow, TimeRight        bool
	Title, TitleID, ToolbarTitleID string
	TabID, TabDesc                 string
}

func convListOf(t *testing.T, es []uitree.Element, name, snippet string) convListShape {
	t.Helper()
	par := uitree.Parents(es)
	ni := find(t, es, "name "+name, func(e uitree.Element) bool {
		return e.ShortID() == "list_avatar_name" && strings.Contains(e.Text, name)
	})
	row := ancestor(es, par, ni, clickable)
	var s convListShape
	s.RowClass = es[row].Class
	s.CardID = es[row+1].ShortID()
	s.ListID = es[ancestor(es, par, ni, func(e uitree.Element) bool { return e.ShortClass() == "RecyclerView" })].ShortID()
	for j := row + 1; j < uitree.SubtreeEnd(es, row); j++ {
		switch e := es[j]; e.ShortID() {
		case "text_content":
			s.SnippetBelow = e.Text == snippet && e.Bounds.Y1 >= es[ni].Bounds.Y2
		case "list_time":
			s.TimeRight = e.Text != "" && e.Bounds.X1 >= es[ni].Bounds.X2
		}
	}
	ti := find(t, es, "the extended title", byShortID("collpasing_app_bar_extended_title"))
	s.Title = es[ti].Text
	s.TitleID = es[ti].ShortID()
	tb := find(t, es, "the toolbar's title", func(e uitree.Element) bool { return e.Text == s.Title && e.ResourceID == "" })
	s.ToolbarTitleID = es[tb].ResourceID
	tab := find(t, es, "the Conversations tab", byText("Conversations"))
	s.TabID, s.TabDesc = es[tab].ShortID(), es[tab].Desc
	return s
}

func TestOneUIConversationListIsTheRealOne(t *testing.T) {
	want := convListOf(t, realDump(t, "uiviewer-samsung-messages-list.xml"), "570532300", "Kkk")
	if want.Title != "Messages" || !want.SnippetBelow || !want.TimeRight || want.CardID != "card_view_list_item" {
		t.Fatalf("the real list reads %+v; the comparison is off", want)
	}
	p := oneuiPhone()
	tapOn(t, p, "Messages") // the hotseat's icon
	if got := convListOf(t, simDump(t, p), "Alice Chen", "Are we still on for lunch?"); got != want {
		t.Errorf("the simulator's list reads\n%+v\nthe real one\n%+v", got, want)
	}
}

// composerShape is what a check reads off Samsung Messages' composer.
type composerShape struct {
	FieldID, FieldClass, FieldText     string
	SendID, SendClass                  string
	SendEnabled, SendClickable         bool
	SendHolder, SendHolderClass        string
	SendHolderClickable, SendRight     bool
	SendIsCommit, FieldInPanel         bool
	TitleID                            string
	TitleDescribed, PlaceholderRefused bool
}

func composerOf(t *testing.T, es []uitree.Element, title string) composerShape {
	t.Helper()
	par := uitree.Parents(es)
	fi := find(t, es, "the message field", byShortID("message_edit_text"))
	si := find(t, es, "Send", byDesc("Send"))
	h := ancestor(es, par, si, clickable)
	s := composerShape{FieldID: es[fi].ShortID(), FieldClass: es[fi].Class, FieldText: es[fi].Text,
		SendID: es[si].ShortID(), SendClass: es[si].Class, SendEnabled: es[si].Enabled, SendClickable: es[si].Clickable,
		SendHolder: es[h].ShortID(), SendHolderClass: es[h].Class, SendHolderClickable: es[h].Clickable,
		SendRight: es[si].Bounds.X1 >= es[fi].Bounds.X2}
	s.SendIsCommit = postcond.IsCommitLabel(postcond.ControlLabel(es, h), []string{"Send"})
	s.FieldInPanel = ancestor(es, par, fi, func(e uitree.Element) bool { return e.ShortID() == "edit_panel" }) >= 0 &&
		ancestor(es, par, si, func(e uitree.Element) bool { return e.ShortID() == "edit_panel" }) >= 0
	ti := find(t, es, "the title", func(e uitree.Element) bool { return e.ShortID() == "composer_title" })
	s.TitleID, s.TitleDescribed = es[ti].ShortID(), es[ti].Text == title && es[ti].Desc == title
	// The field shows its hint: a check that it holds "Enter message" does
	// not hold.
	r := postcond.Eval([]postcond.Check{{Kind: postcond.FieldHolds, Field: "Enter message", Value: "Enter message"}},
		postcond.Observed{Final: postcond.Screen{App: "Messages", Elements: es}})
	s.PlaceholderRefused = !r[0].Held
	return s
}

func TestOneUIComposerIsTheRealOne(t *testing.T) {
	want := composerOf(t, realDump(t, "uiviewer-samsung-messages-list.xml"), "New conversation")
	if want.SendEnabled || want.SendClickable || !want.SendHolderClickable || !want.SendIsCommit || !want.TitleDescribed || !want.PlaceholderRefused {
		t.Fatalf("the real composer reads %+v; the comparison is off", want)
	}
	p := oneuiPhone()
	launch(t, p, pkgMessages)
	tapWhere(t, p, "Alice Chen", byText("Alice Chen"))
	if got := composerOf(t, simDump(t, p), "Alice Chen"); got != want {
		t.Errorf("the empty composer reads\n%+v\nthe real one\n%+v", got, want)
	}
	tapWhere(t, p, "the field", byShortID("message_edit_text"))
	sh(t, p, "input text 'See you at 6'")
	es := simDump(t, p)
	send := es[find(t, es, "Send", byDesc("Send"))]
	if !send.Enabled || uitree.List(es, 1080, 2400)[0].Disabled {
		t.Error("Send stays disabled with text in the field")
	}
	tapWhere(t, p, "Send", byDesc("Send"))
	if sent := p.State().MessagesSent; len(sent) != 1 || sent[0].Text != "See you at 6" {
		t.Fatalf("sent %+v", sent)
	}
	es = simDump(t, p)
	if got := composerOf(t, es, "Alice Chen"); got != want {
		t.Errorf("the composer after the send reads\n%+v\nthe real one\n%+v", got, want)
	}
	if postcond.LastOutgoing(es) != "See you at 6" {
		t.Errorf("the last sent message reads %q", postcond.LastOutgoing(es))
	}
}

// noteCardShape is what a check reads off a Samsung Notes card.
type noteCardShape struct {
	Card, CardClass, Parent, ListID string
	CardClickable, DescIsText       bool
	LinesMarked, TimeBelow          bool
	FabClass, FabID, FabDesc        string
	Title, CountSaysNotes           bool
	TextShown                       bool
}

func noteCardOf(t *testing.T, es []uitree.Element, text string) noteCardShape {
	t.Helper()
	par := uitree.Parents(es)
	ci := find(t, es, "the card's text", func(e uitree.Element) bool {
		return e.ShortID() == "inflate_content" && strings.HasPrefix(e.Text, "\u200e"+text)
	})
	card := ancestor(es, par, ci, clickable)
	s := noteCardShape{Card: es[card].ShortID(), CardClass: es[card].Class, Parent: es[par[card]].ShortID(), CardClickable: es[card].Clickable}
	s.ListID = es[ancestor(es, par, ci, func(e uitree.Element) bool { return e.Scrollable || e.ShortClass() == "RecyclerView" })].ShortID()
	s.DescIsText = strings.HasSuffix(es[card].Desc, strings.ReplaceAll(es[ci].Text, "\u200e", ""))
	s.LinesMarked = true
	for _, l := range strings.Split(es[ci].Text, "\n") {
		s.LinesMarked = s.LinesMarked && strings.HasPrefix(l, "\u200e")
	}
	for j := card + 1; j < uitree.SubtreeEnd(es, card); j++ {
		if e := es[j]; e.ShortID() == "modified_time" {
			s.TimeBelow = e.Text != "" && e.Bounds.Y1 >= es[ci].Bounds.Y2
		}
	}
	fab := es[find(t, es, "the fab", byShortID("fab"))]
	s.FabClass, s.FabID, s.FabDesc = fab.Class, fab.ShortID(), fab.Desc
	s.Title = es[find(t, es, "the title", byShortID("collpasing_app_bar_extended_title"))].Text == "All notes"
	sub := es[find(t, es, "the count", byShortID("collpasing_app_bar_extended_sub_title"))]
	s.CountSaysNotes = strings.HasSuffix(sub.Text, " notes") || sub.Text == "1 note"
	r := postcond.Eval([]postcond.Check{{Kind: postcond.ElementExists, Text: text}}, postcond.Observed{Final: postcond.Screen{App: "Notes", Elements: es}})
	s.TextShown = r[0].Held
	return s
}

func TestOneUINotesListIsTheRealOne(t *testing.T) {
	want := noteCardOf(t, realDump(t, "uiviewer-samsung-notes-list.xml"), "Class singleto")
	if want.FabDesc != "Create" || !want.LinesMarked || !want.DescIsText || !want.TextShown || want.Card != "root_cardview" {
		t.Fatalf("the real list reads %+v; the comparison is off", want)
	}
	if multi := noteCardOf(t, realDump(t, "uiviewer-samsung-notes-list.xml"), "App  version"); !multi.LinesMarked || !multi.DescIsText {
		t.Fatalf("the real seven-line card reads %+v", multi)
	}
	p := oneuiPhone()
	p.st.Notes = append(p.st.Notes, Note{Body: "Pack\nPassport"})
	launch(t, p, pkgNotes)
	es := simDump(t, p)
	for _, text := range []string{"Milk, eggs, bread", "Pack"} {
		if got := noteCardOf(t, es, text); got != want {
			t.Errorf("the %q card reads\n%+v\nthe real one\n%+v", text, got, want)
		}
	}
	tapWhere(t, p, "Create", byDesc("Create"))
	if s := p.State().Screen; s.Page != pageEditor {
		t.Fatalf("Create opened %+v", s)
	}
}

// iconShape is what a model reads off a One UI launcher icon.
type iconShape struct {
	LabelID, LabelClass                string
	LabelClickable                     bool
	Holder, HolderClass, HolderDesc    string
	HolderClickable, InHotseat, OnPage bool
}

func iconOf(t *testing.T, es []uitree.Element, label string) iconShape {
	t.Helper()
	par := uitree.Parents(es)
	li := find(t, es, "icon "+label, func(e uitree.Element) bool { return e.Text == label && e.ShortID() == "icon" })
	h := par[li]
	s := iconShape{LabelID: es[li].ShortID(), LabelClass: es[li].Class, LabelClickable: es[li].Clickable,
		Holder: es[h].ShortID(), HolderClass: es[h].Class, HolderDesc: es[h].Desc, HolderClickable: es[h].Clickable}
	s.InHotseat = ancestor(es, par, li, func(e uitree.Element) bool { return e.ShortID() == "hotseat_layout" }) >= 0
	s.OnPage = ancestor(es, par, li, func(e uitree.Element) bool { return strings.HasPrefix(e.Desc, "Home screen Page 1 of ") }) >= 0
	return s
}

func TestOneUIHomeIconsAreTheRealOnes(t *testing.T) {
	real := realDump(t, "rentacar-samsung-launcher-home.xml")
	wantPage, wantSeat := iconOf(t, real, "Clock"), iconOf(t, real, "Messages")
	if wantPage.HolderDesc != "Clock" || wantPage.LabelClickable || !wantPage.HolderClickable || !wantPage.OnPage || !wantSeat.InHotseat {
		t.Fatalf("the real icons read %+v and %+v; the comparison is off", wantPage, wantSeat)
	}
	es := simDump(t, oneuiPhone())
	if got := iconOf(t, es, "Clock"); got != wantPage {
		t.Errorf("the Clock icon reads %+v\nthe real one %+v", got, wantPage)
	}
	wantSeat.HolderDesc = "Messages"
	if got := iconOf(t, es, "Messages"); got != wantSeat {
		t.Errorf("the Messages icon reads %+v\nthe real one %+v", got, wantSeat)
	}
	p := oneuiPhone()
	tapOn(t, p, "Clock")
	if s := p.State().Screen; s.App != "Clock" {
		t.Fatalf("a tap on the Clock label opened %+v", s)
	}
}
