//go:build !campaign

package campaign

import "time"

// The bounded form the default `go test` runs.
const (
	defaultFaults = 20
	goalDeadline  = 8 * time.Minute
)
