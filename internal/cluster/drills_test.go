//go:build drills

package cluster_test

import (
	"testing"
	"time"
)

// TestClusterDrills is TestCluster's full fault set (docs/design.md §14):
// three phones per host, three goals waiting on a person while the
// frontend is away for 60 s, besides PostgreSQL's crash and the history
// service's SIGKILL mid-goal.
func TestClusterDrills(t *testing.T) {
	start := time.Now()
	f := startFleet(t, 3)
	checkSearchAttributes(t, f)
	scenario(t, f, 60*time.Second)
	t.Logf("cluster drills took %s", time.Since(start).Round(time.Second))
}
