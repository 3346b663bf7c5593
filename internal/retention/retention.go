package retention

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/metrics"
)

// Store is the part of the blob store a Collector needs.
type Store interface {
	Collect(ctx context.Context, cutoff time.Time, keep func(ref string) bool) (blob.GCStats, error)
}

var _ Store = (*blob.FS)(nil)

// Goals answers which goals are still inside retention.
type Goals interface {
	// OldestStart returns the start time of the oldest goal that is still
	// running or closed after closedAfter; ok is false when there is none.
	OldestStart(ctx context.Context, closedAfter time.Time) (start time.Time, ok bool, err error)
	// Retention is the namespace's retention of closed goals.
	Retention(ctx context.Context) (time.Duration, error)
}

// ClockSkew is subtracted from every cutoff: the blob store's clock and the
// Temporal server's may differ by this much without losing a blob.
const ClockSkew = 10 * time.Minute

// Collector removes blobs that no goal inside retention can reference.
type Collector struct {
	Store Store
	Goals Goals
	// Retention keeps blobs of goals closed less than this long ago; zero
	// means the namespace's retention (Goals.Retention).
	Retention time.Duration
	// Keep names blobs kept whatever their age (references held outside
	// goal histories); nil keeps none.
	Keep func(ref string) bool
	// Now is the clock; nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Result is what one pass did.
type Result struct {
	Cutoff time.Time // blobs last Put before this were candidates
	blob.GCStats
}

// Cutoff returns the time before which no blob can be referenced by a
// goal inside retention: the earlier of now-retention and the start of the
// oldest goal still running or closed within retention, less ClockSkew.
// A goal Puts its blobs while it runs, and Put refreshes the time of a
// blob stored again, so every blob a kept goal references was last Put at
// or after that goal's start.
func (c *Collector) Cutoff(ctx context.Context) (time.Time, error) {
	now := c.now()
	keep := c.Retention
	if keep == 0 {
		r, err := c.Goals.Retention(ctx)
		if err != nil {
			return time.Time{}, fmt.Errorf("read the namespace's retention: %w (or set blobs.retention)", err)
		}
		keep = r
	}
	if keep <= 0 {
		return time.Time{}, errors.New("retention is not positive: set blobs.retention to a duration above zero")
	}
	cutoff := now.Add(-keep)
	start, ok, err := c.Goals.OldestStart(ctx, cutoff)
	if err != nil {
		return time.Time{}, fmt.Errorf("list the goals inside retention: %w", err)
	}
	if ok && start.Before(cutoff) {
		cutoff = start
	}
	return cutoff.Add(-ClockSkew), nil
}

// Once runs one pass. When the goals cannot be listed nothing is removed.
func (c *Collector) Once(ctx context.Context) (Result, error) {
	cutoff, err := c.Cutoff(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("blob retention: nothing removed: %w", err)
	}
	st, err := c.Store.Collect(ctx, cutoff, c.Keep)
	res := Result{Cutoff: cutoff, GCStats: st}
	metrics.BlobsCollected(st.Removed, st.RemovedBytes, st.KeptBytes)
	if err != nil {
		return res, fmt.Errorf("blob retention: %w", err)
	}
	return res, nil
}

// Run runs a pass at once and then every interval until ctx ends, logging
// what each pass freed. Errors are logged and the next pass tries again.
func (c *Collector) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		res, err := c.Once(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			c.logger().Warn("blob collection failed; will retry", "error", err, "next_in", interval)
		default:
			c.logger().Info("blob collection", "removed", res.Removed, "freed_bytes", res.RemovedBytes,
				"kept", res.Kept, "kept_bytes", res.KeptBytes, "cutoff", res.Cutoff.UTC().Format(time.RFC3339))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (c *Collector) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Collector) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}
