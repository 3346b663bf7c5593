package activities

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// formPhone is a fakePhone with a message field: a tap focuses it, typing
// appends to it, and its UI tree shows both. secure hides the screen and
// the tree, as FLAG_SECURE does.
type formPhone struct {
	*fakePhone
	fmu     sync.Mutex
	focused bool
	text    string
	secure  bool
	// sent are the messages the Send button sent; arrived are the ones
	// that came in by themselves (the screen changing without input).
	sent, arrived []string
	// dialog is a system dialog that took the focus by itself: the UI
	// dump holds only its window.
	dialog bool
	// locked is the keyguard in front (the screen timed out): the UI dump
	// and the app in front are the system's.
	locked bool
}

func (p *formPhone) CurrentApp(ctx context.Context) (device.App, error) {
	p.fmu.Lock()
	locked := p.locked
	p.fmu.Unlock()
	if locked {
		return device.App{Package: "com.android.systemui"}, nil
	}
	return p.fakePhone.CurrentApp(ctx)
}

// sendButton is where formPhone's Send button is, in pixels.
var sendButton = uitree.Bounds{X1: 900, Y1: 2000, X2: 1080, Y2: 2200}

// arrive shows an incoming message, as a phone does without any input.
func (p *formPhone) arrive(msg string) {
	p.fmu.Lock()
	p.arrived = append(p.arrived, msg)
	p.fmu.Unlock()
}

var _ device.Device = (*formPhone)(nil)

func newFormPhone() *formPhone { return &formPhone{fakePhone: newFakePhone()} }

func (p *formPhone) Tap(ctx context.Context, x, y int) error {
	if err := p.fakePhone.Tap(ctx, x, y); err != nil {
		return err
	}
	p.fmu.Lock()
	defer p.fmu.Unlock()
	switch {
	case x >= sendButton.X1 && y >= sendButton.Y1 && y <= sendButton.Y2:
		if p.text != "" {
			p.sent, p.text = append(p.sent, p.text), ""
		}
	case y >= 2000:
		p.focused = true
	}
	return nil
}

func (p *formPhone) Type(ctx context.Context, text string) error {
	if err := p.fakePhone.Type(ctx, text); err != nil {
		return err
	}
	p.fmu.Lock()
	p.text += text
	p.fmu.Unlock()
	return nil
}

func (p *formPhone) Screenshot(ctx context.Context) (device.Screenshot, error) {
	p.fmu.Lock()
	secure := p.secure
	p.fmu.Unlock()
	p.fakePhone.mu.Lock()
	p.fakePhone.sensitive = secure
	p.fakePhone.mu.Unlock()
	return p.fakePhone.Screenshot(ctx)
}

func (p *formPhone) UITree(context.Context) ([]uitree.Element, error) {
	p.fmu.Lock()
	defer p.fmu.Unlock()
	if p.secure {
		return nil, errors.New("uiautomator: could not get idle state")
	}
	if p.locked {
		return []uitree.Element{
			{Class: "android.widget.TextClock", Text: "09:41", Package: "com.android.systemui", Bounds: uitree.Bounds{X1: 0, Y1: 400, X2: 1080, Y2: 700}},
			{Class: "android.widget.TextView", Text: "Swipe up to unlock", Package: "com.android.systemui", Bounds: uitree.Bounds{X1: 0, Y1: 2000, X2: 1080, Y2: 2200}},
		}, nil
	}
	if p.dialog {
		return []uitree.Element{
			{Class: "android.widget.TextView", Text: "Battery is low", ResourceID: "android:id/alertTitle", Bounds: uitree.Bounds{X1: 72, Y1: 900, X2: 1008, Y2: 1000}},
			{Class: "android.widget.Button", Text: "No thanks", ResourceID: "android:id/button2", Clickable: true, Bounds: uitree.Bounds{X1: 132, Y1: 1360, X2: 520, Y2: 1500}},
		}, nil
	}
	elems := []uitree.Element{
		{Class: "android.widget.TextView", Text: "Alice Chen", Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: 100, X2: 1080, Y2: 200}},
	}
	for i, m := range p.sent {
		elems = append(elems, uitree.Element{Class: "android.widget.TextView", Text: "me: " + m, Bounds: uitree.Bounds{X1: 0, Y1: 300 + 100*i, X2: 1080, Y2: 400 + 100*i}})
	}
	for i, m := range p.arrived {
		elems = append(elems, uitree.Element{Class: "android.widget.TextView", Text: m, Bounds: uitree.Bounds{X1: 0, Y1: 1000 + 100*i, X2: 1080, Y2: 1100 + 100*i}})
	}
	return append(elems,
		uitree.Element{Class: "android.widget.EditText", Text: p.text, ResourceID: "app:id/compose", Focused: p.focused, Clickable: true,
			Bounds: uitree.Bounds{X1: 0, Y1: 2000, X2: 900, Y2: 2200}},
		uitree.Element{Class: "android.widget.Button", Text: "Send", ResourceID: "app:id/send", Clickable: true, Bounds: sendButton},
	), nil
}

