package phonesim

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// livePhone is a phone whose Life moves only with Advance.
func livePhone(seed uint64) *Phone {
	return New(Config{Life: Life{Seed: seed, Messages: 40 * time.Second, Dialogs: 3 * time.Minute, ScreenTimeout: time.Minute, Manual: true}})
}

// walk advances a phone's clock in 5 s steps for d, tapping the middle of
// the screen every 20 s in the first half (then the screen times out), and
// returns a screenshot of each step.
func walk(t *testing.T, p *Phone, d time.Duration) [][]byte {
	t.Helper()
	var shots [][]byte
	for i := range int(d / (5 * time.Second)) {
		p.Advance(5 * time.Second)
		if i%4 == 0 && time.Duration(i)*5*time.Second < d/2 {
			sh(t, p, "input tap 540 900")
		}
		png, _, err := p.Screenshot()
		if err != nil {
			t.Fatal(err)
		}
		shots = append(shots, png)
	}
	return shots
}

func TestLifeSameSeedSameScreens(t *testing.T) {
	a, b, c := livePhone(7), livePhone(7), livePhone(8)
	sa, sb, sc := walk(t, a, 6*time.Minute), walk(t, b, 6*time.Minute), walk(t, c, 6*time.Minute)
	ea, eb, ec := a.LifeEvents(), b.LifeEvents(), c.LifeEvents()
	if len(ea) < 5 {
		t.Fatalf("6 minutes of life with a message every ~40 s made only %d events: %+v", len(ea), ea)
	}
	if !slices.Equal(ea, eb) {
		t.Errorf("same seed, different events:\n%+v\n%+v", ea, eb)
	}
	for i := range sa {
		if !bytes.Equal(sa[i], sb[i]) {
			t.Fatalf("same seed and inputs, screenshot %d differs", i)
		}
	}
	if slices.Equal(ea, ec) && slices.EqualFunc(sa, sc, bytes.Equal) {
		t.Error("seeds 7 and 8 gave the same life")
	}
	kinds := map[string]int{}
	for _, e := range ea {
		kinds[e.Kind]++
	}
	if kinds["message"] == 0 || kinds["screen_off"] != 1 {
		t.Errorf("seed 7, 6 minutes, no input in the last 3: events %v, want messages and one screen_off", kinds)
	}
}

func TestLifeClockTicks(t *testing.T) {
	p := New(Config{Life: Life{Messages: time.Hour, Manual: true}})
	if e := element(t, p, "clock"); e.Text != "09:00" {
		t.Fatalf("launcher clock at start = %q, want 09:00", e.Text)
	}
	p.Advance(61 * time.Second)
	if e := element(t, p, "clock"); e.Text != "09:01" {
		t.Fatalf("launcher clock after 61 s = %q, want 09:01", e.Text)
	}
	if q := New(Config{}); element(t, q, "clock").Text != "12:00" {
		t.Fatal("a phone without Life must keep showing 12:00")
	}
}

func TestLifeMessageBanner(t *testing.T) {
	p := New(Config{Life: Life{Messages: time.Hour, Manual: true}})
	launch(t, p, pkgMessages)
	before, _, _ := p.Screenshot()
	p.Receive("Mom", "Dinner at 7?")
	st := p.State()
	if len(st.Notifications) != 1 || st.Notifications[0].From != "Mom" || st.Notifications[0].Read {
		t.Fatalf("notifications after a message: %+v", st.Notifications)
	}
	banner := element(t, p, "expandableNotificationRow")
	if banner.Package != pkgSystemUI || !banner.Clickable || banner.Desc != "Dinner at 7?" {
		t.Fatalf("heads-up banner element %+v", banner)
	}
	if e := element(t, p, "Dinner at 7?"); e.ResourceID != idHeadsUpText {
		t.Fatalf("banner text element %+v", e)
	}
	after, _, _ := p.Screenshot()
	if bytes.Equal(before, after) {
		t.Fatal("the banner does not show in the screenshot")
	}
	// The conversation moved to the top of the list, under the banner.
	rows := rowsOf(p)
	if rows[0] != "Mom" {
		t.Fatalf("conversation list after Mom wrote: %q", rows)
	}
	p.Advance(6 * time.Second)
	if _, ok := findElement(p, "expandableNotificationRow"); ok {
		t.Fatal("the banner is still there after its 5 s")
	}
	// A tap where the banner was now hits the list.
	p.Receive("Bob Li", "Slides are up")
	tapOn(t, p, "expandableNotificationRow")
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "Bob Li" {
		t.Fatalf("a tap on Bob's banner opened %+v", s)
	}
	for _, n := range p.State().Notifications {
		if n.From == "Bob Li" && !n.Read {
			t.Fatalf("Bob's notification unread after his conversation opened: %+v", n)
		}
	}
	// A message in the open conversation posts nothing.
	p.Receive("Bob Li", "See you")
	if _, ok := findElement(p, "expandableNotificationRow"); ok || len(p.State().Notifications) != 2 {
		t.Fatalf("a message in the open conversation showed a banner or posted: %+v", p.State().Notifications)
	}
	element(t, p, "See you")
	// A swipe up on a banner dismisses it without touching the app.
	p.Receive("Alice Chen", "Hi")
	sh(t, p, "input swipe 540 250 540 100 200")
	if _, ok := findElement(p, "expandableNotificationRow"); ok {
		t.Fatal("a swipe up on the banner left it")
	}
	if s := p.State().Screen; s.Detail != "Bob Li" {
		t.Fatalf("dismissing the banner changed the screen to %+v", s)
	}
}

