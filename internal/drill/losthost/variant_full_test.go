//go:build drills

package losthost

import "time"

// Sizes of the full variant, run with `go test -tags drills`.
const (
	downFor    = 40 * time.Second
	toldWithin = 30 * time.Second // the bound docs/design.md §5 promises
	// idleToldWithin is the same bound for `starter devices` on an idle
	// phone (TestIdlePhoneWorkerKilled).
	idleToldWithin = 30 * time.Second
	variant        = "full"
)
