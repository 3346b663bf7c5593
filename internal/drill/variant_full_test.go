//go:build drills

package drill_test

import "time"

// Sizes of the full variants, run with `go test -tags drills`.
const (
	disconnectFor      = 30 * time.Second
	variantDescription = "full"
	// disconnectAsksOnEachLook: TestPhoneDisconnectOnEachLook runs the
	// part past the deadline on each look too.
	disconnectAsksOnEachLook = true
)
