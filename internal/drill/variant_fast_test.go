//go:build !drills

package drill_test

import "time"

// Sizes of the fast variants, run by the default `go test`.
const (
	disconnectFor      = 12 * time.Second // long enough that steps fail while the phone is away
	variantDescription = "fast"
	// disconnectAsksOnEachLook: TestPhoneDisconnectOnEachLook leaves out
	// the part past the deadline.
	disconnectAsksOnEachLook = false
)
