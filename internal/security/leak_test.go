package security

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// Keys the leak tests set. Each is distinctive so a hit cannot be chance.
const (
	plannerKey  = "sk-planner-Q7vZ2mK9xW4pL1nR8tY3"
	executorKey = "sk-executor-H5jD6fG0sA2qE9wB4cV7"
	temporalKey = "tk-temporal-N3mX8bZ1kJ6hT0yU5rP2"
	codecToken  = "ct-codec-F4gH9jK2lM7nB1vC6xZ0"
	encKeyB64   = "c2VjcmV0LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzISE=" // 32 bytes
)

func b64(s string) string    { return base64.StdEncoding.EncodeToString([]byte(s)) }
func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// findLeaks returns the secrets (in any of their forms) found in data.
func findLeaks(data []byte, secrets ...string) []string {
	var found []string
	lower := bytes.ToLower(data)
	for _, s := range secrets {
		for _, form := range secretForms(s) {
			if bytes.Contains(data, []byte(form)) || bytes.Contains(lower, []byte(strings.ToLower(form))) {
				found = append(found, form)
				break
			}
		}
	}
	return found
}

// TestKeysNeverLeak runs a full goal with planner and executor API keys
// that the model servers require, then searches every log line the worker,
// the client and the embedded server wrote, and the full histories of the
// goal, its todos and the phone's lease, for the keys: none may appear.
func TestKeysNeverLeak(t *testing.T) {
	s := newStack(t, stackOptions{PlannerKey: plannerKey, ExecutorKey: executorKey})

	// The model servers really check the keys: a call without one, or
	// with the other role's key, is refused.
	for i, url := range s.modelURLs {
		for _, key := range []string{"", []string{executorKey, plannerKey}[i]} {
			req, _ := http.NewRequest(http.MethodGet, url+"/models", nil)
			if key != "" {
				req.Header.Set("Authorization", "Bearer "+key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("model server %s answered %d to a request with key %q, want 401", url, resp.StatusCode, key)
			}
		}
	}

	id, res := s.run(t, goalctl.StartRequest{Goal: demo.Showcase, Device: s.env.Serial}, 5*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s (%s)", res.Status, res.Reason, res.Response)
	}
	for i, ms := range s.models {
		st := ms.Stats()
		if st.Completions == 0 {
			t.Errorf("model server %d (%s) answered no completion: the keyed endpoints were not used", i, []string{"planner", "executor"}[i])
		}
	}
	if p, e := s.models[0].Stats(), s.models[1].Stats(); p.Planner == 0 || e.Executor == 0 {
		t.Errorf("planner server answered %d planner calls, executor server %d executor calls; want both > 0", p.Planner, e.Executor)
	}

	hs := histories(t, s.env.Client, id, s.env.Serial, res.Todos)
	var all bytes.Buffer
	for wid, h := range hs {
		j, err := protojson.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := proto.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		text := payloadText(h)
		if leaks := findLeaks(bytes.Join([][]byte{j, raw, text}, nil), plannerKey, executorKey); len(leaks) > 0 {
			t.Errorf("history of %s holds %v", wid, leaks)
		}
		all.Write(text)
	}
	if !bytes.Contains(all.Bytes(), []byte(demo.Showcase)) {
		t.Error("the histories' payloads do not even hold the goal text: the search would prove nothing")
	}

	logs := s.logs.Bytes()
	if leaks := findLeaks(logs, plannerKey, executorKey); len(leaks) > 0 {
		t.Errorf("the worker and client logs hold %v", leaks)
	}
	if !bytes.Contains(logs, []byte("level=DEBUG")) {
		t.Error("no debug lines were captured: the log search would prove nothing")
	}
	srvLog := s.serverLog(t)
	if len(srvLog) == 0 {
		t.Error("the embedded server wrote no log: the search would prove nothing")
	}
	if leaks := findLeaks(srvLog, plannerKey, executorKey); len(leaks) > 0 {
		t.Errorf("the embedded server's log holds %v", leaks)
	}
	t.Logf("searched %d histories (%d bytes), %d bytes of worker logs, %d bytes of server log",
		len(hs), all.Len(), len(logs), len(srvLog))
}

// TestConfigPrintHidesSecrets prints a configuration with every secret set
// and checks none of them shows, while the non-secret values do.
func TestConfigPrintHidesSecrets(t *testing.T) {
	env := map[string]string{
		"PHONEFLOW_PLANNER_API_KEY":          plannerKey,
		"PHONEFLOW_EXECUTOR_API_KEY":         executorKey,
		"PHONEFLOW_TEMPORAL_API_KEY":         temporalKey,
		"PHONEFLOW_ENCRYPTION_CODEC_TOKEN":   codecToken,
		"PHONEFLOW_ENCRYPTION_KEYS":          "k1:" + encKeyB64,
		"PHONEFLOW_ENCRYPTION_CODEC_ADDRESS": "127.0.0.1:8081",
	}
	cfg, src, err := config.Load(config.LoadOptions{
		Env:        func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		SearchDirs: []string{t.TempDir()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Planner.APIKey != plannerKey || cfg.Encryption.CodecToken != codecToken || cfg.Temporal.APIKey != temporalKey {
		t.Fatalf("the secrets were not loaded: the test would prove nothing")
	}
	secrets := []string{plannerKey, executorKey, temporalKey, codecToken, encKeyB64}
	var out bytes.Buffer
	if err := config.Print(&out, cfg, src); err != nil {
		t.Fatal(err)
	}
	if leaks := findLeaks(out.Bytes(), secrets...); len(leaks) > 0 {
		t.Errorf("config.Print shows %v:\n%s", leaks, out.String())
	}
	if !strings.Contains(out.String(), "127.0.0.1:8081") || !strings.Contains(out.String(), config.Masked) {
		t.Errorf("config.Print output lacks the codec address or the mask:\n%s", out.String())
	}
	// The other ways a Config reaches text: fmt and slog.
	var logged bytes.Buffer
	slogText(&logged, cfg)
	for name, text := range map[string][]byte{"String": []byte(cfg.String()), "slog": logged.Bytes()} {
		if leaks := findLeaks(text, secrets...); len(leaks) > 0 {
			t.Errorf("%s of the config shows %v", name, leaks)
		}
	}
}

func slogText(w *bytes.Buffer, cfg config.Config) {
	slog.New(slog.NewTextHandler(w, nil)).InfoContext(context.Background(), "config", "cfg", cfg)
	slog.New(slog.NewJSONHandler(w, nil)).Info("config", "cfg", cfg)
}
