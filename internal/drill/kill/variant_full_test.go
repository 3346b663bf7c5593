//go:build drills

package kill

import "time"

// Sizes of the full variants, run with `go test -tags drills`.
const (
	killGoals          = 20
	killCount          = 6
	killRecovery       = 20 * time.Minute
	killHookWait       = 2 * time.Minute // the fault hook fires on the Nth action after a start
	variantDescription = "full"
)
