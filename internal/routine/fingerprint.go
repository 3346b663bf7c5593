package routine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Fingerprint prefixes: a UI tree signature, or the coarse image hash when
// the screen had no tree (a secure screen, ui_tree off, a screen that
// cannot be dumped).
const (
	sigTree  = "tree:"
	sigImage = "img:"
)

// gridStep is how coarsely element bounds enter a signature, on the 0-999
// grid: small layout jitter does not change a screen's identity.
const gridStep = 10

// maxLabel is the longest label that enters a signature: short labels of
// controls (buttons, rows, switches) are part of what a screen is; longer
// text is content (messages, notes) and changes between runs.
const maxLabel = 40

// Fingerprint is the identity of a screen for replay: the app in front and
// the structure of its actionable elements (class, resource ID, state
// flags, coarse bounds, and the short labels of clickable controls with
// digits masked), hashed. Text that changes between runs (field values,
// message bodies, times and counters) stays out, so the same screen with
// other content matches while a pop-up, another page, another list order or
// a switch in another state does not. With no tree, the coarse image hash
// stands in.
func Fingerprint(appPackage string, elems []uitree.Element, width, height int, imageHash string) string {
	if len(elems) == 0 {
		if imageHash == "" {
			return ""
		}
		return sigImage + appPackage + ":" + imageHash
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", appPackage)
	for _, e := range elems {
		if line := elementLine(e, width, height); line != "" {
			fmt.Fprintln(h, line)
		}
	}
	return sigTree + appPackage + ":" + hex.EncodeToString(h.Sum(nil))[:20]
}

func editable(e uitree.Element) bool { return strings.Contains(e.Class, "EditText") }

func elementLine(e uitree.Element, width, height int) string {
	if !e.Interesting() || !(e.Clickable || e.Checkable || e.Scrollable || editable(e)) {
		return ""
	}
	grid := func(px, size int) int { return uitree.Relative(px, size) / gridStep }
	b := e.Bounds
	line := fmt.Sprintf("%s|%s|c%t k%t/%t f%t s%t|%d,%d,%d,%d", e.ShortClass(), e.ShortID(),
		e.Clickable, e.Checkable, e.Checked, e.Focused, e.Scrollable,
		grid(b.X1, width), grid(b.Y1, height), grid(b.X2, width), grid(b.Y2, height))
	if e.Clickable && !editable(e) {
		if l := Label(e); l != "" && len(l) <= maxLabel {
			line += "|" + maskDigits(l)
		}
	}
	return line
}

// Label is what an element says: its text, else its description.
func Label(e uitree.Element) string {
	if t := strings.TrimSpace(e.Text); t != "" {
		return t
	}
	return strings.TrimSpace(e.Desc)
}

func maskDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '#'
		}
		return r
	}, s)
}

// Describe says in a few words what kind of fingerprint f is, for people.
func Describe(f string) string {
	switch {
	case strings.HasPrefix(f, sigTree):
		return "UI tree " + strings.TrimPrefix(f, sigTree)
	case strings.HasPrefix(f, sigImage):
		return "image " + strings.TrimPrefix(f, sigImage)
	}
	return "none"
}

// ElementAt is the smallest clickable element containing the pixel (x, y),
// or the smallest element of any kind when none is clickable.
func ElementAt(elems []uitree.Element, x, y int) (uitree.Element, bool) {
	best, found, bestClick := uitree.Element{}, false, false
	area := func(e uitree.Element) int { return (e.Bounds.X2 - e.Bounds.X1) * (e.Bounds.Y2 - e.Bounds.Y1) }
	for _, e := range elems {
		if !e.Bounds.Contains(x, y) {
			continue
		}
		switch {
		case !found, e.Clickable && !bestClick, e.Clickable == bestClick && area(e) < area(best):
			best, found, bestClick = e, true, e.Clickable
		}
	}
	return best, found
}