type formPool struct{ p *formPhone }

func (f formPool) Get(_ context.Context, serial string) (device.Device, error) { return f.p, nil }
func (f formPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

// newJournalled returns activities with a journal over a form phone.
func newJournalled(t *testing.T) (*Activities, *formPhone) {
	t.Helper()
	a, _, _ := newActivities(t)
	p := newFormPhone()
	a.Devices = formPool{p}
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a.Journal = j
	return a, p
}

// crash is what a fault hook panics with to stop an action between the
// phone and the journal, as a killed worker would.
type crash struct{}

// stepAct runs a Step that only acts, decided on the phone's current
// screen; with crashAfter the Step stops between the action and its
// record.
func stepAct(t *testing.T, a *Activities, act autoglm.Action, id string, before Observation, crashAfter bool) (res StepResult, err error, crashed bool) {
	t.Helper()
	a.Fault = nil
	if crashAfter {
		a.Fault = func(string, string) { panic(crash{}) }
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(crash); !ok {
				panic(r)
			}
			crashed = true
		}
		a.Fault = nil
	}()
	res, err = a.Step(context.Background(), StepInput{Serial: "fake-1", UITree: true, Act: &act, ActionID: id,
		ScreenHash: before.Hash, Width: before.Width, Height: before.Height,
		ScreenTreeRef: before.TreeRef, ScreenApp: before.AppPackage, ScreenSensitive: before.Sensitive})
	return res, err, false
}

func observeTree(t *testing.T, a *Activities) Observation {
	t.Helper()
	obs, err := a.Observe(context.Background(), ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	return obs
}

func TestActOnceRetryOfAnAppliedActionIsNotSent(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 900}}
	for i := range 3 { // the first try and two re-runs of the same step
		res, err, _ := stepAct(t, a, tap, "goal/todo-1/run/4", before, false)
		if err != nil || res.Act == nil || res.Act.Result != "ok" {
			t.Fatalf("try %d: %+v, %v", i+1, res.Act, err)
		}
	}
	if got := p.got(); !slices.Equal(got, []string{"tap 540 2160"}) {
		t.Fatalf("inputs = %v, want one tap", got)
	}
	// Another step number is another action.
	if _, err, _ := stepAct(t, a, tap, "goal/todo-1/run/5", before, false); err != nil || len(p.got()) != 2 {
		t.Fatalf("next step: %v, inputs %v", err, p.got())
	}
}

func TestActOnceCrashBetweenActionAndRecord(t *testing.T) {
	a, p := newJournalled(t)
	ctx := context.Background()
	if err := p.fakePhone.Tap(ctx, 1, 1); err != nil { // some earlier input
		t.Fatal(err)
	}
	p.focused = true
	before := observeTree(t, a)
	typ := autoglm.Action{Name: autoglm.ActionType, Text: "see you at 7"}
	if _, _, crashed := stepAct(t, a, typ, "g/t/r/3", before, true); !crashed {
		t.Fatal("the fault hook did not run")
	}
	// The worker restarts: the step runs again, attempt 1 of a new Step.
	res, err, _ := stepAct(t, a, typ, "g/t/r/3", before, false)
	if err != nil || res.Act.Result != "ok" || !strings.Contains(res.Act.Recovered, "typed text") {
		t.Fatalf("re-run = %+v, %v", res.Act, err)
	}
	if p.text != "see you at 7" || len(p.got()) != 2 {
		t.Fatalf("field %q, inputs %v: the text was typed twice", p.text, p.got())
	}
	// Once decided, the decision is the journal's: no new look.
	e, ok, err := a.Journal.Lookup(ctx, "fake-1", "g/t/r/3")
	if err != nil || !ok || e.Applied == nil || e.Applied.Recovered == "" {
		t.Fatalf("journal = %+v %v %v", e, ok, err)
	}

	// A tap that reached the phone shows its own effect (the tapped field
	// is focused), even where the coarse hash might not tell.
	p.focused = false
	before = observeTree(t, a)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{400, 880}}
	stepAct(t, a, tap, "g/t/r/4", before, true)
	res, err, _ = stepAct(t, a, tap, "g/t/r/4", before, false)
	if err != nil || !strings.Contains(res.Act.Recovered, "is focused now") || len(p.got()) != 3 {
		t.Fatalf("tap re-run = %+v, %v, inputs %v", res.Act, err, p.got())
	}
}

