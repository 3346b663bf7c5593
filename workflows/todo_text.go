package workflows

import (
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// firstLine returns the first non-empty line of s, cut to n bytes.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return truncate(l, n)
		}
	}
	return ""
}

func appendLesson(l []string, s string) []string {
	if len(s) > 160 {
		s = s[:160]
	}
	for _, x := range l {
		if x == s {
			return l
		}
	}
	l = append(l, s)
	if len(l) > 5 {
		l = l[len(l)-5:]
	}
	return l
}

// actionKey writes an action compactly for comparisons and summaries when
// the activity did not supply the model's own text.
func actionKey(a autoglm.Action) string {
	var b strings.Builder
	b.WriteString(a.Name)
	pt := func(p *autoglm.Point) {
		if p != nil {
			fmt.Fprintf(&b, " [%d,%d]", p[0], p[1])
		}
	}
	pt(a.Element)
	pt(a.Start)
	pt(a.End)
	text := a.Text
	if a.Sealed != "" {
		text = autoglm.Masked(a.Chars)
	}
	for _, s := range []string{a.App, text, a.Message, a.Duration, a.Instruction} {
		if s != "" {
			fmt.Fprintf(&b, " %q", s)
		}
	}
	return b.String()
}

// ActionSummary is the Web UI summary of an action, in pixels when the
// screen size is known: "Tap (540,1200)", "Launch Settings".
func ActionSummary(a autoglm.Action, width, height int) string {
	px := func(p *autoglm.Point) string {
		if p == nil {
			return ""
		}
		if width > 0 && height > 0 {
			return fmt.Sprintf("(%d,%d)", uitree.Pixel(p[0], width), uitree.Pixel(p[1], height))
		}
		return fmt.Sprintf("[%d,%d]", p[0], p[1])
	}
	s := a.Name
	switch a.Name {
	case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
		s += " " + px(a.Element)
	case autoglm.ActionSwipe:
		s += " " + px(a.Start) + "→" + px(a.End)
	case autoglm.ActionLaunch:
		s += " " + a.App
	case autoglm.ActionType, autoglm.ActionTypeName:
		if a.Sealed != "" {
			s += " " + autoglm.Masked(a.Chars)
			break
		}
		s += " " + truncate(a.Text, 40)
	case autoglm.ActionWait:
		s += " " + a.Duration
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// rootMessage returns what an error says without Temporal's wrappers: the
// message of the application error inside (an activity's own words), else
// the innermost error's text.
func rootMessage(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Message()
	}
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}
