package app

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/codec"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// DataConverter is the converter workers and clients use for cfg: payloads
// encrypted with encryption.keys when set, else the SDK default.
func DataConverter(cfg config.Config) (converter.DataConverter, error) {
	if cfg.Encryption.Keys == "" {
		return converter.GetDefaultDataConverter(), nil
	}
	keys, err := codec.ParseKeys(cfg.Encryption.Keys)
	if err != nil {
		return nil, fmt.Errorf("encryption.keys: %w", err)
	}
	return codec.NewDataConverter(keys)
}

// ViewerOptions builds the step viewer of cfg's goals: histories read
// through c and decoded like the workers do, screenshots from the blob
// store under data_dir. With encryption on, the viewer serves decrypted
// goals, so it follows the codec endpoint's rule: loopback callers only
// unless encryption.codec_token is set, and then the token is required.
func ViewerOptions(cfg config.Config, c client.Client, webUI func(string) string, log *slog.Logger) (viewer.Options, error) {
	dc, err := DataConverter(cfg)
	if err != nil {
		return viewer.Options{}, err
	}
	blobs, err := blob.NewFS(filepath.Join(cfg.DataDir, "blobs"))
	if err != nil {
		return viewer.Options{}, err
	}
	o := viewer.Options{
		Reader: &viewer.Reader{Client: c, DataConverter: dc, HideReasoning: !cfg.Viewer.ShowReasoning},
		Blobs:  blobs,
		WebUI:  webUI,
		Logger: log,
		// Taking over reads the phone through this host's ADB server and
		// keeps typed text where this host's PersonAct finds it.
		TakeOver: takeOver{
			ctl: goalctl.New(c, goalctl.Options{Namespace: cfg.Temporal.Namespace, DataConverter: dc}),
			pool: device.NewPool(ADBClient(cfg, Deps{}), device.PoolOptions{Allow: cfg.ADB.Allow, Settle: SettlePolicy(cfg.Settle),
				Device: device.Options{Logger: log}}),
			typed: TypedStore(cfg),
		},
	}
	if cfg.Encryption.Keys != "" {
		o.Token = cfg.Encryption.CodecToken
		o.LoopbackOnly = o.Token == ""
	}
	return o, nil
}

// MountViewer serves the step viewer on mux (the worker's metrics server
// at addr) and makes workflows link to it from their Web UI details.
func MountViewer(mux *http.ServeMux, addr string, o viewer.Options) {
	mux.Handle(viewer.Path, viewer.Handler(o))
	base := "http://" + linkHost(addr)
	workflows.ViewerLink = func(id string) string { return viewer.URL(base, id) }
}

// linkHost turns a bound address into one a browser can open: a wildcard
// host becomes 127.0.0.1.
func linkHost(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// ViewerBase is the base URL of the step viewer a worker with cfg serves
// (on its metrics address), or "" when it serves none.
func ViewerBase(cfg config.Config) string {
	if cfg.Metrics.Address == "" {
		return ""
	}
	return "http://" + linkHost(LoopbackDefault(cfg.Metrics.Address))
}
