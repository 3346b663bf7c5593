package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/codec"
)

// TestUICodecEndpointWorksWithoutHeaders serves the codec endpoint with a
// token, as the worker does, and decodes through the URL handed to the
// Web UI without any Authorization header, as the browser does.
func TestUICodecEndpointWorksWithoutHeaders(t *testing.T) {
	const keys = "k1:c2VjcmV0LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzISE="
	cfg := config.Default()
	cfg.Encryption.Keys = keys
	cfg.Encryption.CodecAddress = "127.0.0.1:0"
	cfg.Encryption.CodecToken = "tok/with space+plus"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := app.ServeCodec(ctx, cfg, []string{"http://127.0.0.1:8233"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := uiCodecEndpoint(addr, ""); got != "http://"+addr {
		t.Errorf("without a token: %q", got)
	}
	ring, _ := codec.ParseKeys(keys)
	c, _ := codec.New(ring)
	plain, _ := converter.GetDefaultDataConverter().ToPayload("goal text")
	enc, _ := c.Encode([]*commonpb.Payload{plain})
	body, _ := json.Marshal(map[string]any{"payloads": enc})

	for endpoint, want := range map[string]int{
		uiCodecEndpoint(addr, cfg.Encryption.CodecToken): http.StatusOK,
		uiCodecEndpoint(addr, "wrong"):                   http.StatusUnauthorized,
		uiCodecEndpoint(addr, ""):                        http.StatusUnauthorized,
	} {
		req, _ := http.NewRequest(http.MethodPost, endpoint+"/decode", bytes.NewReader(body))
		req.Header.Set("Origin", "http://127.0.0.1:8233")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Payloads []*commonpb.Payload `json:"payloads"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: status %d, want %d", endpoint, resp.StatusCode, want)
		}
		if want == http.StatusOK && (len(out.Payloads) != 1 || string(out.Payloads[0].GetData()) != `"goal text"`) {
			t.Errorf("%s: decoded %v", endpoint, out.Payloads)
		}
	}
}
