//go:build campaign

package campaign

import "time"

// The campaign `go test -tags campaign` runs; -campaign.faults sets its size.
const (
	defaultFaults = 200
	// settleFor is how long the last goals have, the faults stopped, to
	// end; one still running then is a failure of the campaign.
	settleFor    = 10 * time.Minute
	goalDeadline = 20 * time.Minute
)
