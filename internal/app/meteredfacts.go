package app

import (
	"context"

	"github.com/phoneflow/phoneflow/internal/device"
)

var _ device.FactReader = meteredDevice{}

// Facts are the wrapped phone's facts; none when it cannot tell them.
func (m meteredDevice) Facts(ctx context.Context) (device.Facts, error) {
	fr, ok := m.d.(device.FactReader)
	if !ok {
		return device.Facts{}, nil
	}
	ctx, done := m.begin(ctx, "facts", false)
	f, err := fr.Facts(ctx)
	return f, done(err)
}
