package viewer

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/phoneflow/phoneflow/workflows"
)

// badge is how a status is drawn on the page: dark words on a light
// ground, at least 4.5:1 apart (WCAG AA for small text), on the dark
// header as on a white todo card.
type badge struct{ Status, Ground, Words string }

// plainBadge draws a status no badge names.
var plainBadge = badge{"", "#e4e7ec", "#1d2330"}

// badges are the goal phases and the goal and todo results.
func badges() []badge {
	blue := func(s string) badge { return badge{s, "#d6e8ff", "#0b3d91"} }
	amber := func(s string) badge { return badge{s, "#fff1c2", "#5c4300"} }
	violet := func(s string) badge { return badge{s, "#e9e3ff", "#3b2a85"} }
	red := func(s string) badge { return badge{s, "#fbd5d5", "#8a1212"} }
	return []badge{
		blue(workflows.GoalPlanning), blue(workflows.GoalRunning),
		amber(workflows.GoalPaused), amber(workflows.GoalWaitingUser),
		violet(workflows.GoalWaitingUntil), violet(workflows.GoalWaitingModel), violet(workflows.GoalWaitingPhone), violet(workflows.GoalWaitingDevice),
		{workflows.GoalDone, "#d3f5dd", "#0b4a1f"},
		red(workflows.GoalFailed), red(workflows.TodoStuck), red(workflows.TodoOutOfBudget),
	}
}

// badgeCSS is the page's style rules for the badges.
func badgeCSS() template.CSS {
	var b strings.Builder
	fmt.Fprintf(&b, ".status{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;background:%s;color:%s}\n", plainBadge.Ground, plainBadge.Words)
	for _, s := range badges() {
		fmt.Fprintf(&b, ".status.%s{background:%s;color:%s}\n", s.Status, s.Ground, s.Words)
	}
	return template.CSS(b.String())
}
