package progress

import (
	"os"
	"unicode"

	"golang.org/x/term"
	"golang.org/x/text/width"
)

// The redrawn view moves the cursor up by the screen rows it drew, not by
// its lines: a line wider than the terminal wraps onto more rows, and moving
// up by lines would leave the top of the old view on the screen. Lines are
// clipped to the terminal's width, measured at each redraw, so each takes
// one row; rows drawn at an earlier, wider width are counted at the current
// one, as a terminal that reflows them shows them.

// cells is the number of terminal columns s takes: East Asian wide and
// fullwidth runes take two, combining marks and control runes none.
func cells(s string) int {
	n := 0
	for _, r := range s {
		n += runeCells(r)
	}
	return n
}

func runeCells(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.IsControl(r) || r == '\u200b':
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// clip cuts s to at most n cells, ending it with "…" when cut.
func clip(s string, n int) string {
	if n <= 0 || cells(s) <= n {
		return s
	}
	used := 0
	for i, r := range s {
		c := runeCells(r)
		if used+c > n-1 {
			return s[:i] + "…"
		}
		used += c
	}
	return s
}

// rows is how many screen rows lines of these cell widths take on a
// terminal w columns wide (0: unknown, one row each).
func rows(widths []int, w int) int {
	n := 0
	for _, c := range widths {
		if w <= 0 || c <= w {
			n++
			continue
		}
		n += (c + w - 1) / w
	}
	return n
}

// TerminalWidth returns a function that measures f's width in columns, or
// 0 when f is not a terminal; the CLI gives it to SetWidth.
func TerminalWidth(f *os.File) func() int {
	return func() int {
		w, _, err := term.GetSize(int(f.Fd()))
		if err != nil {
			return 0
		}
		return w
	}
}
