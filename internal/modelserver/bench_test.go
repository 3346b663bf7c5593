package modelserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkDecide measures the executor persona alone on a Settings screen.
func BenchmarkDecide(b *testing.B) {
	msgs := []message{{Role: "system", Text: "x"}, {Role: "user", Text: screen("Read the Android version", "Settings", "", "", settingsList...), Images: 1}}
	for b.Loop() {
		_ = decide(msgs, false)
	}
}

// BenchmarkCompletion measures whole HTTP round trips (executor role),
// streamed and not, with no latency configured.
func BenchmarkCompletion(b *testing.B) {
	for _, stream := range []bool{false, true} {
		name := "json"
		if stream {
			name = "sse"
		}
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewServer(New(Config{}))
			defer srv.Close()
			body, _ := json.Marshal(execRequest(ExecutorModel, wifiScreen, stream, stream))
			for b.Loop() {
				resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}
