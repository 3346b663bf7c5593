//go:build soak

package scheduled

import (
	"testing"
	"time"
)

// TestScheduleSoak is the full drill: a schedule every minute for 30
// minutes under each policy, the third run left waiting for an answer.
// Run it with
//
//	go test -tags soak -run TestScheduleSoak -timeout 60m ./internal/e2e/scheduled
func TestScheduleSoak(t *testing.T) {
	runBoth(t, time.Minute, 30*time.Minute, 2)
}