func rowsOf(p *Phone) []string {
	var out []string
	for _, e := range p.UITree() {
		if e.Depth == 2 && e.Clickable {
			out = append(out, e.Text)
		}
	}
	return out
}

func TestLifeDialogTakesFocus(t *testing.T) {
	p := New(Config{Life: Life{Dialogs: time.Minute, Manual: true}})
	launch(t, p, pkgSettings)
	x, y := element(t, p, "wifi_switch").Bounds.Center()
	p.Advance(2 * time.Minute)
	st := p.State()
	if st.Dialog == "" {
		t.Fatalf("no dialog after two minutes at one a minute; events %+v", st.Events)
	}
	out := sh(t, p, "dumpsys window")
	if strings.Contains(out, "mCurrentFocus=Window{"+objID(pkgSettings+"w")) {
		t.Fatalf("the app keeps the focus under a system dialog:\n%s", out)
	}
	wifi := st.Toggles.WiFi
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	if p.State().Toggles.WiFi != wifi {
		t.Fatal("a tap went through the system dialog to the switch under it")
	}
	if e := element(t, p, "button2"); e.Package == pkgSettings {
		t.Fatalf("dialog button belongs to the app: %+v", e)
	}
	if _, ok := findElement(p, "wifi_switch"); ok {
		t.Fatal("the UI dump holds the app's window under a focused system dialog; uiautomator dumps the focused window")
	}
	sh(t, p, "input keyevent 4")
	if d := p.State().Dialog; d != "" || p.State().CurrentApp != pkgSettings {
		t.Fatalf("after Back: dialog %q, app %s", d, p.State().CurrentApp)
	}
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	if p.State().Toggles.WiFi == wifi {
		t.Fatal("the switch does not flip once the dialog is closed")
	}
}

func TestLifeScreenTimeoutKeyguard(t *testing.T) {
	p := New(Config{Life: Life{ScreenTimeout: 30 * time.Second, Manual: true}})
	launch(t, p, pkgNotes)
	p.Advance(20 * time.Second)
	sh(t, p, "input tap 10 10") // input keeps the screen on
	p.Advance(20 * time.Second)
	if st := p.State(); !st.Awake || st.Locked {
		t.Fatalf("screen went off 20 s after an input with a 30 s timeout: %+v", st)
	}
	p.Advance(11 * time.Second)
	if st := p.State(); st.Awake || !st.Locked {
		t.Fatalf("screen still on 31 s after the last input: awake %t locked %t", st.Awake, st.Locked)
	}
	if out := sh(t, p, "uiautomator dump /dev/tty"); !strings.Contains(out, "null root node") {
		t.Fatalf("uiautomator dump of a dark screen: %q", out)
	}
	if out := sh(t, p, "dumpsys power"); !strings.Contains(out, "mWakefulness=Asleep") {
		t.Fatalf("dumpsys power of a dark screen: %q", out)
	}
	sh(t, p, "input keyevent KEYCODE_WAKEUP")
	hint := element(t, p, KeyguardHint)
	if hint.Package != pkgSystemUI {
		t.Fatalf("keyguard hint %+v", hint)
	}
	if out := sh(t, p, "dumpsys window"); !strings.Contains(out, "mCurrentFocus=Window{") || !strings.Contains(out, "NotificationShade}") || !strings.Contains(out, "mShowingLockscreen=true") {
		t.Fatalf("dumpsys window on the keyguard:\n%s", out)
	}
	sh(t, p, "input tap 540 1200")
	sh(t, p, "input keyevent 4")
	sh(t, p, "input swipe 540 600 540 200 300") // from the upper half: no
	if !p.State().Locked {
		t.Fatal("a tap, Back or a swipe from the upper half unlocked the keyguard")
	}
	sh(t, p, "input swipe 540 1900 540 700 300")
	st := p.State()
	if st.Locked || st.CurrentApp != p.pkg(pkgNotes) {
		t.Fatalf("after a swipe up: locked %t, app %s", st.Locked, st.CurrentApp)
	}
	element(t, p, "New note")
}

