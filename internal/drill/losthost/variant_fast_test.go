//go:build !drills

package losthost

import "time"

// Sizes of the fast variant, run by the default `go test`.
const (
	// downFor is how long the phone's worker stays dead at least; it
	// stays dead until the goal has said so in any case.
	downFor = 20 * time.Second
	// toldWithin is how long the drill waits for the status to say no
	// worker serves the phone; the fast variant only requires that it
	// does (the machine running it may be loaded), and logs the time.
	toldWithin = 2 * time.Minute
	// idleToldWithin is the same for `starter devices` on an idle
	// phone (TestIdlePhoneWorkerKilled).
	idleToldWithin = 2 * time.Minute
	variant        = "fast"
)
