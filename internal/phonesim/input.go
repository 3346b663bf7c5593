package phonesim

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Android key codes the phone knows by name (KEYCODE_<name>).
var keyCodes = map[string]int{
	"HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21,
	"DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
	"COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "AT": 77, "MENU": 82,
	"SEARCH": 84, "ESCAPE": 111, "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123,
	"APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
}

func init() {
	for i := 0; i <= 9; i++ {
		keyCodes[strconv.Itoa(i)] = 7 + i
	}
	for c := 'A'; c <= 'Z'; c++ {
		keyCodes[string(c)] = 29 + int(c-'A')
	}
}

// parseKey accepts a number or a KEYCODE_ name (with or without prefix).
func parseKey(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return n, true
	}
	n, ok := keyCodes[strings.TrimPrefix(strings.ToUpper(s), "KEYCODE_")]
	return n, ok
}

// keyChar is the character a key types into a focused field, if any.
func keyChar(code int) (string, bool) {
	switch {
	case code >= 7 && code <= 16:
		return string(rune('0' + code - 7)), true
	case code >= 29 && code <= 54:
		return string(rune('a' + code - 29)), true
	case code == 62:
		return " ", true
	case code == 55:
		return ",", true
	case code == 56:
		return ".", true
	case code == 77:
		return "@", true
	}
	return "", false
}

// beforeInput keeps the old screen on display during a screen-delay fault.
func (p *Phone) beforeInput() {
	if p.faults.screenDelay <= 0 {
		return
	}
	now := time.Now()
	if p.frozen == nil || !now.Before(p.frozenT) {
		p.frozen = p.screenNow()
	}
	p.frozenT = now.Add(p.faults.screenDelay)
}

// display is what the screen shows now: the frozen screen during a
// screen-delay fault, else the current one.
func (p *Phone) display() *screen {
	if p.frozen != nil {
		if time.Now().Before(p.frozenT) {
			return p.frozen
		}
		p.frozen = nil
	}
	return p.screenNow()
}

// tap hits the topmost clickable element under (x, y).
func (p *Phone) tap(x, y int) {
	if !p.st.Awake || (p.life.locked && !p.life.bouncer) {
		return
	}
	s := p.screenNow()
	for i := len(s.widgets) - 1; i >= 0; i-- {
		w := s.widgets[i]
		if w.drag != nil && w.bounds.Contains(x, y) {
			w.drag(x) // a slider's thumb jumps to the tap
			return
		}
		if w.clickable && w.bounds.Contains(x, y) {
			if w.tap != nil {
				w.tap()
			}
			return
		}
	}
}

// longPressMs is the shortest press Android takes for a long one
// (ViewConfiguration's default long-press timeout).
const longPressMs = 400

// longPress holds the topmost element under (x, y) that reacts to a
// touch: what its hold does, nothing for one that only takes taps.
func (p *Phone) longPress(x, y int) {
	if !p.st.Awake || p.life.locked || p.life.dialog != nil {
		return
	}
	s := p.screenNow()
	for i := len(s.widgets) - 1; i >= 0; i-- {
		w := s.widgets[i]
		if (w.clickable || w.hold != nil) && w.bounds.Contains(x, y) {
			if w.hold != nil {
				w.hold()
			}
			return
		}
	}
}

// swipe scrolls the list under the start point; a swipe that barely moves
// is a (long) press and does nothing here.
func (p *Phone) swipe(x1, y1, x2, y2 int) {
	switch {
	case !p.st.Awake:
		return
	case p.life.locked:
		if !p.life.bouncer {
			p.lockedSwipe(y1, y2)
		}
		return
	case p.life.dialog != nil:
		return // the dialog has the focus
	case p.bannerSwipe(x1, y1, y2):
		return
	}
	s := p.screenNow()
	if p.shadeSwipe(s, x1, y1, x2, y2) {
		return
	}
	if w, ok := s.dragAt(x1, y1); ok {
		w.drag(x2)
		return
	}
	dy := y1 - y2
	if abs(dy) < 24 {
		return
	}
	for i := len(s.widgets) - 1; i >= 0; i-- {
		if w := s.widgets[i]; w.spin != nil && w.bounds.Contains(x1, y1) {
			w.spin(dy)
			return
		}
	}
	for _, w := range s.widgets {
		if w.kind == kList && w.bounds.Contains(x1, y1) && w.scrollOf != nil {
			w.scrollOf.scroll = min(max(w.scrollOf.scroll+dy, 0), w.maxScroll)
			w.scrollOf.scrolled = w.scrollOf.scroll < w.maxScroll
			return
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func (p *Phone) key(code int) {
	switch code {
	case 224: // WAKEUP
		p.st.Awake = true
		return
	case 223: // SLEEP
		p.sleepLocked()
		return
	case 26: // POWER
		if p.st.Awake {
			p.sleepLocked()
		} else {
			p.st.Awake = true
		}
		return
	}
	if !p.st.Awake {
		return
	}
	if p.life.locked {
		if p.life.bouncer {
			p.bouncerKey(code)
		}
		return
	}
	v := p.top()
	if p.shade.open && p.life.dialog == nil {
		// Back closes the shade; Home closes it and goes home.
		switch code {
		case 3:
			p.shade.open = false
			p.launch(pkgLauncher)
		case 4:
			p.shade.open = false
		}
		return
	}
	if p.life.dialog != nil {
		// Back closes a system dialog; Home closes it too (the system
		// closes its dialogs on Home) and goes home.
		switch code {
		case 3:
			p.life.dialog = nil
			p.launch(pkgLauncher)
		case 4:
			p.life.dialog = nil
		}
		return
	}
	switch code {
	case 3:
		p.launch(pkgLauncher)
	case 4:
		if v.popup != "" {
			v.popup = "" // Back dismisses a pop-up first
			return
		}
		p.back()
	case 67: // DEL
		if v.focus != "" {
			t := v.fields[v.focus]
			_, n := utf8.DecodeLastRuneInString(t)
			v.edit(v.focus, t[:len(t)-n])
		}
	default:
		if c, ok := keyChar(code); ok {
			p.typeText(c)
		}
	}
}

// typeText inserts text into the focused field.
func (p *Phone) typeText(t string) {
	if p.st.Awake && p.life.locked && p.life.bouncer {
		p.bouncerType(t)
		return
	}
	v := p.top()
	if !p.st.Awake || p.life.locked || p.life.dialog != nil || v.focus == "" {
		return
	}
	v.edit(v.focus, v.fields[v.focus]+t)
}

// clearText empties the focused field.
func (p *Phone) clearText() {
	v := p.top()
	if v.focus != "" && !p.life.locked && p.life.dialog == nil {
		v.edit(v.focus, "")
	}
}

// adbKeyboardActive reports whether ADB Keyboard broadcasts reach a receiver.
func (p *Phone) adbKeyboardActive() bool {
	return p.st.IMEInstalled && p.st.InputMethod == imeADB
}
