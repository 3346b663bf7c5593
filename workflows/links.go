package workflows

import "fmt"

// ViewerLink returns the step viewer page of a goal (see internal/viewer),
// or "" when the worker serves none. The worker sets it once at start from
// its configuration, before it polls; it only shapes the Web UI details
// text, which adds no command, so a replayer may leave it nil.
var ViewerLink func(goalID string) string

// viewerLink is ViewerLink, or "" when it is unset or goalID is empty.
func viewerLink(goalID string) string {
	if ViewerLink == nil || goalID == "" {
		return ""
	}
	return ViewerLink(goalID)
}

// plural writes a count with its noun: "1 step", "11 steps".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
