//go:build drills

package outage

import "time"

// Sizes of the full variants, run with `go test -tags drills`.
const (
	modelOutageFor     = 90 * time.Second // the model server down mid-goal
	modelFaultGoals    = 10
	variantDescription = "full"
)
