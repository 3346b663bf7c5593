//go:build drills

package livephone

import "time"

// Sizes of the full variants, run with `go test -tags drills`.
const (
	cutGoals           = 6 // goals of the drill that cuts connections as inputs arrive
	cutsPerPhone       = 6
	verifierOutageFor  = 90 * time.Second // the verifier endpoint down while a todo verifies
	variantDescription = "full"
)
