package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/codec"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/internal/tracing"
)

// TemporalAddress is the frontend the configuration points at: the
// configured address, or the embedded server's port on loopback.
func TemporalAddress(cfg config.Config) string {
	if cfg.Temporal.Address != "" {
		return cfg.Temporal.Address
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Temporal.Embedded.Port))
}

// WorkerHeartbeatInterval is how often a worker process tells the cluster
// that it lives (one RecordWorkerHeartbeat call for all its workers, kept
// in the matching service's memory, never in a workflow's history).
// `starter devices` calls a phone unserved once its worker's process has
// been silent for goalctl.HeartbeatMisses of these (docs/design.md §5).
const WorkerHeartbeatInterval = 5 * time.Second

// ClientOptions builds the Temporal client options of cfg: address,
// namespace, TLS or mTLS, API key, payload encryption when keys are
// configured, SDK metrics into internal/metrics, the SDK's tracing
// interceptor when telemetry.otlp_endpoint is set, worker heartbeats
// every WorkerHeartbeatInterval, and logger (nil means slog.Default()).
func ClientOptions(cfg config.Config, logger *slog.Logger) (client.Options, error) {
	if logger == nil {
		logger = slog.Default()
	}
	addr := TemporalAddress(cfg)
	opts := client.Options{
		HostPort:       addr,
		Namespace:      cfg.Temporal.Namespace,
		Logger:         sdklog.NewStructuredLogger(logger),
		MetricsHandler: metrics.SDKHandler(),
		// Only a client that runs workers sends heartbeats.
		WorkerHeartbeatInterval: WorkerHeartbeatInterval,
	}
	tlsConf, err := TLSConfig(cfg.Temporal.TLS)
	if err != nil {
		return client.Options{}, err
	}
	if cfg.Temporal.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(cfg.Temporal.APIKey)
		// Hosted clusters that take API keys only speak TLS; a loopback
		// address is a local proxy or test server.
		if tlsConf == nil && !isLoopback(addr) {
			tlsConf = &tls.Config{MinVersion: tls.VersionTLS12, ServerName: cfg.Temporal.TLS.ServerName}
		}
	}
	opts.ConnectionOptions.TLS = tlsConf
	if cfg.Telemetry.OTLPEndpoint != "" {
		tp, err := tracing.Provider(cfg.Telemetry.OTLPEndpoint)
		if err != nil {
			return client.Options{}, err
		}
		ic, err := tracing.Interceptor(tp)
		if err != nil {
			return client.Options{}, fmt.Errorf("telemetry.otlp_endpoint: %w", err)
		}
		opts.Interceptors = append(opts.Interceptors, ic)
	}
	if cfg.Encryption.Keys != "" {
		keys, err := codec.ParseKeys(cfg.Encryption.Keys)
		if err != nil {
			return client.Options{}, fmt.Errorf("encryption.keys: %w", err)
		}
		dc, err := codec.NewDataConverter(keys)
		if err != nil {
			return client.Options{}, fmt.Errorf("encryption.keys: %w", err)
		}
		opts.DataConverter = dc
	}
	return opts, nil
}

// NewClient connects to the Temporal cluster cfg names (the embedded
// server's port when temporal.address is empty).
func NewClient(ctx context.Context, cfg config.Config) (client.Client, error) {
	opts, err := ClientOptions(cfg, nil)
	if err != nil {
		return nil, err
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s (namespace %s): %w — start the embedded server with "+
			"`go run ./worker --dev`, or point --temporal-address at a running cluster", opts.HostPort, opts.Namespace, err)
	}
	return c, nil
}

// TLSConfig builds the TLS settings for the frontend, or nil for plain
// gRPC. A client certificate turns on mutual TLS; a CA file replaces the
// system roots.
func TLSConfig(t config.TLS) (*tls.Config, error) {
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
			return nil, fmt.Errorf("temporal.tls.ca_file: %s holds no PEM certificate", t.CAFile)
		}
		tc.RootCAs = pool
	}
	return tc, nil
}

func isLoopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Dialer dials a config's Temporal frontend as every command does, logging
// to logger: demo.Options.Dial of an in-process stack.
func Dialer(logger *slog.Logger) func(context.Context, config.Config) (client.Client, error) {
	return func(ctx context.Context, cfg config.Config) (client.Client, error) {
		opts, err := ClientOptions(cfg, logger)
		if err != nil {
			return nil, err
		}
		return client.DialContext(ctx, opts)
	}
}
