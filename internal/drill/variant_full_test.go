//go:build drills

package drill_test

import "time"

// Sizes of the full variants, run with `go test -tags drills`.
const (
	killGoals          = 20
	killCount          = 6
	disconnectFor      = 30 * time.Second
	killRecovery       = 20 * time.Minute
	killHookWait       = 2 * time.Minute // the fault hook fires on the Nth action after a start
	cutGoals           = 6               // goals of the drill that cuts connections as inputs arrive
	cutsPerPhone       = 6
	verifierOutageFor  = 90 * time.Second // the verifier endpoint down while a todo verifies
	variantDescription = "full"
)
