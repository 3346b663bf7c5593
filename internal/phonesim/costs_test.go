package phonesim

import (
	"strings"
	"testing"
	"time"
)

func TestCostProfileNames(t *testing.T) {
	if c, err := CostProfile("none"); err != nil || c != (Costs{}) {
		t.Fatalf("none = %+v, %v; want the zero Costs", c, err)
	}
	if c, err := CostProfile(""); err != nil || c != (Costs{}) {
		t.Fatalf("empty = %+v, %v; want the zero Costs", c, err)
	}
	c, err := CostProfile("phone")
	if err != nil || c != PhoneCosts() {
		t.Fatalf("phone = %+v, %v", c, err)
	}
	if c.IdleWindow != time.Second || c.IdleTimeout != 10*time.Second {
		t.Fatalf("the phone profile waits %v for %v of quiet; uiautomator waits 10s for 1s", c.IdleTimeout, c.IdleWindow)
	}
	if _, err := CostProfile("fast"); err == nil || !strings.Contains(err.Error(), "none") || !strings.Contains(err.Error(), "phone") {
		t.Fatalf("an unknown profile gives %v; want an error naming none and phone", err)
	}
}

// animated is a profile whose every screen animates for an hour: no dump
// ever finds an idle state.
var animated = Costs{IdleWindow: 10 * time.Millisecond, IdleTimeout: 60 * time.Millisecond,
	AnimateChance: 1, Animate: Span{time.Hour, time.Hour}}

func TestDumpOnAnAnimatedScreenFindsNoIdleState(t *testing.T) {
	p := New(Config{Costs: animated})
	sh(t, p, "uiautomator dump /sdcard/window_dump.xml") // an old dump left on the phone
	sh(t, p, "rm /sdcard/window_dump.xml")
	start := time.Now()
	out := sh(t, p, "uiautomator dump /sdcard/window_dump.xml && echo status=0")
	took := time.Since(start)
	// AOSP DumpCommand: the message on stderr, then a normal return.
	if out != "ERROR: could not get idle state.\nstatus=0\n" {
		t.Fatalf("dump printed %q; want the idle-state error and exit status 0", out)
	}
	if took < animated.IdleTimeout {
		t.Fatalf("the dump gave up after %v; uiautomator waits its whole timeout (%v)", took, animated.IdleTimeout)
	}
	if ls := sh(t, p, "ls /sdcard/window_dump.xml"); !strings.Contains(ls, "No such file") {
		t.Fatalf("a failed dump wrote its file: ls says %q", ls)
	}
	if out := sh(t, p, "uiautomator dump /dev/tty"); strings.Contains(out, "<hierarchy") || !strings.Contains(out, "could not get idle state") {
		t.Fatalf("dump to /dev/tty printed %q; want the error and no tree", out)
	}
	if n := p.DumpsNotIdle(); n != 3 {
		t.Fatalf("DumpsNotIdle = %d, want 3", n)
	}
	// The screenshot still works: the vision executor can go on.
	if png := sh(t, p, "screencap -p"); !strings.HasPrefix(png, "\x89PNG") {
		t.Fatalf("screencap on an animated screen failed: %q", png[:min(len(png), 40)])
	}
}

func TestDumpWaitsForTheTransitionThenSucceeds(t *testing.T) {
	c := Costs{IdleWindow: 20 * time.Millisecond, IdleTimeout: time.Second, Transition: 80 * time.Millisecond}
	p := New(Config{Costs: c})
	sh(t, p, "uiautomator dump /dev/tty") // the first look: the launcher comes up
	time.Sleep(150 * time.Millisecond)
	sh(t, p, "monkey -p "+pkgSettings+" -c android.intent.category.LAUNCHER 1")
	start := time.Now()
	out := sh(t, p, "uiautomator dump /dev/tty")
	took := time.Since(start)
	if !strings.Contains(out, "<hierarchy") || !strings.Contains(out, "UI hierchary dumped to: /dev/tty") {
		t.Fatalf("dump after the transition printed %q", out[:min(len(out), 200)])
	}
	if took < c.IdleWindow+c.Transition/2 {
		t.Fatalf("the dump right after a launch took %v; it waits for the transition (%v) and the quiet window (%v)", took, c.Transition, c.IdleWindow)
	}
	// A still screen: the quiet window (how much longer a loaded machine
	// takes is not asserted).
	time.Sleep(150 * time.Millisecond)
	start = time.Now()
	sh(t, p, "uiautomator dump /dev/tty")
	if took := time.Since(start); took < c.IdleWindow {
		t.Fatalf("a dump of a still screen took %v; it waits at least the quiet window %v", took, c.IdleWindow)
	}
}

