package modelserver

import (
	"regexp"
	"strings"
)

// A place in a list said as a superlative (docs/design.md §9): the Clock
// lists alarms by time, so the earliest alarm is the first and the latest
// the last; Notes lists notes in the order they were written, so the
// newest note is the last and the oldest the first. A superlative of
// another list, or one the list's order does not answer ("my next alarm"
// depends on the hour), is no place.

var (
	rdEarliestRe = regexp.MustCompile(`(?i)\b(?:earliest|soonest)\b`)
	rdLatestRe   = regexp.MustCompile(`(?i)\b(?:latest)\b`)
	rdNewestRe   = regexp.MustCompile(`(?i)\b(?:newest|latest|most\s+recent(?:ly\s+(?:added|created|written))?|last\s+(?:added|created|written))\b`)
	rdOldestRe   = regexp.MustCompile(`(?i)\b(?:oldest|earliest|first\s+(?:added|created|written))\b`)
	rdAlarmWdRe  = regexp.MustCompile(`(?i)\balarms?\b`)
	rdNoteWdRe   = regexp.MustCompile(`(?i)\bnotes?\b`)
)

// superlative is the place in its list a superlative names: 1 for the
// first, postcond.Last (-1) for the last, 0 for none.
func superlative(c string) int {
	lower := strings.ToLower(c)
	switch {
	case rdAlarmWdRe.MatchString(lower) && !rdNoteWdRe.MatchString(lower):
		switch {
		case rdEarliestRe.MatchString(lower):
			return 1
		case rdLatestRe.MatchString(lower):
			return -1
		}
	case rdNoteWdRe.MatchString(lower) && !rdAlarmWdRe.MatchString(lower):
		switch {
		case rdOldestRe.MatchString(lower):
			return 1
		case rdNewestRe.MatchString(lower):
			return -1
		}
	}
	return 0
}
