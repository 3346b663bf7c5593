//go:build !drills

package outage

import "time"

// Sizes of the fast variants, run by the default `go test`.
const (
	modelOutageFor     = 20 * time.Second // the model server down mid-goal
	modelFaultGoals    = 3
	variantDescription = "fast"
)
