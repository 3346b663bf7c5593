//go:build !drills

package livephone

import "time"

// Sizes of the fast variants, run by the default `go test`.
const (
	cutGoals           = 2 // goals of the drill that cuts connections as inputs arrive
	cutsPerPhone       = 3
	verifierOutageFor  = 20 * time.Second // the verifier endpoint down while a todo verifies
	variantDescription = "fast"
)
