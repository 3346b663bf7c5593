package viewer

import (
	"fmt"
	"html"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// LayoutSVG draws a screen that forbids screenshots (FLAG_SECURE, as
// banking apps set) from its element list: a box per element at its
// pixels, its text or description inside, tappable ones shaded, so a
// person taking over still sees where to click (docs/design.md §7). The
// text of a password field is never drawn.
func LayoutSVG(els []uitree.Element, w, h int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#f7f7fa"/>`, w, h)
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="%d" fill="#8a8fa0" text-anchor="middle">secure screen: its layout, not a screenshot</text>`, w/2, h-h/40, max(h/70, 10))
	for _, e := range els {
		bw, bh := e.Bounds.X2-e.Bounds.X1, e.Bounds.Y2-e.Bounds.Y1
		if bw <= 0 || bh <= 0 || (bw >= w && bh >= h) {
			continue
		}
		fill, stroke := "none", "#c5c9d6"
		if e.Clickable {
			fill, stroke = "#dfe8ff", "#4f6bd8"
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="%s" stroke-width="2" rx="6"/>`, e.Bounds.X1, e.Bounds.Y1, bw, bh, fill, stroke)
		label := e.Text
		switch {
		case e.Password && label != "":
			label = "••••••"
		case label == "":
			label = e.Desc
		}
		if label == "" {
			continue
		}
		size := min(max(bh/3, 12), 44)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="%d" fill="#1d2330" dominant-baseline="middle">%s</text>`,
			e.Bounds.X1+12, (e.Bounds.Y1+e.Bounds.Y2)/2, size, html.EscapeString(clipLabel(label, 60)))
	}
	b.WriteString(`</svg>`)
	return []byte(b.String())
}

func clipLabel(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
