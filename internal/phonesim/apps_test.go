package phonesim

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func sh(t *testing.T, p *Phone, line string) string {
	t.Helper()
	var out bytes.Buffer
	p.runShell(line, nil, &out)
	return out.String()
}

// element finds the on-screen element with the given text (or resource
// id suffix), failing the test when it is missing.
func element(t *testing.T, p *Phone, key string) uitree.Element {
	t.Helper()
	if e, ok := findElement(p, key); ok {
		return e
	}
	var texts []string
	for _, e := range p.UITree() {
		texts = append(texts, e.Text)
	}
	t.Fatalf("no element %q on screen; texts: %q", key, texts)
	return uitree.Element{}
}

func findElement(p *Phone, key string) (uitree.Element, bool) {
	for _, e := range p.UITree() {
		if e.Text == key || (e.ResourceID != "" && e.ShortID() == key) {
			return e, true
		}
	}
	return uitree.Element{}, false
}

func tapOn(t *testing.T, p *Phone, key string) {
	t.Helper()
	x, y := element(t, p, key).Bounds.Center()
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
}

func typeADB(t *testing.T, p *Phone, text string) {
	t.Helper()
	sh(t, p, "ime enable com.android.adbkeyboard/.AdbIME && ime set com.android.adbkeyboard/.AdbIME")
	out := sh(t, p, "am broadcast -a ADB_INPUT_B64 --es msg "+base64.StdEncoding.EncodeToString([]byte(text)))
	if out != "Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 }\nBroadcast completed: result=0\n" {
		t.Fatalf("broadcast output %q", out)
	}
}

func launch(t *testing.T, p *Phone, pkg string) {
	t.Helper()
	out := sh(t, p, "monkey -p "+p.pkg(pkg)+" -c android.intent.category.LAUNCHER 1")
	if !strings.Contains(out, "Events injected: 1") {
		t.Fatalf("monkey: %q", out)
	}
}

func TestLauncherIconOpensApp(t *testing.T) {
	p := New(Config{})
	for _, name := range []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"} {
		e := element(t, p, name)
		if !e.Clickable || e.ShortClass() != "TextView" {
			t.Errorf("icon %q: %+v", name, e)
		}
	}
	tapOn(t, p, "Clock")
	if st := p.State(); st.CurrentApp != p.pkg(pkgClock) || st.Screen.Page != pageAlarms {
		t.Fatalf("after tapping Clock: %+v", st.Screen)
	}
	sh(t, p, "input keyevent KEYCODE_HOME")
	if st := p.State(); st.CurrentApp != p.pkg(pkgLauncher) {
		t.Fatalf("home key: %s", st.CurrentApp)
	}
}

func TestSettingsToggles(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgSettings)
	wifi := element(t, p, "wifi_switch")
	if wifi.Text != "Wi-Fi" || !wifi.Checked || wifi.ShortClass() != "Switch" {
		t.Fatalf("wifi switch: %+v", wifi)
	}
	// Anywhere on the row toggles: tap near the left edge.
	sh(t, p, fmt.Sprintf("input tap 60 %d", (wifi.Bounds.Y1+wifi.Bounds.Y2)/2))
	if p.State().Toggles.WiFi {
		t.Fatal("Wi-Fi still on after tapping its row")
	}
	tapOn(t, p, "Bluetooth")
	if !p.State().Toggles.Bluetooth || !element(t, p, "bluetooth_switch").Checked {
		t.Fatal("Bluetooth not on after tap")
	}
	tapOn(t, p, "Wi-Fi")
	tapOn(t, p, "Airplane mode")
	if tg := p.State().Toggles; !tg.Airplane || tg.WiFi || tg.Bluetooth {
		t.Fatalf("airplane mode on must turn radios off: %+v", tg)
	}
	tapOn(t, p, "brightness_up")
	tapOn(t, p, "brightness_up")
	if st := p.State(); st.Brightness != 70 || element(t, p, "brightness_value").Text != "Brightness 70%" {
		t.Fatalf("brightness %d", st.Brightness)
	}
	for range 10 {
		tapOn(t, p, "brightness_down")
	}
	if b := p.State().Brightness; b != 0 {
		t.Fatalf("brightness floor: %d", b)
	}
	log := p.State().InputLog
	if len(log) == 0 || log[0].Kind != "launch" || log[1].Kind != "tap" || log[1].Seq != 2 || log[1].App != "Settings" {
		t.Fatalf("input log: %+v", log[:2])
	}
}