func TestLifeMessageOnLockedPhone(t *testing.T) {
	p := New(Config{Life: Life{Messages: time.Hour, ScreenTimeout: 30 * time.Second, Manual: true}})
	p.Advance(time.Minute)
	p.Receive("Alice Chen", "Are you up?")
	sh(t, p, "input keyevent 224")
	if e := element(t, p, "keyguard_notification"); e.Text != "Alice Chen" || e.Desc != "Are you up?" {
		t.Fatalf("keyguard notification %+v", e)
	}
	if _, ok := findElement(p, "expandableNotificationRow"); ok {
		t.Fatal("a heads-up banner on the keyguard")
	}
}

func TestSimctlAdvanceAndReceive(t *testing.T) {
	p := livePhone(1)
	if out := sh(t, p, "simctl advance 90s"); !strings.Contains(out, "clock 2026-03-02 09:01:30") {
		t.Fatalf("simctl advance: %q", out)
	}
	if out := sh(t, p, "simctl receive Nobody hi"); !strings.Contains(out, `no contact "Nobody"`) || !strings.Contains(out, `"Alice Chen"`) {
		t.Fatalf("simctl receive for an unknown contact: %q", out)
	}
	sh(t, p, "simctl receive 'Zhang San' 'Call me'")
	if n := p.State().Notifications; len(n) == 0 || n[len(n)-1].Text != "Call me" {
		t.Fatalf("notifications after simctl receive: %+v", n)
	}
}

// TestRealADBLife: what the phone does by itself reaches a host over the
// ADB protocol the way the effects of inputs do: in the UI dump, the
// screenshot and dumpsys.
func TestRealADBLife(t *testing.T) {
	adb := startADB(t)
	p := New(Config{Serial: "life", Life: Life{Messages: time.Hour, ScreenTimeout: time.Minute, Manual: true}})
	addr := servePhone(t, p)
	adb.run("connect", addr)
	adb.run("-s", addr, "wait-for-device")
	s := []string{"-s", addr}
	shot := func() []byte { return adb.stdout(append(s, "exec-out", "screencap", "-p")...) }
	dump := func() string { return string(adb.stdout(append(s, "exec-out", "uiautomator", "dump", "/dev/tty")...)) }

	before := shot()
	adb.run(append(s, "shell", "simctl", "receive", "'Alice Chen'", "'Running late'")...)
	if d := dump(); !strings.Contains(d, `resource-id="com.android.systemui:id/expandableNotificationRow"`) || !strings.Contains(d, `text="Running late"`) {
		t.Fatalf("uiautomator dump over adb lacks the heads-up banner:\n%.600s", d)
	}
	if bytes.Equal(before, shot()) {
		t.Fatal("screencap over adb does not show the banner")
	}
	adb.run(append(s, "shell", "simctl", "advance", "2m")...)
	if out := adb.run(append(s, "shell", "dumpsys", "power")...); !strings.Contains(out, "mWakefulness=Asleep") {
		t.Fatalf("dumpsys power over adb after the screen timed out: %q", out)
	}
	adb.run(append(s, "shell", "input", "keyevent", "KEYCODE_WAKEUP")...)
	if d := dump(); !strings.Contains(d, KeyguardHint) {
		t.Fatalf("uiautomator dump over adb of the woken phone lacks the keyguard:\n%.600s", d)
	}
	adb.run(append(s, "shell", "input", "swipe", "540", "1900", "540", "600", "300")...)
	if d := dump(); strings.Contains(d, KeyguardHint) || !strings.Contains(d, `text="Settings"`) {
		t.Fatalf("after a swipe up over adb the keyguard is still there:\n%.600s", d)
	}
}

// TestRealADBDropInput: the drop-input fault cuts the connection when an
// input command arrives, before the phone runs it; the host's command
// fails, the input log stays empty, and adb reaches the phone again.
func TestRealADBDropInput(t *testing.T) {
	adb := startADB(t)
	p := New(Config{Serial: "drop"})
	addr := servePhone(t, p)
	adb.run("connect", addr)
	adb.run("-s", addr, "wait-for-device")
	if err := p.SetFault(Fault{Kind: FaultDropInput, Count: 1}); err != nil {
		t.Fatal(err)
	}
	out, err := adb.cmd("-s", addr, "shell", "input", "tap", "540", "900").CombinedOutput()
	t.Logf("adb shell input tap with the connection cut: err %v, output %q", err, out)
	if n := len(p.State().InputLog); n != 0 || p.Dropped() != 1 {
		t.Fatalf("input log has %d events after a dropped input, %d dropped", n, p.Dropped())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := adb.cmd("-s", addr, "shell", "input", "tap", "540", "900").CombinedOutput()
		if err == nil && len(p.State().InputLog) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the phone never took input again after the cut: %v %q", err, out)
		}
		adb.cmd("connect", addr).Run()
		time.Sleep(200 * time.Millisecond)
	}
}
