package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/codec"
)

const testCodecKeys = "k1:c2VjcmV0LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzISE="

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuf) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// startCodecServer runs codec-server in the background and returns its URL.
func startCodecServer(t *testing.T, cfg config.Config, f codecFlags) (string, *lockedBuf) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedBuf{}
	errc := make(chan error, 1)
	go func() { errc <- runCodecServer(ctx, out, cfg, f) }()
	t.Cleanup(func() { cancel(); <-errc })
	re := regexp.MustCompile(`listening on (http://\S+)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1], out
		}
		select {
		case err := <-errc:
			t.Fatalf("codec-server stopped: %v", err)
		default:
		}
	}
	t.Fatal("codec-server did not start")
	return "", nil
}

func TestCodecSettingsDefaults(t *testing.T) {
	cfg := config.Default()
	if _, _, err := codecSettings(cfg, codecFlags{}); err == nil || !strings.Contains(err.Error(), "encryption.keys") {
		t.Fatalf("no keys: err = %v, want one naming encryption.keys", err)
	}
	cfg.Encryption.Keys = testCodecKeys
	got, origins, err := codecSettings(cfg, codecFlags{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Encryption.CodecAddress != "127.0.0.1:8081" {
		t.Errorf("default address = %q, want loopback 127.0.0.1:8081", got.Encryption.CodecAddress)
	}
	ui := "http://127.0.0.1:8233"
	found := false
	for _, o := range origins {
		found = found || o == ui
	}
	if !found {
		t.Errorf("default origins %v lack the embedded Web UI %s", origins, ui)
	}
	got, _, err = codecSettings(cfg, codecFlags{addr: "127.0.0.1:9999", token: "t", origins: []string{"http://x:1"}})
	if err != nil || got.Encryption.CodecAddress != "127.0.0.1:9999" || got.Encryption.CodecToken != "t" {
		t.Errorf("flags not applied: %+v, %v", got.Encryption, err)
	}
	if _, _, err := codecSettings(cfg, codecFlags{addr: "nohostport"}); err == nil {
		t.Error("an address without a port was accepted")
	}
}

func TestCodecServerRefusesOpenBindWithoutToken(t *testing.T) {
	cfg := config.Default()
	cfg.Encryption.Keys = testCodecKeys
	err := runCodecServer(context.Background(), &bytes.Buffer{}, cfg, codecFlags{addr: "0.0.0.0:0"})
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "codec_token") {
		t.Fatalf("err = %v, want a usage error asking for a token", err)
	}
}

func encodeBody(t *testing.T, payloads ...*commonpb.Payload) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"payloads": payloads})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends payloads to the endpoint and returns the status and answer.
func post(t *testing.T, url, token string, body []byte) (int, []*commonpb.Payload) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://127.0.0.1:8233")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Payloads []*commonpb.Payload `json:"payloads"`
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, out.Payloads
}

func TestCodecServerDecodesForTheWebUI(t *testing.T) {
	cfg := config.Default()
	cfg.Encryption.Keys = testCodecKeys
	keys, _ := codec.ParseKeys(testCodecKeys)
	c, _ := codec.New(keys)
	plain, _ := converter.GetDefaultDataConverter().ToPayload("open the Bank app")
	enc, err := c.Encode([]*commonpb.Payload{plain})
	if err != nil {
		t.Fatal(err)
	}
	body := encodeBody(t, enc...)

	t.Run("loopback without token", func(t *testing.T) {
		url, out := startCodecServer(t, cfg, codecFlags{addr: "127.0.0.1:0"})
		if !strings.Contains(out.String(), "loopback only") {
			t.Errorf("output does not say it is loopback only:\n%s", out)
		}
		code, got := post(t, url+"/decode", "", body)
		if code != http.StatusOK || len(got) != 1 || string(got[0].GetData()) != `"open the Bank app"` {
			t.Fatalf("decode = %d %v", code, got)
		}
	})
	t.Run("token", func(t *testing.T) {
		const token = "codec-secret-7f3a"
		url, out := startCodecServer(t, cfg, codecFlags{addr: "127.0.0.1:0", token: token})
		if strings.Contains(out.String(), token) {
			t.Errorf("the token is printed:\n%s", out)
		}
		if code, _ := post(t, url+"/decode", "", body); code != http.StatusUnauthorized {
			t.Errorf("decode without token = %d, want 401", code)
		}
		if code, _ := post(t, url+"/decode", "wrong", body); code != http.StatusUnauthorized {
			t.Errorf("decode with a wrong token = %d, want 401", code)
		}
		if code, got := post(t, url+"/decode", token, body); code != http.StatusOK || string(got[0].GetData()) != `"open the Bank app"` {
			t.Errorf("decode with Bearer = %d %v", code, got)
		}
		// The Web UI's form: the token as the last path segment.
		if code, got := post(t, url+"/"+token+"/decode", "", body); code != http.StatusOK || string(got[0].GetData()) != `"open the Bank app"` {
			t.Errorf("decode with the token in the path = %d %v", code, got)
		}
		// Encode round-trips to an encrypted payload.
		code, got := post(t, url+"/"+token+"/encode", "", encodeBody(t, plain))
		if code != http.StatusOK || len(got) != 1 || !codec.IsEncrypted(got[0]) || bytes.Contains(got[0].GetData(), []byte("Bank")) {
			t.Errorf("encode = %d %v", code, got)
		}
	})
}
