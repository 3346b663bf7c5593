package security

import (
	"context"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// isLoopbackAddr reports whether host:port names a loopback host.
func isLoopbackAddr(t *testing.T, hostport string) bool {
	t.Helper()
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		t.Fatalf("%q is not host:port: %v", hostport, err)
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// TestLoopbackDefaults checks that every listener phoneflow opens on its
// own binds 127.0.0.1 unless told otherwise.
func TestLoopbackDefaults(t *testing.T) {
	def := config.Default()
	for name, addr := range map[string]string{
		"model server default":        modelserver.DefaultAddr,
		"model server empty address":  modelserver.LoopbackAddr(""),
		"model server bare port":      modelserver.LoopbackAddr(":8090"),
		"metrics (config default)":    def.Metrics.Address,
		"metrics bare port":           app.LoopbackDefault(":9464"),
		"embedded Temporal (client)":  app.TemporalAddress(def),
		"ADB server (config default)": def.ADB.Address,
	} {
		if !isLoopbackAddr(t, addr) {
			t.Errorf("%s = %s, want a loopback address", name, addr)
		}
	}

	// Nothing serves decrypted payloads unless asked to.
	if def.Encryption.CodecAddress != "" || def.Temporal.Embedded.CodecEndpoint != "" {
		t.Errorf("codec endpoint on by default: address %q, UI endpoint %q", def.Encryption.CodecAddress, def.Temporal.Embedded.CodecEndpoint)
	}

	// The simulator: a bare port binds loopback.
	l, err := phonesim.Listen(":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !isLoopbackAddr(t, l.Addr().String()) {
		t.Errorf("phonesim.Listen(\":0\") bound %s, want loopback", l.Addr())
	}

	// The codec endpoint refuses to serve beyond loopback without a token,
	// and serves on loopback without one.
	cfg := def
	cfg.Encryption.Keys = "k1:" + encKeyB64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, open := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		cfg.Encryption.CodecAddress = open
		if _, err := app.ServeCodec(ctx, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "codec_token") {
			t.Errorf("codec endpoint on %s without a token: err = %v, want a refusal naming encryption.codec_token", open, err)
		}
	}
	cfg.Encryption.CodecAddress = "127.0.0.1:0"
	addr, err := app.ServeCodec(ctx, cfg, nil, nil)
	if err != nil || !isLoopbackAddr(t, addr) {
		t.Errorf("codec endpoint on loopback without a token: %s, %v", addr, err)
	}
}

// TestEmbeddedServerBindsLoopback checks the addresses the embedded
// Temporal server and its Web UI listen on in a running stack.
func TestEmbeddedServerBindsLoopback(t *testing.T) {
	s := newStack(t, stackOptions{})
	if a := s.env.Server.FrontendAddr(); !isLoopbackAddr(t, a) {
		t.Errorf("embedded frontend on %s, want loopback", a)
	}
	if u := s.env.Server.UIURL(); !isLoopbackAddr(t, hostOf(t, u)) {
		t.Errorf("embedded Web UI on %s, want loopback", u)
	}
	for _, u := range []string{s.env.ModelURL} {
		if !isLoopbackAddr(t, hostOf(t, u)) {
			t.Errorf("model server on %s, want loopback", u)
		}
	}
	if !isLoopbackAddr(t, s.env.Serial) || !isLoopbackAddr(t, s.env.ADBAddr) {
		t.Errorf("simulated phone %s / ADB server %s, want loopback", s.env.Serial, s.env.ADBAddr)
	}
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		t.Fatalf("%q is not a URL with a host: %v", raw, err)
	}
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), "80")
	}
	return u.Host
}
