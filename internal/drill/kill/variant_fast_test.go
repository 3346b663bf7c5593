//go:build !drills

package kill

import "time"

// Sizes of the fast variants, run by the default `go test`.
const (
	killGoals          = 4
	killCount          = 3
	killRecovery       = 5 * time.Minute
	killHookWait       = 2 * time.Minute // the fault hook fires on the Nth action after a start
	variantDescription = "fast"
)
