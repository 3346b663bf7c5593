package drill

import (
	"context"
	"log/slog"

	"github.com/phoneflow/phoneflow/config"

	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack"
)

// ErrNoADB means the adb binary is not on PATH: drills drive their
// simulated phones through a real adb server.
var ErrNoADB = stack.ErrNoADB

// Options configure Start.
type Options struct {
	// DataDir holds the Temporal SQLite file, blobs and prompt memory.
	DataDir string
	// Phones is the number of simulated phones; 0 means 1.
	Phones int
	// Model configures the offline model server (fault rates, seed).
	Model modelserver.Config
	// Life is what the simulated phones do by themselves; zero is off.
	Life phonesim.Life
	// Logger receives the stack's and the in-process worker's logs; nil
	// discards them.
	Logger *slog.Logger
	// Skin is the look of the simulated phones (the config's sim.skin,
	// docs/phones.md#skins); "" is the default configuration's.
	Skin phonesim.Skin
}

// Stack is the drills' stack: the embedded server on a SQLite file (so it
// can be restarted), offline models, simulated phones behind a private
// server of the real adb binary, and a client. See package stack.
type Stack = stack.Stack

// Start brings a drill stack up. On error everything already started is
// stopped.
func Start(ctx context.Context, o Options) (*Stack, error) {
	cfg := config.Default()
	if o.Skin != "" {
		cfg.Sim.Skin = string(o.Skin)
	}
	return stack.Start(ctx, stack.Options{
		Config:  &cfg,
		DataDir: o.DataDir,
		FileDB:  true,
		Phones:  o.Phones,
		ADB:     stack.RealADB,
		Model:   o.Model,
		Life:    o.Life,
		Logger:  o.Logger,
	})
}
