//go:build !drills

package blocked

import "time"

// Sizes of the fast variant, run by the default `go test`.
const (
	blockedAfter  = 5 * time.Second
	checkInterval = 2 * time.Second
	// strict makes the drill fail when the phone changed hands later than
	// the bound; the fast variant only logs it (the machine may be loaded).
	strict  = false
	variant = "fast"
)