func TestToggleIsDrawn(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgSettings)
	thumb := func() [2]uint32 {
		b, ok, err := p.Screenshot()
		if err != nil || !ok {
			t.Fatalf("screenshot: %v %v", ok, err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		e := element(t, p, "wifi_switch")
		cy := (e.Bounds.Y1 + e.Bounds.Y2) / 2
		// The thumb sits at the right end of the track when on, at the left when off.
		r1, _, b1, _ := img.At(e.Bounds.X2-90, cy).RGBA()
		r2, _, b2, _ := img.At(e.Bounds.X2-190, cy).RGBA()
		return [2]uint32{r1<<16 | b1, r2<<16 | b2}
	}
	on := thumb()
	tapOn(t, p, "Wi-Fi")
	off := thumb()
	if on == off {
		t.Fatalf("switch looks the same on and off: %v", on)
	}
}

func TestScrollToAboutPhone(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgSettings)
	if _, ok := findElement(p, "About phone"); ok {
		t.Fatal("About phone visible without scrolling; it must be below the fold")
	}
	var list uitree.Element
	for _, e := range p.UITree() {
		if e.Scrollable {
			list = e
		}
	}
	if !list.Scrollable {
		t.Fatal("settings list is not scrollable")
	}
	sh(t, p, "input swipe 540 1800 540 600 500")
	about := element(t, p, "About phone")
	if about.Bounds.Y2 > 2400 || about.Bounds.Y1 < contentTop {
		t.Fatalf("About phone bounds %v off screen", about.Bounds)
	}
	// Rows scrolled under the app bar are clipped or gone.
	for _, e := range p.UITree() {
		if e.Depth == 2 && e.Bounds.Y1 < contentTop {
			t.Fatalf("row %q reported above the list: %v", e.Text, e.Bounds)
		}
	}
	tapOn(t, p, "About phone")
	for _, want := range []string{"Model: Pixel 7 (phonesim)", "Android version: 14", "Build number: PSIM.240101.001"} {
		element(t, p, want)
	}
	if st := p.State(); st.Screen.Page != pageAbout {
		t.Fatalf("page %q", st.Screen.Page)
	}
	sh(t, p, "input keyevent 4")
	if st := p.State(); st.Screen.Page != pageList {
		t.Fatalf("back: page %q", st.Screen.Page)
	}
}

func TestSendMessage(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgMessages)
	tapOn(t, p, "Start chat")
	tapOn(t, p, "Zhang San")
	if st := p.State(); st.Screen.Page != pageConversation || st.Screen.Detail != "Zhang San" {
		t.Fatalf("screen %+v", st.Screen)
	}
	edit := element(t, p, "compose_message_text")
	if edit.Text != "" || edit.Desc != "Text message" || edit.ShortClass() != "EditText" {
		t.Fatalf("compose field %+v", edit)
	}
	tapOn(t, p, "compose_message_text")
	if !element(t, p, "compose_message_text").Focused {
		t.Fatal("compose field not focused after tap")
	}
	typeADB(t, p, "会议改到下午两点")
	if got := element(t, p, "compose_message_text").Text; got != "会议改到下午两点" {
		t.Fatalf("field text %q", got)
	}
	tapOn(t, p, "Send")
	st := p.State()
	if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Zhang San" || st.MessagesSent[0].Text != "会议改到下午两点" {
		t.Fatalf("sent %+v", st.MessagesSent)
	}
	if seq := st.MessagesSent[0].Seq; st.InputLog[seq-1].Kind != "tap" {
		t.Fatalf("message seq %d does not point at the Send tap: %+v", seq, st.InputLog[seq-1])
	}
	if element(t, p, "compose_message_text").Text != "" {
		t.Fatal("field not cleared after send")
	}
	element(t, p, "会议改到下午两点") // shown in the conversation
	// Empty text sends nothing; input text (ASCII) types too.
	tapOn(t, p, "Send")
	sh(t, p, "input text 'see%syou'")
	tapOn(t, p, "Send")
	if sent := p.State().MessagesSent; len(sent) != 2 || sent[1].Text != "see you" {
		t.Fatalf("sent %+v", sent)
	}
}

