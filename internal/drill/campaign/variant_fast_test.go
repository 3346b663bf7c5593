//go:build !campaign

package campaign

import "time"

// The bounded form the default `go test` runs.
const (
	defaultFaults = 20
	// settleFor is how long the last goals have, the faults stopped, to
	// end; one still running then is a failure of the campaign.
	settleFor    = 4 * time.Minute
	goalDeadline = 5 * time.Minute // go test's 10 min per package bound the whole run
)