func TestActOnceIntentWithoutActionSendsIt(t *testing.T) {
	a, p := newJournalled(t)
	p.focused = true
	before := observeTree(t, a)
	typ := autoglm.Action{Name: autoglm.ActionType, Text: "hello"}
	// The worker died after writing the intent, before the phone got it.
	pj := a.Journal.phone("fake-1")
	unlock, err := pj.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ev, err := a.evidenceNow(context.Background(), p, true, typ, before.Width, before.Height)
	if err == nil {
		err = pj.write(journalRecord{ID: "g/t/r/2", Intent: &ActionIntent{Action: typ, Before: ev}})
	}
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	res, err, _ := stepAct(t, a, typ, "g/t/r/2", before, false)
	if err != nil || res.Act.Result != "ok" || res.Act.Recovered != "" || p.text != "hello" {
		t.Fatalf("re-run = %+v, %v, field %q", res.Act, err, p.text)
	}
}

func TestActOnceSecureScreenAsksInsteadOfSkipping(t *testing.T) {
	a, p := newJournalled(t)
	p.focused = true
	before := observeTree(t, a)
	typ := autoglm.Action{Name: autoglm.ActionType, Text: "1234"}
	stepAct(t, a, typ, "g/t/r/7", before, true)
	p.secure = true // e.g. a PIN pad came up
	res, err, _ := stepAct(t, a, typ, "g/t/r/7", before, false)
	if err != nil || res.Act.Result != ActUncertain || !strings.Contains(res.Act.Uncertain, "answer whether it happened") {
		t.Fatalf("re-run on a secure screen = %+v, %v", res.Act, err)
	}
	if len(p.got()) != 1 {
		t.Fatalf("inputs = %v", p.got())
	}
}

