package activities

import (
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// newlySent turns a held last_sent check into not held when no commit of
// the todo sent its message: the bubble the conversation ends with was
// then on the phone before the todo, yesterday's "on my way" for today's
// (docs/design.md §9). final is the screen the check was judged on.
func newlySent(rs []postcond.Result, commits []string, final []uitree.Element) {
	for i, r := range rs {
		if r.Check.Kind != postcond.LastSent || !r.Held || sentBy(commits, r.Check.Contains, final) {
			continue
		}
		rs[i].Held = false
		rs[i].Evidence = r.Evidence + ", but no commit of this todo sent that message: the bubble was on the phone before it"
	}
}

// sentBy reports whether one of commits sent a message that is text. A
// commit's key is the app, the control and the texts its fields held
// (commitTap.Key). A tap a system window met right after it
// (unconfirmedMark) may have landed on that window: it counts only when
// final shows its text more often than the screen it was tapped on did,
// a new bubble.
func sentBy(commits []string, text string, final []uitree.Element) bool {
	for _, k := range commits {
		key, counts, unconfirmed := strings.Cut(k, unconfirmedMark)
		parts := strings.Split(key, "|")
		if len(parts) < 3 {
			continue
		}
		fields := parts[2:]
		was := strings.Split(counts, ",")
		for j, f := range fields {
			if !postcond.SameMessage(f, text) {
				continue
			}
			if !unconfirmed {
				return true
			}
			if j < len(was) {
				if n, err := strconv.Atoi(was[j]); err == nil && shown(final, f) > n {
					return true
				}
			}
		}
	}
	return false
}
