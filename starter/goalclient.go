package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/goalctl"
)

// dialTemporal connects to the configured Temporal cluster. Tests replace
// it with a mocked client.
var dialTemporal = defaultDialTemporal

// temporalAddress is the frontend the CLI talks to: the configured one, or
// the embedded server's port on loopback.
func temporalAddress(cfg config.Config) string { return app.TemporalAddress(cfg) }

// uiAddress is the Web UI the CLI links to: --ui when given, the embedded
// UI port, or the frontend's host at port+1000 (where both the embedded
// server and `temporal server start-dev` serve it).
func uiAddress(cfg config.Config, flag string) string {
	if flag != "" {
		return flag
	}
	if cfg.Temporal.Address == "" {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Temporal.Embedded.UIPort))
	}
	host, port, err := net.SplitHostPort(cfg.Temporal.Address)
	if err != nil {
		return ""
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return ""
	}
	return net.JoinHostPort(host, strconv.Itoa(p+1000))
}

func defaultDialTemporal(ctx context.Context, cfg config.Config) (client.Client, error) {
	// The SDK logs every connection at info level; the CLI speaks for
	// itself and only passes on warnings.
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts, err := app.ClientOptions(cfg, quiet)
	if err != nil {
		return nil, usageError{err}
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := client.DialContext(dctx, opts)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s: %w\n  start a local one with `go run ./worker --dev` (or `starter demo --keep`), or point --temporal-address at your cluster", opts.HostPort, err)
	}
	return c, nil
}

// goalCmd holds what every goal command needs: the config, the Temporal
// client and goal operations on it.
type goalCmd struct {
	cfg   config.Config
	c     client.Client
	goals *goalctl.Client
}

// openGoals loads the configuration from the command's flags and connects.
// The caller must call close.
func openGoals(cmd *cobra.Command, ui string) (*goalCmd, error) {
	cfg, _, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
	if err != nil {
		return nil, usageError{err}
	}
	c, err := dialTemporal(cmd.Context(), cfg)
	if err != nil {
		return nil, err
	}
	return &goalCmd{cfg: cfg, c: c, goals: goalctl.New(c, goalctl.Options{
		Namespace: cfg.Temporal.Namespace,
		UIAddress: uiAddress(cfg, ui),
		Prices:    prices(cfg),
		// The live view keeps the reasoning out as the viewer does.
		HideReasoning: !cfg.Viewer.ShowReasoning,
	})}, nil
}

func (g *goalCmd) close() { g.c.Close() }

// cliErr maps goalctl errors to the CLI's exit codes: a missing goal or
// schedule is exit 3.
func cliErr(err error) error {
	var nf *goalctl.NotFoundError
	if errors.As(err, &nf) {
		return notFoundError{err}
	}
	return err
}

// noArgs is cobra.NoArgs with the usage exit code.
func noArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return usageError{err}
	}
	return nil
}
