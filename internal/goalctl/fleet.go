package goalctl

import (
	"context"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// Fleet returns every phone a worker has published, sorted by serial:
// labels and facts, not whether a worker serves it now (DeviceService
// tells that; docs/design.md#phone-fleet).
func (g *Client) Fleet(ctx context.Context) ([]fleet.Phone, error) {
	return fleet.List(ctx, g.c, g.opts.Namespace, g.opts.DataConverter)
}
