package codec

import (
	"net/url"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// TestHTTPTokenInPathEscaped uses a token with characters that must be
// escaped in a URL path ("/", space, "%"): escaped into one segment it is
// accepted; a token cut at its "/" is not.
func TestHTTPTokenInPathEscaped(t *testing.T) {
	const token = "ab/c d%e+f"
	keys := ring("k1", "k1")
	local, _ := New(keys)
	enc, _ := local.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"ui"`)}})
	srv := newServer(t, keys, Options{Token: token, TokenInPath: true})

	rc := converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{Endpoint: srv.URL + "/codec/" + url.PathEscape(token)})
	if dec, err := rc.Decode(enc); err != nil || string(dec[0].Data) != `"ui"` {
		t.Fatalf("escaped token in path: %v, %v", dec, err)
	}
	for _, endpoint := range []string{"/codec/ab/c%20d%25e+f", "/codec/c%20d%25e+f"} {
		rc := converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{Endpoint: srv.URL + endpoint})
		if _, err := rc.Decode(enc); err == nil {
			t.Errorf("endpoint %s accepted: a token split at its '/' must not match", endpoint)
		}
	}
}
