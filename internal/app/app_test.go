package app

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/internal/tracing"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

func testConfig(t *testing.T) config.Config {
	t.Helper()
	cfg, _, err := config.Load(config.LoadOptions{Env: func(string) (string, bool) { return "", false }, SearchDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	cfg.PromptMemoryPath = filepath.Join(cfg.DataDir, "prompt_memory.json")
	return cfg
}

func TestClientOptions(t *testing.T) {
	cfg := testConfig(t)
	opts, err := ClientOptions(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.HostPort != "127.0.0.1:7233" || opts.Namespace != "default" {
		t.Errorf("embedded default: %q %q", opts.HostPort, opts.Namespace)
	}
	if opts.ConnectionOptions.TLS != nil || opts.Credentials != nil || opts.DataConverter != nil || opts.MetricsHandler == nil || len(opts.Interceptors) != 0 {
		t.Errorf("plain defaults: %+v", opts)
	}

	// An OTLP endpoint adds the SDK's tracing interceptor.
	cfg.Telemetry.OTLPEndpoint = "127.0.0.1:4317"
	t.Cleanup(func() { _ = tracing.Shutdown(context.Background()) })
	if opts, err = ClientOptions(cfg, nil); err != nil || len(opts.Interceptors) != 1 {
		t.Errorf("with telemetry.otlp_endpoint: %d interceptors, %v", len(opts.Interceptors), err)
	}
	cfg.Telemetry.OTLPEndpoint = ""

	// An API key for a remote cluster turns TLS on; encryption keys install
	// the encrypting data converter.
	cfg.Temporal.Address = "ns.tmprl.cloud:7233"
	cfg.Temporal.APIKey = "secret-key"
	cfg.Encryption.Keys = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	opts, err = ClientOptions(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Credentials == nil || opts.ConnectionOptions.TLS == nil {
		t.Errorf("API key: credentials %v, TLS %v", opts.Credentials, opts.ConnectionOptions.TLS)
	}
	p, err := opts.DataConverter.ToPayload("hello phone")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(p.GetData()), "hello phone") {
		t.Error("payload is not encrypted")
	}
	var back string
	if err := opts.DataConverter.FromPayload(p, &back); err != nil || back != "hello phone" {
		t.Errorf("round trip: %q %v", back, err)
	}
	if _, err := converter.GetDefaultDataConverter().ToPayload("x"); err != nil {
		t.Fatal(err)
	}

	// A loopback address with an API key stays plain (local proxy).
	cfg.Temporal.Address = "127.0.0.1:7233"
	cfg.Encryption.Keys = ""
	opts, _ = ClientOptions(cfg, nil)
	if opts.ConnectionOptions.TLS != nil {
		t.Error("loopback + API key should not force TLS")
	}
}

func TestTLSConfig(t *testing.T) {
	dir := t.TempDir()
	cert, key := writeCert(t, dir)
	tc, err := TLSConfig(config.TLS{CertFile: cert, KeyFile: key, CAFile: cert, ServerName: "temporal.internal"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tc.Certificates) != 1 || tc.RootCAs == nil || tc.ServerName != "temporal.internal" {
		t.Errorf("mTLS config: %+v", tc)
	}
	if tc, _ := TLSConfig(config.TLS{}); tc != nil {
		t.Error("no TLS settings should mean plain gRPC")
	}
	if tc, _ := TLSConfig(config.TLS{Enabled: true}); tc == nil || tc.RootCAs != nil {
		t.Error("enabled TLS without files should use system roots")
	}
	if _, err := TLSConfig(config.TLS{CertFile: cert, KeyFile: filepath.Join(dir, "missing.pem")}); err == nil ||
		!strings.Contains(err.Error(), "missing.pem") {
		t.Errorf("missing key: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.pem"), []byte("nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := TLSConfig(config.TLS{CAFile: filepath.Join(dir, "bad.pem")}); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("bad CA: %v", err)
	}
}

func writeCert(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "phoneflow-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

func TestConversions(t *testing.T) {
	cfg := testConfig(t)
	cfg.Settle = config.Settle{Mode: config.SettleFixed, Interval: time.Second, Stable: 4, Max: 5 * time.Second, Fixed: 2 * time.Second}
	p := SettlePolicy(cfg.Settle)
	if p.Mode != "fixed" || p.Interval != time.Second || p.Stable != 4 || p.Max != 5*time.Second || p.Fixed != 2*time.Second || p.ChangeWait == 0 {
		t.Errorf("settle: %+v", p)
	}
	if err := p.Validate(); err != nil {
		t.Errorf("converted settle policy invalid: %v", err)
	}
	m := ModelConfig(cfg.Executor.Endpoint)
	if m.TopP != 0.85 || m.FrequencyPenalty != 0.2 || m.MaxTokens != 3000 || !m.Stream || m.Model != "offline-executor" {
		t.Errorf("executor model: %+v", m)
	}
	cfg.Screenshot = config.Screenshot{MaxPixels: 500_000, Format: "png", Quality: 70}
	cfg.Limits.UITree = false
	e := ExecConfig(cfg)
	if e.MaxPixels != 500_000 || e.Format != "png" || e.JPEGQuality != 70 || e.IncludeElements {
		t.Errorf("exec config: %+v", e)
	}
}

func TestNewActivities(t *testing.T) {
	cfg := testConfig(t)
	acts, err := NewActivities(context.Background(), cfg, Deps{})
	if err != nil {
		t.Fatal(err)
	}
	if acts.Devices == nil || acts.Planner == nil || acts.Executor == nil || acts.Blobs == nil || acts.Prompts == nil {
		t.Fatalf("unwired activities: %+v", acts)
	}
	ref, err := acts.Blobs.Put(context.Background(), []byte("png"), "image/png")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, "blobs")); err != nil || ref == "" {
		t.Errorf("blob store not under the data dir: %v", err)
	}
	if err := acts.Prompts.Record("shopping", true, "be brief"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg.PromptMemoryPath); err != nil {
		t.Errorf("prompt memory not at prompt_memory_path: %v", err)
	}

	cfg.Executor.BaseURL = "not a url"
	if _, err := NewActivities(context.Background(), cfg, Deps{}); err == nil || !strings.Contains(err.Error(), "executor") {
		t.Errorf("bad executor URL: %v", err)
	}
}

type fakeModel struct{ err error }

func (f fakeModel) Chat(context.Context, []llm.Message) (*llm.Answer, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &llm.Answer{Text: "ok", TTFT: 200 * time.Millisecond, Total: time.Second, PromptTokens: 1000, CompletionTokens: 50}, nil
}

type fakeDevice struct{ device.Device }

func (fakeDevice) Serial() string                                   { return "emulator-5554" }
func (fakeDevice) Tap(context.Context, int, int) error              { return nil }
func (fakeDevice) Launch(context.Context, string) error             { return errors.New("app not found") }
func (fakeDevice) UITree(context.Context) ([]uitree.Element, error) { return nil, nil }

type fakePool struct{}

func (fakePool) Get(context.Context, string) (device.Device, error) { return fakeDevice{}, nil }
func (fakePool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "emulator-5554", State: "device"}}, nil
}

func TestMeteredWrappers(t *testing.T) {
	cfg := testConfig(t)
	acts, err := NewActivities(context.Background(), cfg, Deps{
		Devices:  fakePool{},
		Planner:  fakeModel{err: &llm.Error{Kind: llm.Retryable, Msg: "429"}},
		Executor: fakeModel{},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := acts.Executor.Chat(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := acts.Planner.Chat(ctx, nil); err == nil {
		t.Fatal("planner error swallowed")
	}
	d, err := acts.Devices.Get(ctx, "emulator-5554")
	if err != nil {
		t.Fatal(err)
	}
	if d.Serial() != "emulator-5554" || d.Tap(ctx, 1, 2) != nil || d.Launch(ctx, "Nope") == nil {
		t.Fatal("wrapped device changed behaviour")
	}

	mfs, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, mf := range mfs {
		_, _ = expfmt.MetricFamilyToText(&b, mf)
	}
	out := b.String()
	for _, want := range []string{
		`phoneflow_model_tokens_total{direction="prompt",role="executor"}`,
		`phoneflow_model_latency_seconds_count{phase="ttft",role="executor"}`,
		`phoneflow_model_errors_total{retryable="true",role="planner"}`,
		`phoneflow_steps_total{kind="think"}`,
		`phoneflow_steps_total{kind="act"}`,
		`phoneflow_device_action_seconds_count{action="tap",result="ok"}`,
		`phoneflow_device_action_seconds_count{action="launch",result="error"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestServeCodec(t *testing.T) {
	cfg := testConfig(t)
	cfg.Encryption.Keys = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
	cfg.Encryption.CodecToken = "let-me-in"
	cfg.Encryption.CodecAddress = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := ServeCodec(ctx, cfg, []string{"http://127.0.0.1:8233"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// An encrypted payload made by the client's data converter decodes
	// through the endpoint with the token, and is refused without it.
	opts, err := ClientOptions(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.DataConverter.ToPayload("tap (540,1200)")
	if err != nil {
		t.Fatal(err)
	}
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{p}})
	if err != nil {
		t.Fatal(err)
	}
	post := func(token string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/decode", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, out := post("let-me-in"); code != http.StatusOK || !strings.Contains(out, base64.StdEncoding.EncodeToString([]byte(`"tap (540,1200)"`))) {
		t.Errorf("decode with token: %d %s", code, out)
	}
	if code, _ := post(""); code != http.StatusUnauthorized {
		t.Errorf("decode without token: %d, want 401", code)
	}

	cfg.Encryption.CodecToken = ""
	cfg.Encryption.CodecAddress = "0.0.0.0:0"
	if _, err := ServeCodec(ctx, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "codec_token") {
		t.Errorf("open address without token: %v", err)
	}
}

// TestPlannerPromptFileErrorsNameTheKey: a missing or empty
// planner.system_prompt_file stops the worker at startup with the key and
// the fix; a file is read whole.
func TestPlannerPromptFileErrorsNameTheKey(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Planner.SystemPromptFile = filepath.Join(dir, "missing.txt")
	if _, err := PlannerPrompt(cfg); err == nil || !strings.Contains(err.Error(), "planner.system_prompt_file") || !strings.Contains(err.Error(), "readable text file") {
		t.Fatalf("missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte(" \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.Planner.SystemPromptFile = empty
	if _, err := PlannerPrompt(cfg); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Fatalf("empty file: %v", err)
	}
	full := filepath.Join(dir, "planner.txt")
	if err := os.WriteFile(full, []byte("Plan well. {date}\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.Planner.SystemPromptFile = full
	if got, err := PlannerPrompt(cfg); err != nil || got != "Plan well. {date}\n\n" {
		t.Fatalf("file: %q, %v", got, err)
	}
	cfg.Planner.SystemPromptFile = filepath.Join(dir, "missing.txt")
	if _, err := NewActivities(context.Background(), cfg, Deps{}); err == nil || !strings.Contains(err.Error(), "planner.system_prompt_file") {
		t.Fatalf("worker start with a missing planner prompt file: %v", err)
	}
}
