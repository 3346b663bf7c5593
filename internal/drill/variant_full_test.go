//go:build drills

package drill

import "time"

// Sizes of the full variants, run with `go test -tags drills`.
const (
	killGoals          = 10
	killCount          = 3
	disconnectFor      = 30 * time.Second
	modelOutageFor     = 90 * time.Second // the model server down mid-goal
	modelFaultGoals    = 10
	killRecovery       = 15 * time.Minute
	variantDescription = "full"
)
