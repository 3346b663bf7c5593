package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
)

func init() { rootCmd.AddCommand(newCodecServerCmd()) }

// DefaultCodecAddr is where codec-server listens unless told otherwise:
// loopback only, as anyone who can call the endpoint reads every payload.
const DefaultCodecAddr = "127.0.0.1:8081"

type codecFlags struct {
	addr    string
	token   string
	origins []string
}

func newCodecServerCmd() *cobra.Command {
	var f codecFlags
	cmd := &cobra.Command{
		Use:   "codec-server",
		Short: "Serve the payload codec endpoint so the Web UI can show encrypted payloads",
		Long: `codec-server serves POST /encode and POST /decode in the format of the Temporal
Web UI's codec endpoint, with the encryption keys of the configuration
(encryption.keys, PHONEFLOW_ENCRYPTION_KEYS), until Ctrl-C. The Web UI then
shows goal texts, plans and results that are stored encrypted.

It listens on 127.0.0.1 by default. A non-loopback --addr needs a token
(--token or encryption.codec_token): anyone who can call the endpoint can read
every payload. The Web UI cannot send an Authorization header, so with a token
its codec endpoint is http://HOST:PORT/<token>; other clients may send
"Authorization: Bearer <token>" to http://HOST:PORT instead.

Point the Web UI at it:
  - the embedded server: temporal.embedded.codec_endpoint
    (PHONEFLOW_TEMPORAL_EMBEDDED_CODEC_ENDPOINT=http://127.0.0.1:8081), or just
    run the worker with --dev and --codec-address, which serves the endpoint
    itself and hands it to the embedded UI;
  - a Temporal UI server: TEMPORAL_CODEC_ENDPOINT=http://127.0.0.1:8081, or
    in the UI the "Data Encoder" settings of the browser.
--origin lists the Web UI origins allowed to call it from a browser (default:
the embedded UI on the configured Temporal port + 1000, and the compose UI on
port 8080).`,
		Example: `  PHONEFLOW_ENCRYPTION_KEYS=k1:$(head -c 32 /dev/urandom | base64) starter codec-server
  starter codec-server --addr 127.0.0.1:8081 --origin http://127.0.0.1:8233
  starter codec-server --addr 0.0.0.0:8081 --token "$CODEC_TOKEN" --origin https://temporal.example.com`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
			if err != nil {
				return usageError{err}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return runCodecServer(ctx, cmd.OutOrStdout(), cfg, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.addr, "addr", "", "listen address (default: encryption.codec_address, else "+DefaultCodecAddr+")")
	fs.StringVar(&f.token, "token", "", "token callers must present (default: encryption.codec_token); required off loopback")
	fs.StringSliceVar(&f.origins, "origin", nil, "Web UI origin allowed to call the endpoint from a browser (repeatable)")
	config.BindFlags(fs)
	return cmd
}

// codecSettings resolves the flags against the configuration: the address,
// the token and the allowed origins the endpoint is served with.
func codecSettings(cfg config.Config, f codecFlags) (config.Config, []string, error) {
	if cfg.Encryption.Keys == "" {
		return cfg, nil, usageError{fmt.Errorf("no encryption keys: set encryption.keys (PHONEFLOW_ENCRYPTION_KEYS) to the keys the worker encrypts with, " +
			"as \"id:base64key[,id:base64key…]\"")}
	}
	switch {
	case f.addr != "":
		cfg.Encryption.CodecAddress = f.addr
	case cfg.Encryption.CodecAddress == "":
		cfg.Encryption.CodecAddress = DefaultCodecAddr
	}
	if _, _, err := net.SplitHostPort(cfg.Encryption.CodecAddress); err != nil {
		return cfg, nil, usageError{fmt.Errorf("--addr %q is not host:port: %w", cfg.Encryption.CodecAddress, err)}
	}
	if f.token != "" {
		cfg.Encryption.CodecToken = f.token
	}
	origins := f.origins
	if len(origins) == 0 {
		ui := cfg.Temporal.Embedded.UIPort
		if ui == 0 {
			ui = cfg.Temporal.Embedded.Port + 1000
		}
		p := strconv.Itoa(ui)
		origins = []string{"http://127.0.0.1:" + p, "http://localhost:" + p, "http://127.0.0.1:8080", "http://localhost:8080"}
	}
	return cfg, origins, nil
}

// runCodecServer serves the codec endpoint until ctx ends and prints where
// to point the Web UI (never the token itself).
func runCodecServer(ctx context.Context, out io.Writer, cfg config.Config, f codecFlags) error {
	cfg, origins, err := codecSettings(cfg, f)
	if err != nil {
		return err
	}
	addr, err := app.ServeCodec(ctx, cfg, origins, nil)
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(out, "codec endpoint listening on http://%s\n", addr)
	if cfg.Encryption.CodecToken != "" {
		fmt.Fprintf(out, "  Web UI codec endpoint: http://%s/<token>   (other clients: Authorization: Bearer <token>)\n", addr)
	} else {
		fmt.Fprintf(out, "  Web UI codec endpoint: http://%s   (no token: loopback only)\n", addr)
	}
	fmt.Fprintf(out, "  allowed browser origins: %v\n", origins)
	fmt.Fprintln(out, "Press Ctrl-C to stop.")
	<-ctx.Done()
	return nil
}