func TestCostsAreDrawnFromTheSeed(t *testing.T) {
	c := Costs{IdleWindow: time.Millisecond, IdleTimeout: 5 * time.Millisecond,
		AnimateChance: 0.5, Animate: Span{time.Hour, time.Hour}}
	run := func(seed uint64) string {
		p := New(Config{Costs: c, Life: Life{Seed: seed}})
		var b strings.Builder
		for _, pkg := range []string{pkgSettings, pkgMessages, pkgClock, pkgContacts, pkgNotes, pkgSettings, pkgClock, pkgMessages} {
			sh(t, p, "monkey -p "+pkg+" -c android.intent.category.LAUNCHER 1")
			if strings.Contains(sh(t, p, "uiautomator dump /dev/tty"), "<hierarchy") {
				b.WriteByte('+')
			} else {
				b.WriteByte('-')
			}
		}
		return b.String()
	}
	a, b := run(7), run(7)
	if a != b {
		t.Fatalf("the same seed gave %s and %s", a, b)
	}
	if !strings.Contains(a, "+") || !strings.Contains(a, "-") {
		t.Fatalf("seed 7 gave %s; want some screens animating and some still at chance 0.5", a)
	}
}

// TestCommandsTakeTheirTime: each command costs what the profile says
// (drawn from fixed spans here), and takes at least that long on the
// wall clock; how much longer a loaded machine makes it is not asserted.
func TestCommandsTakeTheirTime(t *testing.T) {
	ms := time.Millisecond
	c := Costs{Screencap: Span{40 * ms, 40 * ms}, Input: Span{10 * ms, 10 * ms}, PerChar: 2 * ms,
		Broadcast: Span{20 * ms, 20 * ms}, Launch: Span{30 * ms, 30 * ms}}
	p := New(Config{Costs: c})
	for _, tc := range []struct {
		line  string
		want  time.Duration
		input bool
	}{
		{"screencap -p", 40 * ms, false},
		{"input tap 10 10", 10 * ms, true},
		{"input swipe 500 1500 500 500 120", 130 * ms, true},
		{"input swipe 500 1500 500 500", 10*ms + DefaultSwipe, true},
		{"am broadcast -a ADB_INPUT_TEXT --es msg " + strings.Repeat("x", 50), 120 * ms, true},
		{"am start -n " + pkgSettings + "/.Settings", 30 * ms, true},
		{"getprop ro.build.id", 0, false},
	} {
		f := strings.Fields(tc.line)
		if d, input := p.commandCost(f[0], f[1:]); d != tc.want || input != tc.input {
			t.Errorf("%s costs %v (input %t), want %v (input %t)", tc.line, d, input, tc.want, tc.input)
		}
		start := time.Now()
		sh(t, p, tc.line)
		if took := time.Since(start); took < tc.want {
			t.Errorf("%s took %v, less than its cost %v", tc.line, took, tc.want)
		}
	}
}

// TestNoCostsByDefault: a phone without a profile draws no cost for any
// command, so none of them waits.
func TestNoCostsByDefault(t *testing.T) {
	p := New(Config{})
	if p.costly() {
		t.Fatal("a phone without a profile has costs")
	}
	for _, line := range []string{"screencap -p", "input tap 540 350", "am start -n " + pkgSettings + "/.Settings"} {
		f := strings.Fields(line)
		if d, _ := p.commandCost(f[0], f[1:]); d != 0 {
			t.Errorf("%s costs %v on a phone without a profile", line, d)
		}
	}
	for range 5 {
		sh(t, p, "uiautomator dump /dev/tty")
		sh(t, p, "input tap 540 350")
	}
	if p.DumpsNotIdle() != 0 {
		t.Errorf("%d dumps found no idle state on a phone without a profile", p.DumpsNotIdle())
	}
}
