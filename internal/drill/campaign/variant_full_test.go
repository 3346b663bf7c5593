//go:build campaign

package campaign

import "time"

// The campaign `go test -tags campaign` runs; -campaign.faults sets its size.
const (
	defaultFaults = 200
	goalDeadline  = 20 * time.Minute
)