func TestContactMessageButton(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgContacts)
	if e := element(t, p, "Zhang San"); e.Desc != "张三" {
		t.Fatalf("Zhang San desc %q", e.Desc)
	}
	tapOn(t, p, "Alice Chen")
	element(t, p, "+1 555 0101")
	tapOn(t, p, "Message")
	if st := p.State(); st.CurrentApp != p.pkg(pkgMessages) || st.Screen.Detail != "Alice Chen" {
		t.Fatalf("screen %+v", st.Screen)
	}
	sh(t, p, "input keyevent KEYCODE_BACK")
	if st := p.State(); st.CurrentApp != p.pkg(pkgContacts) || st.Screen.Page != pageDetail {
		t.Fatalf("back from conversation: %+v", st.Screen)
	}
}

func TestIMEWithoutADBKeyboard(t *testing.T) {
	p := New(Config{})
	if err := p.SetFault(Fault{Kind: FaultNoIME}); err != nil {
		t.Fatal(err)
	}
	if out := sh(t, p, "ime list -s -a"); strings.Contains(out, "adbkeyboard") {
		t.Fatalf("ime list shows the missing keyboard: %q", out)
	}
	if out := sh(t, p, "ime set com.android.adbkeyboard/.AdbIME"); !strings.Contains(out, "Unknown input method com.android.adbkeyboard/.AdbIME cannot be selected") {
		t.Fatalf("ime set: %q", out)
	}
	launch(t, p, pkgMessages)
	tapOn(t, p, "Mom")
	tapOn(t, p, "compose_message_text")
	sh(t, p, "am broadcast -a ADB_INPUT_TEXT --es msg hello")
	if got := element(t, p, "compose_message_text").Text; got != "" {
		t.Fatalf("text %q arrived without the ADB Keyboard", got)
	}
	if st := p.State(); st.IMEInstalled || st.InputMethod != imeLatin {
		t.Fatalf("state %v %s", st.IMEInstalled, st.InputMethod)
	}
	_ = p.SetFault(Fault{Kind: FaultClear})
	typeADB(t, p, "hi")
	if got := element(t, p, "compose_message_text").Text; got != "hi" {
		t.Fatalf("after clear: %q", got)
	}
	sh(t, p, "am broadcast -a ADB_CLEAR_TEXT")
	if got := element(t, p, "compose_message_text").Text; got != "" {
		t.Fatalf("after ADB_CLEAR_TEXT: %q", got)
	}
}

func TestCreateAlarm(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgClock)
	element(t, p, "07:00 Wake up")
	tapOn(t, p, "Add alarm")
	if e := element(t, p, "alarm_time"); e.Text != "Time" || e.Desc != "Time (HH:MM)" {
		t.Fatalf("time field %+v", e)
	}
	tapOn(t, p, "alarm_time")
	typeADB(t, p, "25:00")
	tapOn(t, p, "Save")
	element(t, p, "Invalid time")
	if n := len(p.State().Alarms); n != 2 {
		t.Fatalf("invalid time saved an alarm (%d alarms)", n)
	}
	sh(t, p, "am broadcast -a ADB_CLEAR_TEXT")
	typeADB(t, p, "06:45")
	tapOn(t, p, "alarm_label")
	typeADB(t, p, "Flight")
	tapOn(t, p, "Save")
	st := p.State()
	// The Clock app lists alarms by time of day: the new one comes first.
	if len(st.Alarms) != 3 || st.Alarms[0] != (Alarm{Time: "06:45", Label: "Flight", Enabled: true}) || st.Screen.Page != pageAlarms {
		t.Fatalf("alarms %+v on %q", st.Alarms, st.Screen.Page)
	}
	// The new row has its own switch.
	var sw uitree.Element
	for _, e := range p.UITree() {
		if e.ShortID() == "alarm_switch" && e.Desc == "06:45 Flight" {
			sw = e
		}
	}
	x, y := sw.Bounds.Center()
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	if p.State().Alarms[2].Enabled {
		t.Fatal("alarm switch did not turn the alarm off")
	}
}