func TestDecide(t *testing.T) {
	s := func(v string) *string { return &v }
	typ := autoglm.Action{Name: autoglm.ActionType, Text: "hi"}
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{1, 1}}
	sensitiveTap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{1, 1}, Message: "pays 20 EUR"}
	double := autoglm.Action{Name: autoglm.ActionDoubleTap, Element: &autoglm.Point{1, 1}}
	home := autoglm.Action{Name: autoglm.ActionHome}
	back := autoglm.Action{Name: autoglm.ActionBack}
	swipe := autoglm.Action{Name: autoglm.ActionSwipe, Start: &autoglm.Point{500, 800}, End: &autoglm.Point{500, 200}}
	long := autoglm.Action{Name: autoglm.ActionLongPress, Element: &autoglm.Point{1, 1}}
	launch := autoglm.Action{Name: autoglm.ActionLaunch, App: "Settings"}
	field := func(focused bool) *Target {
		return &Target{Key: "EditText#m", Label: "Message", Field: true, Focused: focused}
	}
	button := func(label string) *Target { return &Target{Key: "Button#b", Label: label} }
	toggle := func(on bool) *Target { return &Target{Key: "Switch#w", Label: "Wi-Fi", Checkable: true, Checked: on} }
	cases := []struct {
		name        string
		act         autoglm.Action
		before, now Evidence
		want        Verdict
	}{
		{"typed text in the same focused field", typ, Evidence{Tree: "a", Focused: s(""), FocusedKey: "f"}, Evidence{Tree: "b", Focused: s("hi"), FocusedKey: "f"}, Applied},
		{"same field without the text: typed again", typ, Evidence{Tree: "a", Focused: s(""), FocusedKey: "f"}, Evidence{Tree: "b", Focused: s(""), FocusedKey: "f"}, NotApplied},
		{"text there before too: typed again", typ, Evidence{Tree: "a", Focused: s("hi"), FocusedKey: "f"}, Evidence{Tree: "a", Focused: s("hi"), FocusedKey: "f"}, NotApplied},
		{"password field: typed again", typ, Evidence{Tree: "a", Focused: s(""), FocusedKey: "f"}, Evidence{Tree: "b", Focused: s("••"), FocusedKey: "f", FocusedPassword: true}, NotApplied},
		{"another field focused now", typ, Evidence{Tree: "a", Focused: s(""), FocusedKey: "f"}, Evidence{Tree: "b", Focused: s("hi"), FocusedKey: "g"}, Unknown},
		{"no field focused before", typ, Evidence{Tree: "a"}, Evidence{Tree: "b", Focused: s("hi"), FocusedKey: "f"}, Unknown},
		{"no tree now", typ, Evidence{Tree: "a", FocusedKey: "f"}, Evidence{Hash: "x"}, Unknown},
		{"secure screen now, a type", typ, Evidence{Tree: "a", FocusedKey: "f"}, Evidence{Sensitive: true}, Ask},
		{"secure screen now, a tap", tap, Evidence{Tree: "a", Target: button("Next")}, Evidence{Sensitive: true, Hash: "s"}, Ask},
		// A screen exactly as it was before the input: sent again only
		// where twice does no more than once; otherwise unknown, and a
		// commit asked about.
		{"unchanged screen, a commit: asked", tap, Evidence{App: "x", Tree: "a", Target: button("Send")}, Evidence{App: "x", Tree: "a", Target: button("Send")}, Ask},
		{"unchanged screen, a button: unknown", tap, Evidence{App: "x", Tree: "a", Target: button("Next")}, Evidence{App: "x", Tree: "a", Target: button("Next")}, Unknown},
		{"unchanged screen, a tap on nothing: unknown", tap, Evidence{App: "x", Tree: "a"}, Evidence{App: "x", Tree: "a"}, Unknown},
		{"unchanged screen, a swipe: unknown", swipe, Evidence{App: "x", Tree: "a"}, Evidence{App: "x", Tree: "a"}, Unknown},
		{"unchanged screen, back: unknown", back, Evidence{App: "x", Tree: "a"}, Evidence{App: "x", Tree: "a"}, Unknown},
		{"unchanged screen, a long press: unknown", long, Evidence{App: "x", Tree: "a", Target: button("Next")}, Evidence{App: "x", Tree: "a", Target: button("Next")}, Unknown},
		{"unchanged screen, a double tap on a field: unknown", double, Evidence{App: "x", Tree: "a", Target: field(true)}, Evidence{App: "x", Tree: "a", Target: field(true)}, Unknown},
		{"unchanged screen, a switch that did not flip: sent again", tap, Evidence{App: "x", Tree: "a", Target: toggle(false)}, Evidence{App: "x", Tree: "a", Target: toggle(false)}, NotApplied},
		{"unchanged screen, a field focused already: sent again", tap, Evidence{App: "x", Tree: "a", Target: field(true), FocusedKey: "EditText#m"}, Evidence{App: "x", Tree: "a", Target: field(true), FocusedKey: "EditText#m"}, NotApplied},
		{"unchanged screen, a field still unfocused: sent again", tap, Evidence{App: "x", Tree: "a", Target: field(false)}, Evidence{App: "x", Tree: "a", Target: field(false)}, NotApplied},
		{"unchanged screen, home: sent again", home, Evidence{App: "l", Tree: "t"}, Evidence{App: "l", Tree: "t"}, NotApplied},
		{"unchanged screen, launch of the app in front: sent again", launch, Evidence{App: "l", Tree: "t"}, Evidence{App: "l", Tree: "t"}, NotApplied},
		{"unchanged screen, type into the same field: sent again", typ, Evidence{App: "x", Tree: "a", Focused: s(""), FocusedKey: "f"}, Evidence{App: "x", Tree: "a", Focused: s(""), FocusedKey: "f"}, NotApplied},
		{"unchanged system dialog: it may have shown again", tap, Evidence{App: "android", Tree: "a", Target: button("Wait")}, Evidence{App: "android", Tree: "a", Target: button("Wait")}, Unknown},
		{"unchanged keyguard: it may have locked again", back, Evidence{App: "com.android.systemui", Hash: "1"}, Evidence{App: "com.android.systemui", Hash: "1"}, Unknown},
		{"unchanged screenshot without trees, back: unknown", back, Evidence{App: "x", Hash: "1"}, Evidence{App: "x", Hash: "1"}, Unknown},
		{"unchanged screenshot without trees, a tap: unknown", tap, Evidence{App: "x", Hash: "1"}, Evidence{App: "x", Hash: "1"}, Unknown},
		{"unchanged screenshot without trees, home: sent again", home, Evidence{App: "x", Hash: "1"}, Evidence{App: "x", Hash: "1"}, NotApplied},
		{"screen changed by itself or by the tap", tap, Evidence{Tree: "a", Target: button("Next")}, Evidence{Tree: "b", Target: button("Next")}, Unknown},
		{"a commit tap, screen changed", tap, Evidence{Tree: "a", Target: button("Send")}, Evidence{Tree: "b", Target: button("Send")}, Ask},
		{"a Chinese commit tap", tap, Evidence{Tree: "a", Target: button("确认付款")}, Evidence{Tree: "b"}, Ask},
		{"a sensitive tap", sensitiveTap, Evidence{Tree: "a", Target: button("Continue")}, Evidence{Tree: "b"}, Ask},
		{"the tapped element is gone", tap, Evidence{Tree: "a", Target: button("Next")}, Evidence{Tree: "b"}, Unknown},
		{"the app changed", tap, Evidence{App: "a", Tree: "t", Target: button("Next")}, Evidence{App: "b", Tree: "u"}, Unknown},
		{"tapped field focused now", tap, Evidence{Tree: "a", Target: field(false)}, Evidence{Tree: "b", Target: field(true), FocusedKey: "EditText#m"}, Applied},
		{"tapped field still unfocused", tap, Evidence{Tree: "a", Target: field(false)}, Evidence{Tree: "b", Target: field(false)}, NotApplied},
		{"tapped field focused already", tap, Evidence{Tree: "a", Target: field(true)}, Evidence{Tree: "b", Target: field(true)}, NotApplied},
		{"a dialog took the focus", tap, Evidence{Tree: "a", Target: field(false)}, Evidence{Tree: "b", Target: field(false), FocusedKey: "EditText#dialog"}, Unknown},
		{"switch flipped", tap, Evidence{Tree: "a", Target: toggle(false)}, Evidence{Tree: "b", Target: toggle(true)}, Applied},
		{"switch as it was", tap, Evidence{Tree: "a", Target: toggle(false)}, Evidence{Tree: "b", Target: toggle(false)}, NotApplied},
		{"double tap on a switch", double, Evidence{Tree: "a", Target: toggle(false)}, Evidence{Tree: "b", Target: toggle(false)}, Unknown},
		{"back, screen changed", back, Evidence{Tree: "a"}, Evidence{Tree: "b"}, Unknown},
		{"home is sent again", home, Evidence{App: "l", Tree: "t"}, Evidence{App: "m", Tree: "u"}, NotApplied},
		{"launch brought an app to the front", launch, Evidence{App: "l", Tree: "t"}, Evidence{App: "m", Tree: "u"}, Applied},
		{"launch: the same app in front", launch, Evidence{App: "l", Tree: "t"}, Evidence{App: "l", Tree: "u"}, NotApplied},
		{"launch: the keyguard in front", launch, Evidence{App: "l", Tree: "t"}, Evidence{App: "com.android.systemui", Tree: "u"}, Unknown},
		// A system dialog over the app before the input and still at the
		// retry: the launch happened under it or not at all.
		{"launch: a system dialog in front before and now", launch, Evidence{App: "android", Tree: "t"}, Evidence{App: "android", Tree: "t"}, Unknown},
		{"launch: the keyguard before and now", launch, Evidence{App: "com.android.systemui", Tree: "t"}, Evidence{App: "com.android.systemui", Tree: "u"}, Unknown},
		{"launch: a dialog in front before, an app now", launch, Evidence{App: "com.android.systemui", Tree: "t"}, Evidence{App: "l", Tree: "u"}, Unknown},
		{"launch: no app read before", launch, Evidence{Tree: "t"}, Evidence{App: "m", Tree: "u"}, Unknown},
		{"nothing kept of the screen", back, Evidence{}, Evidence{Tree: "t"}, Unknown},
	}
	for _, c := range cases {
		if got, why := decide(c.act, c.before, c.now); got != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, got, why, c.want)
		}
	}
}

