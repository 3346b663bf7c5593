package codec

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

const testToken = "s3cret-codec-token"

func newServer(t *testing.T, keys Keys, opts Options) *httptest.Server {
	t.Helper()
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := NewHTTPHandler(keys, opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/codec/", h)
	srv := httptest.NewServer(mux) // binds 127.0.0.1
	t.Cleanup(srv.Close)
	return srv
}

func remote(srv *httptest.Server, token string) converter.PayloadCodec {
	return converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{
		Endpoint: srv.URL + "/codec",
		ModifyRequest: func(r *http.Request) error {
			if token != "" {
				r.Header.Set("Authorization", "Bearer "+token)
			}
			return nil
		},
	})
}

func TestHTTPEncodeDecodeWithToken(t *testing.T) {
	keys := ring("k1", "k1")
	srv := newServer(t, keys, Options{Token: testToken, AllowOrigins: []string{"http://127.0.0.1:8233"}})
	rc := remote(srv, testToken)

	plain := []*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"hello phone"`)}}
	enc, err := rc.Encode(plain)
	if err != nil {
		t.Fatal(err)
	}
	if KeyID(enc[0]) != "k1" || bytes.Contains(enc[0].Data, []byte("hello")) {
		t.Fatalf("remote encode = %v", enc[0])
	}
	// What a worker encrypted locally, the endpoint decrypts for the UI.
	local, _ := New(keys)
	encLocal, _ := local.Encode(plain)
	dec, err := rc.Decode(encLocal)
	if err != nil {
		t.Fatal(err)
	}
	if string(dec[0].Data) != `"hello phone"` || string(dec[0].Metadata["encoding"]) != "json/plain" {
		t.Fatalf("remote decode = %v", dec[0])
	}
	// And the other way round.
	if dec, err := local.Decode(enc); err != nil || string(dec[0].Data) != `"hello phone"` {
		t.Fatalf("local decode of remote encode = %v, %v", dec, err)
	}
}

func TestHTTPRejectsMissingOrWrongToken(t *testing.T) {
	srv := newServer(t, ring("k1", "k1"), Options{Token: testToken})
	local, _ := New(ring("k1", "k1"))
	enc, _ := local.Encode([]*commonpb.Payload{{Data: []byte("secret")}})
	for _, tok := range []string{"", "wrong", testToken + "x"} {
		if _, err := remote(srv, tok).Decode(enc); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
			t.Errorf("token %q: err = %v, want Unauthorized", tok, err)
		}
	}
	// Raw request: other schemes are refused too, and nothing leaks.
	body := `{"payloads":[]}`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/codec/decode", strings.NewReader(body))
	req.Header.Set("Authorization", "Basic "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("Basic auth: status %d", resp.StatusCode)
	}
}

func TestHTTPCORS(t *testing.T) {
	const ui = "http://127.0.0.1:8233"
	srv := newServer(t, ring("k1", "k1"), Options{Token: testToken, AllowOrigins: []string{ui}})

	// Preflight from the UI: no token needed, CORS headers present.
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/codec/decode", nil)
	req.Header.Set("Origin", ui)
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,x-namespace")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 || resp.Header.Get("Access-Control-Allow-Origin") != ui ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}

	// Real request from the UI with the token.
	req, _ = http.NewRequest(http.MethodPost, srv.URL+"/codec/encode", strings.NewReader(`{"payloads":[{"metadata":{"encoding":"anNvbi9wbGFpbg=="},"data":"IngiCg=="}]}`))
	req.Header.Set("Origin", ui)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != ui || !strings.Contains(string(b), "YmluYXJ5L2VuY3J5cHRlZA==") {
		t.Fatalf("encode from UI: %d %v %s", resp.StatusCode, resp.Header, b)
	}

	// Another origin is refused.
	req, _ = http.NewRequest(http.MethodOptions, srv.URL+"/codec/decode", nil)
	req.Header.Set("Origin", "http://evil.example")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("foreign origin: %d %v", resp.StatusCode, resp.Header)
	}
}

func TestHTTPHandlerOptions(t *testing.T) {
	if _, err := NewHTTPHandler(ring("k1", "k1"), Options{}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("no token: err = %v", err)
	}
	if _, err := NewHTTPHandler(ring("k1", "k1"), Options{Token: "t", AllowOrigins: []string{"localhost:8233"}}); err == nil {
		t.Fatal("origin without scheme accepted")
	}
	if _, err := NewHTTPHandler(Keys{}, Options{Token: "t"}); err == nil {
		t.Fatal("empty key ring accepted")
	}
	srv := newServer(t, ring("k1", "k1"), Options{AllowUnauthenticated: true})
	if _, err := remote(srv, "").Encode([]*commonpb.Payload{{Data: []byte("x")}}); err != nil {
		t.Fatalf("unauthenticated mode: %v", err)
	}
}

func TestHTTPBadRequests(t *testing.T) {
	srv := newServer(t, ring("k1", "k1"), Options{Token: testToken})
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{http.MethodGet, "/codec/decode", "", http.StatusNotFound},
		{http.MethodPost, "/codec/other", "{}", http.StatusNotFound},
		{http.MethodPost, "/codec/decode", "not json", http.StatusBadRequest},
		{http.MethodPost, "/codec/decode", `{"payloads":[{"metadata":{"encoding":"YmluYXJ5L2VuY3J5cHRlZA==","encryption-key-id":"bm9wZQ=="},"data":"AAAA"}]}`, http.StatusBadRequest},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s %q: %d %s, want %d", tc.method, tc.path, tc.body, resp.StatusCode, b, tc.want)
		}
	}
}

func TestHTTPTokenInPath(t *testing.T) {
	keys := ring("k1", "k1")
	local, _ := New(keys)
	enc, _ := local.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"ui"`)}})

	srv := newServer(t, keys, Options{Token: testToken, TokenInPath: true})
	// The Web UI is configured with http://host/codec/<token> and appends /decode.
	rc := converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{Endpoint: srv.URL + "/codec/" + testToken})
	dec, err := rc.Decode(enc)
	if err != nil || string(dec[0].Data) != `"ui"` {
		t.Fatalf("decode with token in path = %v, %v", dec, err)
	}
	for _, endpoint := range []string{"/codec/wrong", "/codec", "/codec/" + testToken + "/x"} {
		rc := converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{Endpoint: srv.URL + endpoint})
		if _, err := rc.Decode(enc); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
			t.Errorf("endpoint %s: err = %v, want Unauthorized", endpoint, err)
		}
	}
	// Without the option a path token is not a credential.
	srv = newServer(t, keys, Options{Token: testToken})
	rc = converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{Endpoint: srv.URL + "/codec/" + testToken})
	if _, err := rc.Decode(enc); err == nil {
		t.Fatal("path token accepted without TokenInPath")
	}
}

func TestHTTPLogsNeverCarryToken(t *testing.T) {
	var buf bytes.Buffer
	h, err := NewHTTPHandler(ring("k1", "k1"), Options{Token: testToken, TokenInPath: true, AllowOrigins: []string{"http://127.0.0.1:8233"},
		Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, origin := range []string{"", "http://evil.example"} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/"+testToken+"x/decode", strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer "+testToken+"y")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if buf.Len() == 0 || strings.Contains(buf.String(), testToken) {
		t.Fatalf("log = %q: want rejections logged without the token", buf.String())
	}
}
