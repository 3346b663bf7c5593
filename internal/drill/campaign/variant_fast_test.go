//go:build !campaign

package campaign

import "time"

// The bounded form the default `go test` runs.
const (
	defaultFaults = 20
	goalDeadline  = 5 * time.Minute // go test's 10 min per package bound the whole run
)
