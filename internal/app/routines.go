package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/routine"
)

// OpenRoutines opens the routine store the config names
// (docs/design.md §8): <data_dir>/routines, or the bucket of
// routines_store shared by a fleet. A host that moves to a bucket brings
// the routines it learned alone into it (routine.Store.Import).
func OpenRoutines(ctx context.Context, cfg config.Config, log *slog.Logger) (*routine.Store, error) {
	local, err := routine.Open(filepath.Join(cfg.DataDir, "routines"))
	if err != nil {
		return nil, fmt.Errorf("routines under data_dir %s: %w", cfg.DataDir, err)
	}
	if cfg.RoutinesStore == "" {
		return local, nil
	}
	shared, err := routine.OpenURL(ctx, cfg.RoutinesStore)
	if err != nil {
		return nil, fmt.Errorf("routines_store: %w", err)
	}
	n, err := shared.Import(local)
	if err != nil {
		return nil, fmt.Errorf("routines_store %s: bringing the routines of %s: %w", cfg.RoutinesStore, local.Dir(), err)
	}
	if n > 0 && log != nil {
		log.Info("routines learned on this host copied to the shared store", "count", n, "from", local.Dir(), "to", cfg.RoutinesStore)
	}
	return shared, nil
}
