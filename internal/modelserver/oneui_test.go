package modelserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// One UI's screens as the real Samsung dumps show them
// (internal/phonesim/testdata/real/SOURCES.md), read by the verifier: a
// row's Switch says its state in its own text and is labelled by the row's
// title, never by the word; Samsung Messages' title is described by its own
// text, and names whom only when it is the person's name.

// oneuiRows is a One UI Connections page: Wi-Fi and Flight mode rows whose
// Switches say On or Off.
func oneuiRows(wifiWord string, wifiOn bool) []uitree.Listed {
	wifi := el("Switch", wifiWord, 870, 142, "clickable", "id=switch_widget")
	wifi.Checkable, wifi.Checked = true, wifiOn
	fm := el("Switch", "Off", 870, 217, "clickable", "id=switch_widget", "off")
	return []uitree.Listed{
		el("ImageButton", "", 60, 70, "clickable", "desc=Navigate up"),
		el("TextView", "Connections", 400, 70),
		el("Button", "", 958, 70, "clickable", "desc=Search"),
		el("LinearLayout", "", 500, 142, "clickable"),
		el("TextView", "Wi-Fi", 400, 131, "id=title"),
		el("TextView", "AndroidWifi", 400, 156, "id=summary"),
		wifi,
		el("LinearLayout", "", 500, 217, "clickable"),
		el("TextView", "Flight mode", 400, 217, "id=title"),
		fm,
	}
}

func TestVerifierReadsOneUISwitchWords(t *testing.T) {
	for _, c := range []struct {
		name  string
		elems []uitree.Listed
		task  string
		want  string
	}{
		{"Wi-Fi on", oneuiRows("On", true), "Turn on Wi-Fi", verify.Done},
		{"Wi-Fi off", oneuiRows("Off", false), "Turn on Wi-Fi", verify.Failed},
		{"Flight mode off", oneuiRows("On", true), "Turn on airplane mode", verify.Failed},
		// A look-alike: the word says On, the Switch is not checked.
		{"Wi-Fi saying On, unchecked", oneuiRows("On", false), "Turn on Wi-Fi", verify.Failed},
	} {
		obs := observation{App: "Settings", Package: "com.android.settings", Elems: c.elems}
		if v := judgeClaim(obs, c.task, "done"); v.Status != c.want {
			t.Errorf("%s: %q judged %s (%s), want %s", c.name, c.task, v.Status, v.Evidence, c.want)
		}
	}
}

func TestVerifierReadsSamsungComposerTitle(t *testing.T) {
	composer := func(title, titleDesc string) []uitree.Listed {
		return []uitree.Listed{
			el("ImageButton", "", 60, 70, "clickable", "desc=Navigate up"),
			el("TextView", title, 400, 70, "id=composer_title", "desc="+titleDesc),
			el("LinearLayout", "", 500, 300, "clickable", "id=bubble_text_view", "desc=hi, 12:00 pm, Sent"),
			el("TextView", "hi", 800, 300, "id=text_content"),
			el("EditText", "Enter message", 450, 900, "clickable", "id=message_edit_text"),
			el("FrameLayout", "", 920, 900, "clickable", "id=send_button_container"),
			el("ImageButton", "", 920, 900, "id=send_button1", "desc=Send"),
		}
	}
	for _, c := range []struct {
		name  string
		elems []uitree.Listed
		want  string
	}{
		{"Alice's composer", composer("Alice Chen", "Alice Chen"), verify.Done},
		{"Bob's composer", composer("Bob Li", "Bob Li"), verify.Failed},
		// A look-alike: a text naming Alice described as something else
		// (a received bubble's words) is not the conversation's title.
		{"Alice named in another's description", composer("Alice Chen", "Alice Chen said hi"), verify.Failed},
	} {
		obs := observation{App: "Messages", Package: "com.samsung.android.messaging", Elems: c.elems}
		if v := judgeClaim(obs, "Send Alice Chen a message saying hi", "done"); v.Status != c.want {
			t.Errorf("%s: judged %s (%s), want %s", c.name, v.Status, v.Evidence, c.want)
		}
	}
}

// realList is one of phonesim's real dumps as the executor is shown it.
func realList(t *testing.T, name string) []uitree.Listed {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "phonesim", "testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	es, err := uitree.ParseXML(b)
	if err != nil {
		t.Fatal(err)
	}
	return uitree.List(es, es[0].Bounds.X2, es[0].Bounds.Y2)
}

// On the real One UI home screen the persona taps an app's clickable
// icon_container, described by the name its TextView shows; on the real
// One UI Settings page it takes a row's Switch saying Włączono for the
// switch beside the row's title, and the bar's title for the page's.
func TestPersonaReadsRealOneUIScreens(t *testing.T) {
	c := solver{obs: observation{App: "Launcher", Elems: realList(t, "rentacar-samsung-launcher-home.xml")}}
	for _, app := range []string{"Messages", "Clock"} {
		icon := c.appIcon(app)
		if icon == nil || !icon.Clickable || icon.ID != "icon_container" || icon.Desc != app {
			t.Errorf("the %s icon on the real home screen: %+v", app, icon)
		}
	}
	if c.appIcon("Settings") != nil {
		t.Error("an icon for Settings, which the real page does not show")
	}
	s := solver{obs: observation{App: "Settings", Package: "com.android.settings", Elems: realList(t, "uiviewer-samsung-settings-developer-options-pl.xml")}}
	if !s.onPixelSettings() || s.pageTitle() != "Opcje programisty" {
		t.Errorf("the real page: on a Settings page %v, titled %q", s.onPixelSettings(), s.pageTitle())
	}
	title := s.byText("Pokaż dotknięcia")
	if sw := s.switchBeside(title); sw == nil || !sw.Checked || sw.Text != "Włączono" {
		t.Errorf("the switch beside Pokaż dotknięcia: %+v", sw)
	}
	if sw := s.switchBeside(s.byText("Pokaż zmiany powierzchni")); sw == nil || sw.Checked {
		t.Errorf("the switch beside Pokaż zmiany powierzchni: %+v", sw)
	}
	for _, ts := range titledSwitches(s.obs.Elems) {
		if stateWord(ts.label) {
			t.Errorf("a switch labelled by its state word %q", ts.label)
		}
	}
}
