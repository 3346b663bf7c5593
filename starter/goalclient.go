package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
)

// dialTemporal connects to the configured Temporal cluster. Tests replace
// it with a mocked client.
var dialTemporal = defaultDialTemporal

// temporalAddress is the frontend the CLI talks to: the configured one, or
// the embedded server's port on loopback.
func temporalAddress(cfg config.Config) string {
	if cfg.Temporal.Address != "" {
		return cfg.Temporal.Address
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Temporal.Embedded.Port))
}

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
	opts := client.Options{
		HostPort:  temporalAddress(cfg),
		Namespace: cfg.Temporal.Namespace,
		// The SDK logs every connection at info level; the CLI speaks for
		// itself and only passes on warnings.
		Logger: sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	}
	tlsCfg, err := clientTLS(cfg.Temporal.TLS)
	if err != nil {
		return nil, err
	}
	opts.ConnectionOptions.TLS = tlsCfg
	if cfg.Temporal.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(cfg.Temporal.APIKey)
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

// clientTLS builds the TLS settings for the frontend, or nil for plain
// gRPC. A client certificate turns on mutual TLS.
func clientTLS(t config.TLS) (*tls.Config, error) {
	if !t.Enabled && t.CertFile == "" && t.CAFile == "" {
		return nil, nil
	}
	tc := &tls.Config{ServerName: t.ServerName, MinVersion: tls.VersionTLS12}
	if t.CertFile != "" || t.KeyFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("temporal.tls: load client certificate %s and key %s: %w", t.CertFile, t.KeyFile, err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("temporal.tls.ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("temporal.tls.ca_file %s holds no PEM certificate", t.CAFile)
		}
		tc.RootCAs = pool
	}
	return tc, nil
}

// noArgs is cobra.NoArgs with the usage exit code.
func noArgs(cmd *cobra.Command, args []string) error {
	if err := cobra.NoArgs(cmd, args); err != nil {
		return usageError{err}
	}
	return nil
}
