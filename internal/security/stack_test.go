package security

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/workflows"
)

// stackOptions shape one test stack.
type stackOptions struct {
	// PlannerKey and ExecutorKey, when set, are required by two offline
	// model servers (one per role) and given to the worker's config.
	PlannerKey, ExecutorKey string
	// EncryptionKeys is encryption.keys for the client and the worker.
	EncryptionKeys string
}

// stack is a running demo environment whose every log line is captured.
type stack struct {
	env    *demo.Env
	goals  *goalctl.Client
	logs   *syncBuffer
	models []*modelserver.Server
	// modelURLs are the keyed model servers' base URLs, planner first.
	modelURLs []string
}

// syncBuffer collects log output from many goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// newStack starts the embedded server, a simulated phone, the offline
// model server and a worker in a temporary directory, logging at debug
// level into a buffer.
func newStack(t *testing.T, o stackOptions) *stack {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the embedded Temporal server and runs goals end to end")
	}
	s := &stack{logs: &syncBuffer{}}
	logger := slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	cfg := config.Default()
	cfg.Temporal.Embedded.Port = devserver.AnyPort // the Web UI gets a free port too
	cfg.Encryption.Keys = o.EncryptionKeys
	cfg.Log.Level = "debug"

	// Keyed model servers replace the demo's open one in the worker's
	// config, so every model call must carry the right key.
	var plannerURL, executorURL string
	if o.PlannerKey != "" || o.ExecutorKey != "" {
		plannerURL = s.serveModels(t, o.PlannerKey, logger)
		executorURL = s.serveModels(t, o.ExecutorKey, logger)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{
		Config:  cfg,
		DataDir: t.TempDir(),
		Logger:  logger,
		Dial:    app.Dialer(logger),
		Worker: func(ctx context.Context, cfg config.Config, c client.Client) error {
			if plannerURL != "" {
				cfg.Planner.BaseURL, cfg.Planner.APIKey = plannerURL, o.PlannerKey
				cfg.Executor.BaseURL, cfg.Executor.APIKey = executorURL, o.ExecutorKey
			}
			return app.RunWorker(ctx, cfg, c, app.Deps{Logger: logger})
		},
	})
	if err != nil {
		t.Fatalf("start the stack: %v", err)
	}
	t.Cleanup(func() {
		env.Stop()
		if t.Failed() {
			t.Logf("captured logs:\n%s", tail(s.logs.Bytes(), 8000))
		}
	})
	s.env = env
	s.goals = goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace})
	return s
}

func (s *stack) serveModels(t *testing.T, key string, logger *slog.Logger) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms := modelserver.New(modelserver.Config{APIKey: key, Logger: logger})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = ms.Serve(ctx, l) }()
	s.models = append(s.models, ms)
	url := "http://" + l.Addr().String() + "/v1"
	s.modelURLs = append(s.modelURLs, url)
	return url
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// serverLog reads the embedded server's own log file in the data dir.
func (s *stack) serverLog(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.env.DataDir, "temporal-server.log"))
	if err != nil {
		t.Fatalf("read the server log: %v", err)
	}
	return b
}

// run starts a goal and waits for its result.
func (s *stack) run(t *testing.T, req goalctl.StartRequest, d time.Duration) (string, workflows.GoalResult) {
	t.Helper()
	id, _, err := s.goals.Start(context.Background(), req)
	if err != nil {
		t.Fatalf("start goal: %v", err)
	}
	return id, s.result(t, id, d)
}

func (s *stack) result(t *testing.T, id string, d time.Duration) workflows.GoalResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := s.goals.Result(ctx, id)
	if err != nil {
		t.Fatalf("goal %s: %v", id, err)
	}
	return res
}

// waitStatus polls the status query until ok accepts it.
func (s *stack) waitStatus(t *testing.T, id string, d time.Duration, ok func(workflows.Status) bool) workflows.Status {
	t.Helper()
	deadline := time.Now().Add(d)
	var last workflows.Status
	var lastErr error
	for time.Now().Before(deadline) {
		st, err := s.goals.Status(context.Background(), id)
		lastErr = err
		if err == nil {
			last = st
			if ok(st) {
				return st
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("goal %s: status never matched; last %+v (err %v)", id, last, lastErr)
	return last
}

// histories fetches, through c, the histories of the goal, of every todo
// child (restarts included) and of the phone's lease workflow.
func histories(t *testing.T, c client.Client, goalID, serial string, todos []workflows.TodoState) map[string]*historypb.History {
	t.Helper()
	ids := append(drill.GoalWorkflowIDs(goalID, workflows.GoalResult{Todos: todos}), workflows.LeaseWorkflowID(serial))
	out := map[string]*historypb.History{}
	for _, id := range ids {
		if h, err := history(c, id); err == nil {
			out[id] = h
		}
	}
	if out[goalID] == nil {
		t.Fatalf("no history for %s", goalID)
	}
	if len(out) < 2 {
		t.Fatalf("only the goal's history was found (%v): the todo children are missing", keys(out))
	}
	return out
}

func keys(m map[string]*historypb.History) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func history(c client.Client, id string) (*historypb.History, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return drill.HistoryOf(ctx, c, id)
}

// rawClient dials the stack's server without any data converter, so
// payloads come back exactly as stored.
func (s *stack) rawClient(t *testing.T) client.Client {
	t.Helper()
	return s.clientWith(t, "")
}

// clientWith dials the stack's server with encryption.keys = keys.
func (s *stack) clientWith(t *testing.T, keys string) client.Client {
	t.Helper()
	cfg := s.env.Config
	cfg.Encryption.Keys = keys
	opts, err := app.ClientOptions(cfg, slog.New(slog.NewTextHandler(s.logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// secretForms are the spellings of a secret a leak could take.
func secretForms(secret string) []string {
	return []string{secret, b64(secret), b64url(secret), strings.ToLower(secret)}
}