func TestCreateAndEditNote(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgNotes)
	tapOn(t, p, "New note")
	tapOn(t, p, "note_title")
	typeADB(t, p, "Trip")
	tapOn(t, p, "note_body")
	typeADB(t, p, "Pack passport")
	tapOn(t, p, "Save")
	st := p.State()
	if len(st.Notes) != 2 || st.Notes[1] != (Note{Title: "Trip", Body: "Pack passport"}) {
		t.Fatalf("notes %+v", st.Notes)
	}
	tapOn(t, p, "Shopping list")
	if e := element(t, p, "note_body"); e.Text != "Milk, eggs, bread" {
		t.Fatalf("editor not filled: %+v", e)
	}
	tapOn(t, p, "note_body")
	typeADB(t, p, ", tea")
	tapOn(t, p, "Save")
	if n := p.State().Notes[0]; n.Body != "Milk, eggs, bread, tea" || n.Title != "Shopping list" {
		t.Fatalf("edited note %+v", n)
	}
}

func TestSecureScreen(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgBank)
	if out := sh(t, p, "screencap -p"); out != "" {
		t.Fatalf("secure screencap wrote %d bytes, want none", len(out))
	}
	if _, ok, err := p.Screenshot(); ok || err != nil {
		t.Fatalf("Screenshot on a secure screen: ok=%v err=%v", ok, err)
	}
	if e := element(t, p, "Sign in"); e.ShortClass() != "Button" {
		t.Fatalf("Sign in: %+v", e)
	}
	out := sh(t, p, "uiautomator dump /dev/tty")
	if !strings.Contains(out, `text="Sign in"`) || !strings.HasSuffix(out, "UI hierchary dumped to: /dev/tty\n") {
		t.Fatalf("uiautomator on secure screen: %q", out)
	}
}

func TestScreencapFaults(t *testing.T) {
	p := New(Config{})
	sh(t, p, "simctl fault screencap-fail 2")
	for i := range 2 {
		if out := sh(t, p, "screencap -p"); strings.HasPrefix(out, "\x89PNG") {
			t.Fatalf("screencap %d succeeded during screencap-fail", i)
		}
	}
	if out := sh(t, p, "screencap -p"); !strings.HasPrefix(out, "\x89PNG\r\n\x1a\n") {
		t.Fatal("third screencap still failing")
	}
	raw := sh(t, p, "screencap")
	if len(raw) != 16+1080*2400*4 || raw[0:4] != "\x38\x04\x00\x00" {
		t.Fatalf("raw screencap: %d bytes, header % x", len(raw), raw[:16])
	}
	if out := sh(t, p, "simctl fault bogus"); !strings.Contains(out, "unknown fault") {
		t.Fatalf("bogus fault: %q", out)
	}
}

