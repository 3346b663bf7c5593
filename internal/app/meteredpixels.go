package app

import (
	"context"

	"github.com/phoneflow/phoneflow/internal/device"
)

var _ device.PixelCapturer = meteredDevice{}

// ScreenPixels captures the raw screen when the phone's driver can, and
// the PNG otherwise (docs/design.md §3).
func (m meteredDevice) ScreenPixels(ctx context.Context) (device.Screenshot, error) {
	pc, ok := m.d.(device.PixelCapturer)
	if !ok {
		return m.Screenshot(ctx)
	}
	ctx, done := m.begin(ctx, "screenshot", false)
	s, err := pc.ScreenPixels(ctx)
	return s, done(err)
}
