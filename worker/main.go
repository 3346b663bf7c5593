// Command worker runs phoneflow's Temporal worker: it serves goals on the
// shared task queue and each phone of its ADB server on that phone's own
// task queue, until SIGINT or SIGTERM.
//
//	go run ./worker                       # connect to the configured cluster
//	go run ./worker --dev                 # start the embedded server (SQLite under --data-dir, Web UI on port+1000)
//	go run ./worker --temporal-address temporal.internal:7233 --allow-device emulator-5554
//
// Settings come from flags, PHONEFLOW_* environment variables, phoneflow.yaml
// and defaults (see `starter config`).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
	// The zone database inside the binary: waits until a time of day are
	// read in the goal's zone even on hosts without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/spf13/pflag"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/tracing"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
	default:
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

// run parses args, optionally starts the embedded server, and runs the
// worker until ctx ends.
func run(ctx context.Context, args []string, logOut io.Writer) error {
	fs := pflag.NewFlagSet("worker", pflag.ContinueOnError)
	fs.SetOutput(logOut)
	dev := fs.Bool("dev", false, "start the embedded Temporal server (SQLite under --data-dir, Web UI on the port + 1000)")
	config.BindFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(logOut, "Usage: worker [flags]\n\nExamples:\n"+
			"  worker --dev\n  worker --temporal-address 10.0.0.2:7233 --allow-device emulator-5554\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: the worker takes flags only (see --help)", fs.Args())
	}
	cfg, _, err := config.Load(config.LoadOptions{Flags: fs})
	if err != nil {
		return err
	}
	log := newLogger(cfg.Log, logOut)
	slog.SetDefault(log)

	codecEndpoint := cfg.Temporal.Embedded.CodecEndpoint
	if cfg.Encryption.CodecAddress != "" {
		addr, err := app.ServeCodec(ctx, cfg, uiOrigins(cfg, *dev), log)
		if err != nil {
			return err
		}
		if codecEndpoint == "" {
			codecEndpoint = uiCodecEndpoint(addr, cfg.Encryption.CodecToken)
		}
		log.Info("serving the payload codec endpoint", "url", "http://"+addr)
	}

	if *dev {
		if cfg.Temporal.Address != "" {
			return fmt.Errorf("--dev starts the embedded server, but temporal.address is set to %s: drop one of them", cfg.Temporal.Address)
		}
		srv, err := devserver.Start(ctx, devserver.Options{
			Port:          cfg.Temporal.Embedded.Port,
			UIPort:        cfg.Temporal.Embedded.UIPort,
			DBFile:        cfg.Temporal.Embedded.DBFile,
			Namespaces:    []string{cfg.Temporal.Namespace},
			CodecEndpoint: codecEndpoint,
			Logger:        log,
		})
		if err != nil {
			return err
		}
		defer srv.Stop()
		cfg.Temporal.Address = srv.FrontendAddr()
		log.Info("embedded Temporal server", "address", srv.FrontendAddr(), "web_ui", srv.UIURL())
	}

	c, err := app.NewClient(ctx, cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	defer func() {
		// Export the spans still buffered (telemetry.otlp_endpoint).
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tracing.Shutdown(sctx); err != nil {
			log.Warn("could not export the last spans", "otlp_endpoint", cfg.Telemetry.OTLPEndpoint, "error", err)
		}
	}()
	return app.RunWorker(ctx, cfg, c, app.Deps{Logger: log})
}

// uiCodecEndpoint is the codec endpoint handed to the embedded Web UI. The
// UI cannot add an Authorization header, so a token goes in the path, where
// the endpoint also accepts it. The result may hold the token: never log it.
func uiCodecEndpoint(addr, token string) string {
	if token == "" {
		return "http://" + addr
	}
	return "http://" + addr + "/" + url.PathEscape(token)
}

// uiOrigins are the Web UI origins allowed to call the codec endpoint: the
// embedded UI with --dev; otherwise any origin when a token guards the
// endpoint, or the compose UI on loopback when none does.
func uiOrigins(cfg config.Config, dev bool) []string {
	if dev {
		p := strconv.Itoa(cfg.Temporal.Embedded.UIPort)
		return []string{"http://127.0.0.1:" + p, "http://localhost:" + p}
	}
	if cfg.Encryption.CodecToken != "" {
		return []string{"*"}
	}
	return []string{"http://127.0.0.1:8080", "http://localhost:8080"}
}

// newLogger builds the process logger from log.level and log.format.
func newLogger(l config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(l.Level)) // validated by config
	opts := &slog.HandlerOptions{Level: level}
	if l.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
