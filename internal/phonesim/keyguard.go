package phonesim

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A keyguard with a screen lock: after the swipe up (or `wm
// dismiss-keyguard`) the bouncer asks for the PIN, or for a pattern,
// before the phone unlocks (docs/design.md §15). The bouncer's elements
// carry the system UI's ids, so a tree reads as a real phone's does.
const (
	idPINView      = pkgSystemUI + ":id/keyguard_pin_view"
	idPINEntry     = pkgSystemUI + ":id/pinEntry"
	idPINDelete    = pkgSystemUI + ":id/delete_button"
	idPINEnter     = pkgSystemUI + ":id/key_enter"
	idPatternView  = pkgSystemUI + ":id/lockPatternView"
	idBouncerTitle = pkgSystemUI + ":id/keyguard_message_area"
)

// Bouncer prompts.
const (
	PromptPIN     = "Enter PIN"
	PromptWrong   = "Wrong PIN"
	PromptPattern = "Draw your pattern"
)

// secureLock reports whether the keyguard asks for more than a swipe.
func (l *life) secureLock() bool { return l.cfg.PIN != "" || l.cfg.Pattern }

// dismissKeyguard is a swipe up on the keyguard, or `wm
// dismiss-keyguard`: a swipe-only keyguard unlocks, a secure one shows
// its bouncer.
func (p *Phone) dismissKeyguard() {
	l := &p.life
	if !l.locked || !p.st.Awake {
		return
	}
	if l.secureLock() {
		l.bouncer = true
		l.touched()
		return
	}
	l.unlock()
}

// unlock lets the phone in, back onto the app that was in front.
func (l *life) unlock() {
	l.locked, l.bouncer, l.entry, l.wrongShown = false, false, "", false
	l.touched()
}

// closeBouncer goes back from the bouncer to the keyguard.
func (l *life) closeBouncer() { l.bouncer, l.entry, l.wrongShown = false, "", false }

// bouncerKey handles a key on the bouncer: digits enter the PIN, DEL
// takes one back, ENTER submits it, BACK goes back to the keyguard.
func (p *Phone) bouncerKey(code int) {
	l := &p.life
	switch {
	case code == 4:
		l.closeBouncer()
	case code == 66:
		p.submitPIN()
	case code == 67:
		if n := len(l.entry); n > 0 {
			l.entry = l.entry[:n-1]
		}
	default:
		if c, ok := keyChar(code); ok {
			p.bouncerType(c)
		}
	}
}

// bouncerType types into the PIN entry: a PIN pad takes digits only; a
// pattern takes nothing typed.
func (p *Phone) bouncerType(t string) {
	l := &p.life
	if l.cfg.Pattern {
		return
	}
	for _, r := range t {
		if r >= '0' && r <= '9' && len(l.entry) < 16 {
			l.entry += string(r)
			l.wrongShown = false
		}
	}
}

// submitPIN checks the entered PIN: the right one unlocks, a wrong one is
// counted and cleared, and the bouncer says so.
func (p *Phone) submitPIN() {
	l := &p.life
	if l.cfg.Pattern || l.entry == "" {
		return
	}
	if l.entry == l.cfg.PIN {
		l.unlock()
		l.record("unlock", "PIN accepted")
		return
	}
	l.wrongPINs++
	l.entry, l.wrongShown = "", true
	l.record("wrong_pin", "attempt "+itoa(l.wrongPINs))
}

