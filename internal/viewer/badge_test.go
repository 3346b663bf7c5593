package viewer

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/workflows"
)

// luminance is a #rrggbb colour's relative luminance (WCAG 2).
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 7 {
		t.Fatalf("colour %q is not #rrggbb", hex)
	}
	lin := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(v>>16&0xff) + 0.7152*lin(v>>8&0xff) + 0.0722*lin(v&0xff)
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Every status badge is readable: its words at least 4.5:1 against its
// ground, each phase a goal publishes and each result has a badge of its
// own, and the rules the page gets say so (no white inherited from the
// header).
func TestStatusBadgesAreReadable(t *testing.T) {
	named := map[string]bool{}
	for _, b := range append(badges(), plainBadge) {
		if c := contrast(t, b.Ground, b.Words); c < 4.5 {
			t.Errorf("badge %q: %s on %s is %.2f:1, under 4.5:1", b.Status, b.Words, b.Ground, c)
		}
		named[b.Status] = true
	}
	for _, s := range []string{workflows.GoalPlanning, workflows.GoalRunning, workflows.GoalPaused, workflows.GoalWaitingUser,
		workflows.GoalWaitingModel, workflows.GoalWaitingUntil, workflows.GoalWaitingPhone, workflows.GoalDone, workflows.GoalFailed,
		workflows.TodoStuck, workflows.TodoOutOfBudget} {
		if !named[s] {
			t.Errorf("status %q has no badge", s)
		}
	}
	css := string(badgeCSS())
	for _, want := range []string{".status{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;background:#e4e7ec;color:#1d2330}",
		".status.waiting_until{background:#e9e3ff;color:#3b2a85}", ".status.running{background:#d6e8ff;color:#0b3d91}"} {
		if !strings.Contains(css, want) {
			t.Errorf("the page's rules lack %q:\n%s", want, css)
		}
	}
	var b strings.Builder
	tpl, err := page.Clone()
	if err != nil {
		t.Fatal(err)
	}
	if err := tpl.ExecuteTemplate(&b, "page", pageData{Goal: Goal{ID: "g", Status: workflows.GoalPaused}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), ".status.paused{background:#fff1c2;color:#5c4300}") {
		t.Errorf("the page does not carry the badge rules:\n%s", b.String()[:min(b.Len(), 2000)])
	}
}
