//go:build !drills

package drill_test

import "time"

// Sizes of the fast variants, run by the default `go test`.
const (
	killGoals          = 4
	killCount          = 3
	disconnectFor      = 12 * time.Second // long enough that steps fail while the phone is away
	killRecovery       = 5 * time.Minute
	killHookWait       = 2 * time.Minute // the fault hook fires on the Nth action after a start
	cutGoals           = 2               // goals of the drill that cuts connections as inputs arrive
	cutsPerPhone       = 3
	verifierOutageFor  = 20 * time.Second // the verifier endpoint down while a todo verifies
	variantDescription = "fast"
)