func TestJournalSurvivesReopenAndSharing(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	j1, err := OpenJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	j2, _ := OpenJournal(dir) // another process on the same host
	act := autoglm.Action{Name: autoglm.ActionBack}
	write := func(j *Journal, rec journalRecord) {
		t.Helper()
		p := j.phone("127.0.0.1:5555")
		unlock, err := p.lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		if err := p.write(rec); err != nil {
			t.Fatal(err)
		}
	}
	write(j1, journalRecord{ID: "a", Intent: &ActionIntent{Action: act}})
	if e, ok, err := j2.Lookup(ctx, "127.0.0.1:5555", "a"); err != nil || !ok || e.Intent == nil || e.Applied != nil {
		t.Fatalf("other journal sees %+v %v %v", e, ok, err)
	}
	// A crash cut the next write short: the fragment is ignored and the
	// next record starts on its own line.
	path := filepath.Join(dir, "127.0.0.1%3a5555.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"id":"a","applied":{"res`)
	_ = f.Close()
	write(j2, journalRecord{ID: "a", Applied: &ActResult{Result: "ok", Touched: true}})
	j3, _ := OpenJournal(dir) // after a restart
	e, ok, err := j3.Lookup(ctx, "127.0.0.1:5555", "a")
	if err != nil || !ok || e.Intent == nil || e.Applied == nil || e.Applied.Result != "ok" {
		t.Fatalf("after reopen: %+v %v %v", e, ok, err)
	}
	if _, ok, _ := j1.Lookup(ctx, "other", "a"); ok {
		t.Fatal("phones share entries")
	}
}

func TestJournalCompactionKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	j, _ := OpenJournal(dir)
	j.Keep = 4
	p := j.phone("s")
	for i := range 9 {
		unlock, err := p.lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		id := string(rune('a' + i))
		err = p.write(journalRecord{ID: id, Intent: &ActionIntent{Action: autoglm.Action{Name: autoglm.ActionBack}}})
		if err == nil {
			err = p.write(journalRecord{ID: id, Applied: &ActResult{Result: "ok"}})
		}
		unlock()
		if err != nil {
			t.Fatal(err)
		}
	}
	j2, _ := OpenJournal(dir)
	for i := range 9 {
		id := string(rune('a' + i))
		e, ok, err := j2.Lookup(ctx, "s", id)
		if err != nil {
			t.Fatal(err)
		}
		// At least the last Keep (4) are kept; compaction runs at 2×Keep
		// records, so the oldest ones are gone.
		if (i >= 5 && !ok) || (i < 4 && ok) || (ok && (e.Intent == nil || e.Applied == nil)) {
			t.Errorf("%s: kept %v (%+v)", id, ok, e)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "s.jsonl"))
	if n := strings.Count(string(data), "\n"); n > 8 {
		t.Errorf("journal has %d lines after compaction", n)
	}
}

// TestActOnceReusedIDNeverReturnsAnotherActionsResult: an ID that named an
// applied action and now names another (a todo reset before IDs named
// their run) never hands the new action the old result: a first try of
// the new action that failed is judged from its own evidence. Back on a
// screen as it was is unknown (twice could leave the app); Home is sent
// again.
func TestActOnceReusedIDNeverReturnsAnotherActionsResult(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{400, 880}}
	if res, err, _ := stepAct(t, a, tap, "g/t/r/5", before, false); err != nil || res.Act.Result != "ok" {
		t.Fatalf("tap = %+v, %v", res.Act, err)
	}
	back := autoglm.Action{Name: autoglm.ActionBack}
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, back, "g/t/r/5", before, false); err == nil {
		t.Fatal("the first try of Back did not fail")
	}
	res, err, _ := stepAct(t, a, back, "g/t/r/5", before, false)
	if err != nil || !strings.HasPrefix(res.Act.Result, ActUnknown) || !slices.Equal(p.got(), []string{"tap 432 2112"}) {
		t.Fatalf("Back's retry = %+v, %v, inputs %v; want its outcome unknown, not sent again", res.Act, err, p.got())
	}

	if res, err, _ := stepAct(t, a, tap, "g/t/r/6", before, false); err != nil || res.Act.Result != "ok" {
		t.Fatalf("tap = %+v, %v", res.Act, err)
	}
	home := autoglm.Action{Name: autoglm.ActionHome}
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, home, "g/t/r/6", before, false); err == nil {
		t.Fatal("the first try of Home did not fail")
	}
	res, err, _ = stepAct(t, a, home, "g/t/r/6", before, false)
	if err != nil || res.Act.Result != "ok" || !slices.Equal(p.got(), []string{"tap 432 2112", "tap 432 2112", "home"}) {
		t.Fatalf("Home's retry = %+v, %v, inputs %v; want Home sent", res.Act, err, p.got())
	}
}

// TestJournalRefusesAnIntentUnderARecordedResult: a result is final; an
// intent written after it in an older journal starts the entry over.
func TestJournalRefusesAnIntentUnderARecordedResult(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	j, _ := OpenJournal(dir)
	p := j.phone("s")
	unlock, err := p.lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	back := &ActionIntent{Action: autoglm.Action{Name: autoglm.ActionBack}}
	if err := p.write(journalRecord{ID: "x", Intent: back}); err != nil {
		t.Fatal(err)
	}
	if err := p.write(journalRecord{ID: "x", NotSent: "device offline"}); err != nil {
		t.Fatal(err)
	}
	if e, _, _ := p.get("x"); e.NotSent == "" {
		t.Fatalf("not-sent try not kept: %+v", e)
	}
	if err := p.write(journalRecord{ID: "x", Intent: back}); err != nil {
		t.Fatal(err)
	}
	if e, _, _ := p.get("x"); e.NotSent != "" {
		t.Fatalf("a new intent kept the earlier try's not-sent mark: %+v", e)
	}
	if err := p.write(journalRecord{ID: "x", Applied: &ActResult{Result: "ok"}}); err != nil {
		t.Fatal(err)
	}
	if err := p.write(journalRecord{ID: "x", Intent: &ActionIntent{Action: autoglm.Action{Name: autoglm.ActionHome}}}); !errors.Is(err, errResultRecorded) {
		t.Fatalf("intent under a recorded result: %v", err)
	}
	unlock()
	// An older journal with an intent after the result.
	f, err := os.OpenFile(filepath.Join(dir, "s.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"id":"x","intent":{"action":{"name":"Home"},"before":{}}}` + "\n")
	_ = f.Close()
	j2, _ := OpenJournal(dir)
	if e, ok, err := j2.Lookup(ctx, "s", "x"); err != nil || !ok || e.Applied != nil || e.Intent.Action.Name != autoglm.ActionHome {
		t.Fatalf("older journal read as %+v %v %v; want Home's intent without Back's result", e, ok, err)
	}
}

