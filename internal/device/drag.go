package device

import (
	"context"
	"fmt"
	"time"
)

// Dragger is a phone that can drag without the settle wait every other
// input gets (screen captures until two match): the caller waits for what
// it needs itself. A read-only probe reads the UI tree until it stops
// changing, which is cheaper than captures when only the tree is read
// (docs/design.md §9).
type Dragger interface {
	DragUnsettled(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error
}

var _ Dragger = (*adbDevice)(nil)

// DragUnsettled is Swipe without the settle wait: it returns once the
// phone ran `input swipe`.
func (d *adbDevice) DragUnsettled(ctx context.Context, x1, y1, x2, y2 int, dur time.Duration) error {
	if dur <= 0 {
		dur = SwipeDuration(x1, y1, x2, y2)
	}
	if err := d.send(ctx, fmt.Sprintf("input swipe %d %d %d %d %d", x1, y1, x2, y2, dur.Milliseconds())); err != nil {
		return fmt.Errorf("device %s: %w", d.serial, err)
	}
	return nil
}