// layoutBouncer is the PIN pad (or the pattern grid) over the keyguard.
func (p *Phone) layoutBouncer(b *builder) {
	w, h := b.s.w, b.s.h
	l := &p.life
	title := PromptPIN
	switch {
	case l.cfg.Pattern:
		title = PromptPattern
	case l.wrongShown:
		title = PromptWrong
	}
	b.add(widget{kind: kText, text: p.clockText(), pkg: pkgSystemUI, full: uitree.Bounds{X1: w/2 - 200, Y1: 200, X2: w/2 + 200, Y2: 300}})
	b.add(widget{kind: kText, text: title, id: idBouncerTitle, pkg: pkgSystemUI, full: uitree.Bounds{X1: w/2 - 300, Y1: 420, X2: w/2 + 300, Y2: 520}})
	if l.cfg.Pattern {
		grid := uitree.Bounds{X1: 120, Y1: h/2 - 420, X2: w - 120, Y2: h/2 + 420}
		b.add(widget{kind: kHidden, class: "com.android.internal.widget.LockPatternView", desc: "Pattern area", id: idPatternView, pkg: pkgSystemUI, full: grid})
		cell := (grid.X2 - grid.X1) / 3
		for r := range 3 {
			for c := range 3 {
				x, y := grid.X1+c*cell+cell/2, grid.Y1+r*cell+cell/2
				b.add(widget{kind: kDot, pkg: pkgSystemUI, depth: 2, full: uitree.Bounds{X1: x - 24, Y1: y - 24, X2: x + 24, Y2: y + 24}})
			}
		}
		return
	}
	b.add(widget{kind: kHidden, class: "com.android.keyguard.KeyguardPINView", id: idPINView, pkg: pkgSystemUI,
		full: uitree.Bounds{X1: 0, Y1: 560, X2: w, Y2: h - 120}})
	b.add(widget{kind: kText, class: "com.android.keyguard.PasswordTextView", text: strings.Repeat("•", len(l.entry)), id: idPINEntry, pkg: pkgSystemUI, depth: 2,
		full: uitree.Bounds{X1: w/2 - 360, Y1: 600, X2: w/2 + 360, Y2: 740}})
	keys := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "Delete", "0", "OK"}
	kw, kh := 260, 200
	x0, y0 := w/2-(3*kw+2*40)/2, 820
	for i, k := range keys {
		r, c := i/3, i%3
		box := uitree.Bounds{X1: x0 + c*(kw+40), Y1: y0 + r*(kh+40), X2: x0 + c*(kw+40) + kw, Y2: y0 + r*(kh+40) + kh}
		id, tap := pkgSystemUI+":id/key"+k, func() { p.bouncerType(k) }
		switch k {
		case "Delete":
			id, tap = idPINDelete, func() { p.bouncerKey(67) }
		case "OK":
			id, tap = idPINEnter, p.submitPIN
		}
		b.add(widget{kind: kButton, class: "com.android.keyguard.NumPadKey", text: k, id: id, pkg: pkgSystemUI, depth: 2, clickable: true, full: box, tap: tap})
	}
}

// Lock turns the screen off and locks the phone, as its power button
// does; with no keyguard (Life off) the screen only goes dark.
func (p *Phone) Lock() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sleepLocked()
}

// SetScreenLock gives the keyguard a screen lock from now on: a PIN
// (digits), or a pattern, which no typed input passes. An empty PIN and no
// pattern is a keyguard a swipe up dismisses, or none while nothing else
// of Life is on.
func (p *Phone) SetScreenLock(pin string, pattern bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.Life.PIN, p.cfg.Life.Pattern = pin, pattern
	p.life.cfg.PIN, p.life.cfg.Pattern = pin, pattern
}

// Unlock unlocks the phone as its owner does at the phone, whatever its
// lock: the screen turns on and the app that was in front shows.
func (p *Phone) Unlock() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.st.Awake = true
	if p.life.locked {
		p.life.unlock()
		p.life.record("unlock", "by hand")
	}
}

// masked is what the input log keeps of typed text or a key: dots while
// the bouncer shows, so a PIN never lands in the log.
func (p *Phone) masked(s string) string {
	if p.life.locked && p.life.bouncer {
		return strings.Repeat("•", len([]rune(s)))
	}
	return s
}

// dumpPolicy writes the window policy's keyguard state, as `dumpsys
// window policy` (and the policy part of `dumpsys window`) does.
func (p *Phone) dumpPolicy(e *cmdEnv) {
	l := &p.life
	e.out("WINDOW MANAGER POLICY STATE (dumpsys window policy)\n")
	e.out("    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n")
	e.out("    KeyguardServiceDelegate\n")
	e.out("      showing=%t\n      showingAndNotOccluded=%t\n      inputRestricted=%t\n      occluded=false\n", l.locked, l.locked, l.locked)
	e.out("      secure=%t\n      dreaming=false\n      systemIsReady=true\n      deviceHasKeyguard=true\n", l.secureLock())
	screen, inter := "SCREEN_STATE_ON", "INTERACTIVE_STATE_AWAKE"
	if !p.st.Awake {
		screen, inter = "SCREEN_STATE_OFF", "INTERACTIVE_STATE_SLEEP"
	}
	e.out("      screenState=%s\n      interactiveState=%s\n", screen, inter)
	e.out("      KeyguardStateMonitor\n        mIsShowing=%t\n        mSimSecure=false\n        mInputRestricted=%t\n        mTrusted=false\n", l.locked, l.locked)
}