// TestActOnceLaunchOfTheAppInFrontIsSentAgain: a Launch whose try may
// have reached the phone, of the app that was in front before it, leaves
// nothing to tell whether it did; it changes nothing when sent twice, so
// the retry sends it again (docs/design.md §4) rather than claim it or
// ask, and the journal then holds its result.
func TestActOnceLaunchOfTheAppInFrontIsSentAgain(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a) // Settings is in front
	launch := autoglm.Action{Name: autoglm.ActionLaunch, App: "Settings"}
	if _, _, crashed := stepAct(t, a, launch, "g/t/r/2", before, true); !crashed {
		t.Fatal("the fault hook did not run")
	}
	res, err, _ := stepAct(t, a, launch, "g/t/r/2", before, false)
	if err != nil || res.Act.Result != "ok" || res.Act.Recovered != "" {
		t.Fatalf("re-run = %+v, %v", res.Act, err)
	}
	if got := p.got(); !slices.Equal(got, []string{"launch Settings", "launch Settings"}) {
		t.Fatalf("inputs = %v, want the launch sent again once", got)
	}
	if _, err, _ := stepAct(t, a, launch, "g/t/r/2", before, false); err != nil || len(p.got()) != 2 {
		t.Fatalf("a later retry: %v, inputs %v", err, p.got())
	}
}
