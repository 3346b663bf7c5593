//go:build drills

package blocked

import "time"

// Sizes of the full variant (`go test -tags drills`).
const (
	blockedAfter  = 20 * time.Second
	checkInterval = 5 * time.Second
	strict        = true
	variant       = "full"
)
