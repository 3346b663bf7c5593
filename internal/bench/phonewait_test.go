package bench

import (
	"testing"
	"time"
)

// TestChecksWithin: the backoff of a wait for the phone, 15 s doubling to
// 5 min, checks at 0, 15, 45, 105, 225, 465, 765 s and every 5 min after.
func TestChecksWithin(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int
	}{
		{time.Second, 1}, {16 * time.Second, 2}, {2 * time.Minute, 4}, {8 * time.Minute, 6},
		{time.Hour, 16}, {2 * time.Hour, 28},
	} {
		if got := ChecksWithin(c.d); got != c.want {
			t.Errorf("ChecksWithin(%s) = %d, want %d", c.d, got, c.want)
		}
	}
}