func TestScreenDelayFault(t *testing.T) {
	p := New(Config{})
	if err := p.SetFault(Fault{Kind: FaultScreenDelay, Duration: 400 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	before, _, _ := p.Screenshot()
	tapOn(t, p, "Settings")
	if p.State().CurrentApp != pkgSettings {
		t.Fatal("state did not change at once")
	}
	shown, _, _ := p.Screenshot()
	if !bytes.Equal(before, shown) {
		t.Fatal("display changed before the screen delay")
	}
	if _, ok := findElement(p, "Wi-Fi"); ok {
		t.Fatal("uiautomator shows the new screen before the delay")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, _, _ := p.Screenshot()
		if !bytes.Equal(after, before) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("display never changed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	element(t, p, "Wi-Fi")
}

func TestSleepAndWake(t *testing.T) {
	p := New(Config{})
	sh(t, p, "input keyevent KEYCODE_POWER")
	if out := sh(t, p, "dumpsys power"); !strings.Contains(out, "mWakefulness=Asleep") || !strings.Contains(out, "Display Power: state=OFF") {
		t.Fatalf("dumpsys power asleep: %q", out)
	}
	b, _, _ := p.Screenshot()
	img, _ := png.Decode(bytes.NewReader(b))
	if r, g, bl, _ := img.At(540, 1200).RGBA(); r|g|bl != 0 {
		t.Fatal("sleeping screen is not black")
	}
	tapOn(t, p, "Settings")
	if p.State().CurrentApp != p.pkg(pkgLauncher) {
		t.Fatal("tap worked on a sleeping screen")
	}
	sh(t, p, "input keyevent KEYCODE_WAKEUP")
	if out := sh(t, p, "dumpsys power"); !strings.Contains(out, "mWakefulness=Awake") || !strings.Contains(out, "Display Power: state=ON") {
		t.Fatalf("dumpsys power awake: %q", out)
	}
}

func TestShellCommands(t *testing.T) {
	p := New(Config{Serial: "sim-9"})
	tests := []struct{ cmd, want string }{
		{"wm size", "Physical size: 1080x2400\n"},
		{"getprop ro.serialno", "sim-9\n"},
		{"getprop no.such.prop", "\n"},
		{"settings get secure default_input_method", imeLatin + "\n"},
		{"settings put secure default_input_method " + imeADB + "; settings get secure default_input_method", imeADB + "\n"},
		{"echo a; false && echo b || echo c", "a\nc\n"},
		{`echo "x \"y\"" 'z  w'`, "x \"y\" z  w\n"},
		{"echo hi > /sdcard/a.txt; echo there >> /sdcard/a.txt; cat /sdcard/a.txt", "hi\nthere\n"},
		{"cat /nope", "cat: /nope: No such file or directory\n"},
		{"ls /sdcard/Download", "readme.txt\n"},
		{"pm list packages -3", "package:com.example.notes\npackage:com.example.bank\npackage:com.android.adbkeyboard\n"},
		{"pm list packages settings", "package:com.android.settings\npackage:com.android.providers.settings\n"},
		{"monkey -p com.nope.app -c android.intent.category.LAUNCHER 1 2>/dev/null", ""},
		{"input keyevent KEYCODE_NOPE", "Error: Unknown keycode KEYCODE_NOPE\n"},
		{"foo bar", "/system/bin/sh: foo: inaccessible or not found\n"},
		{"echo 'unterminated", "/system/bin/sh: syntax error: unmatched quote\n"},
		{"dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'",
			"  mCurrentFocus=Window{" + objID(pkgLauncher+"w") + " u0 com.android.launcher3/com.android.launcher3.uioverrides.QuickstepLauncher}\n" +
				"  mFocusedApp=ActivityRecord{" + objID(pkgLauncher+"a") + " u0 com.android.launcher3/.uioverrides.QuickstepLauncher t10}\n"},
	}
	for _, tt := range tests {
		if got := sh(t, p, tt.cmd); got != tt.want {
			t.Errorf("%s\n got %q\nwant %q", tt.cmd, got, tt.want)
		}
	}
	if out := sh(t, p, "monkey -p com.nope.app -c android.intent.category.LAUNCHER 1"); !strings.HasSuffix(out, "** No activities found to run, monkey aborted.\n") {
		t.Errorf("monkey unknown package: %q", out)
	}
	launch(t, p, pkgSettings)
	if out := sh(t, p, "dumpsys window"); !strings.Contains(out, "mCurrentFocus=Window{") || !strings.Contains(out, " u0 com.android.settings/com.android.settings.Settings}") {
		t.Errorf("dumpsys window: %q", out)
	}
	sh(t, p, "uiautomator dump")
	xml := sh(t, p, "cat /sdcard/window_dump.xml")
	elems, err := uitree.ParseXML([]byte(xml))
	if err != nil || len(elems) < 5 {
		t.Fatalf("dump file: %v (%d elements)", err, len(elems))
	}
	var st State
	if err := json.Unmarshal([]byte(sh(t, p, "simctl state")), &st); err != nil || st.Serial != "sim-9" || st.CurrentApp != pkgSettings {
		t.Fatalf("simctl state: %v %+v", err, st)
	}
	sh(t, p, "simctl reset")
	if st := p.State(); st.CurrentApp != p.pkg(pkgLauncher) || len(st.InputLog) != 0 {
		t.Fatalf("after reset: %+v", st.Screen)
	}
}

func TestBoundsMatchDrawing(t *testing.T) {
	// Every clickable element's centre must land inside the drawn screen
	// and hit-test back to itself.
	p := New(Config{})
	for _, pkg := range []string{pkgLauncher, pkgSettings, pkgContacts, pkgMessages, pkgClock, pkgNotes, pkgBank} {
		launch(t, p, pkg)
		p.mu.Lock()
		s := p.screenNow()
		p.mu.Unlock()
		for i, w := range s.widgets {
			if !w.clickable {
				continue
			}
			cx, cy := w.bounds.Center()
			if !image.Pt(cx, cy).In(image.Rect(0, statusBarH, s.w, s.h)) {
				t.Errorf("%s: %q centre (%d,%d) off screen", pkg, w.text, cx, cy)
			}
			for j := len(s.widgets) - 1; j >= 0; j-- {
				o := s.widgets[j]
				if o.clickable && o.bounds.Contains(cx, cy) {
					if j != i {
						t.Errorf("%s: tap on %q centre hits %q", pkg, w.text, o.text)
					}
					break
				}
			}
		}
	}
}

func TestScreenshotsAreCachedAndDeterministic(t *testing.T) {
	a, b := New(Config{}), New(Config{})
	launch(t, a, pkgSettings)
	launch(t, b, pkgSettings)
	pa, _, _ := a.Screenshot()
	pb, _, _ := b.Screenshot()
	if !bytes.Equal(pa, pb) {
		t.Fatal("two phones in the same state drew different screenshots")
	}
	again, _, _ := a.Screenshot()
	if &again[0] != &pa[0] {
		t.Fatal("repeated screenshot of an unchanged screen was not served from the cache")
	}
}

func BenchmarkScreencap(b *testing.B) {
	for _, cached := range []bool{true, false} {
		b.Run(fmt.Sprintf("cached=%t", cached), func(b *testing.B) {
			p := New(Config{})
			p.runShell("monkey -p "+pkgSettings+" 1", nil, io.Discard)
			var n int
			for i := 0; b.Loop(); i++ {
				if !cached {
					p.Reset()
					p.mu.Lock()
					p.launch(pkgSettings)
					p.st.Brightness = i % 11 * 10
					p.rend.cache = map[uint64][]byte{}
					p.rend.order = nil
					p.mu.Unlock()
				}
				var out bytes.Buffer
				p.runShell("screencap -p", nil, &out)
				n = out.Len()
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
			b.SetBytes(int64(n))
		})
	}
}

func TestParseFault(t *testing.T) {
	tests := []struct {
		args []string
		want Fault
		ok   bool
	}{
		{[]string{"disconnect", "5"}, Fault{Kind: FaultDisconnect, Duration: 5 * time.Second}, true},
		{[]string{"offline", "2"}, Fault{Kind: FaultOffline, Duration: 2 * time.Second}, true},
		{[]string{"screencap-slow", "250"}, Fault{Kind: FaultScreencapSlow, Duration: 250 * time.Millisecond}, true},
		{[]string{"screencap-fail", "3"}, Fault{Kind: FaultScreencapFail, Count: 3}, true},
		{[]string{"screen-delay", "100"}, Fault{Kind: FaultScreenDelay, Duration: 100 * time.Millisecond}, true},
		{[]string{"no-ime"}, Fault{Kind: FaultNoIME}, true},
		{[]string{"clear"}, Fault{Kind: FaultClear}, true},
		{[]string{"disconnect"}, Fault{}, false},
		{[]string{"screencap-fail", "many"}, Fault{}, false},
		{[]string{"meteor"}, Fault{}, false},
		{nil, Fault{}, false},
	}
	for _, tt := range tests {
		got, err := ParseFault(tt.args)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseFault(%q) = %+v, %v", tt.args, got, err)
		}
	}
}

func TestShDashC(t *testing.T) {
	p := New(Config{})
	if got := sh(t, p, `sh -c 'echo a && wm size'`); got != "a\nPhysical size: 1080x2400\n" {
		t.Fatalf("sh -c: %q", got)
	}
}

func TestStartFleet(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var phones []*Phone
	var addrs []string
	var err error
	for range 20 { // retry if a neighbour grabbed port+2 meanwhile
		ln, lerr := net.Listen("tcp", "127.0.0.1:0")
		if lerr != nil {
			t.Fatal(lerr)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		phones, addrs, err = StartFleet(ctx, FleetConfig{Addr: fmt.Sprintf("127.0.0.1:%d", port), Phones: 2})
		if err == nil {
			if addrs[1] != fmt.Sprintf("127.0.0.1:%d", port+2) {
				t.Fatalf("second phone at %s, want port+2", addrs[1])
			}
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range addrs {
		h, m := dialHost(t, a, 4096)
		if !strings.Contains(string(m.Data), "device::") || phones[i].Serial() != a {
			t.Fatalf("phone %d: banner %q serial %q", i, m.Data, phones[i].Serial())
		}
		if got := h.shell("getprop ro.serialno"); got != a+"\n" {
			t.Fatalf("phone %d serial %q", i, got)
		}
	}
	if _, _, err := StartFleet(ctx, FleetConfig{Addr: addrs[0]}); err == nil || !strings.Contains(err.Error(), "--addr") {
		t.Fatalf("taken port: %v", err)
	}
}
