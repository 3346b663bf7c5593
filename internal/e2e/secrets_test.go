package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestTypedSecretsLeakNowhere: a person takes over the Bank's sign-in and
// types text into its password field; then a goal signs in with a
// password the goal gives, waits for the SMS code and types it. The typed
// text is then looked for in every store (docs/design.md#secrets-typed-by-the-executor):
// the whole history of both goals and their todos, the worker's logs, the
// hook events, the step viewer's pages and event lists, every file of the
// phone (its journal) and every file of the data directory (the host's
// journal, blobs, routines, memory, the Temporal database). The password
// may appear only inside the goal's and its todos' own texts, which the
// person wrote; the take-over text nowhere; the SMS code in no journal and
// no routine.
func TestTypedSecretsLeakNowhere(t *testing.T) {
	stacktest.NeedADB(t)
	const (
		password = "Zq7vaultPw9"
		typed    = "Kx4personTyped"
	)
	var hooksMu sync.Mutex
	var hookBodies [][]byte
	hl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hsrv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hooksMu.Lock()
		hookBodies = append(hookBodies, b)
		hooksMu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	go func() { _ = hsrv.Serve(hl) }()
	t.Cleanup(func() { _ = hsrv.Close() })

	logs := &lockedBuffer{}
	logger := slog.New(slog.NewTextHandler(io.MultiWriter(logs, testWriter{t}), &slog.HandlerOptions{Level: slog.LevelInfo}))
	cfg := config.Default()
	cfg.Executor.Protocol = config.ProtocolPhoneflow
	cfg.Executor.UIElements = "true"
	cfg.Temporal.Embedded.Port = devserver.AnyPort
	cfg.Hooks.URL = "http://" + hl.Addr().String() + "/events"
	dataDir := t.TempDir()
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer scancel()
	env, err := demo.Start(sctx, demo.Options{Config: cfg, DataDir: dataDir, Logger: logger,
		Dial: app.Dialer(logger), Worker: app.WorkerRunner(logger)})
	if err != nil {
		t.Fatalf("start the stack: %v", err)
	}
	t.Cleanup(env.Stop)
	g := goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace, UIAddress: env.Server.UIURL()})
	base := serveViewer(t, env, g)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	// The take-over: the goal asks the person to sign in; the person
	// taps Sign in and the password field and types, then lets it go on.
	over, _, err := g.Start(ctx, goalctl.StartRequest{Goal: "Sign in to the bank app", Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, g, over, 3*time.Minute, func(s workflows.Status) bool { return s.PendingQuestion != "" })
	post := func(path string, body any) {
		t.Helper()
		data, _ := json.Marshal(body)
		resp, err := http.Post(base+path, "application/json", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %s %s", path, resp.Status, b)
		}
	}
	tapID := func(id string) {
		t.Helper()
		e := byIDOn(env, id)
		if e == nil {
			t.Fatalf("no %s on the phone's screen", id)
		}
		post("/goals/"+over+"/act", map[string]any{"kind": "tap", "x": (e.Bounds.X1 + e.Bounds.X2) / 2, "y": (e.Bounds.Y1 + e.Bounds.Y2) / 2})
	}
	if byIDOn(env, "password") == nil {
		tapID("sign_in_button")
	}
	tapID("password")
	post("/goals/"+over+"/act", map[string]any{"kind": "type", "text": typed})
	post("/goals/"+over+"/continue", map[string]any{})
	// The person did not sign in: the goal would ask again. It is
	// cancelled, the password page left as the person filled it.
	if err := g.Cancel(ctx, over); err != nil {
		t.Fatal(err)
	}
	overTodos := endTodos(t, g, over)

	// The executor types the password the goal gives, and the code.
	goal := "Sign in to the Bank app with the password " + password + ", then wait for the SMS code and enter it"
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: goal, Device: env.Serial, Options: workflows.GoalOptions{AutoApprove: true}})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalDone || !env.Phone.State().BankSignedIn {
		t.Fatalf("goal ended %s (%s), signed in %t; todos %+v", res.Status, res.Reason, env.Phone.State().BankSignedIn, res.Todos)
	}
	code := bankCode(t, env)

	// The person's own words: the goal and the todos the planner made of it.
	own := []string{goal}
	for _, td := range res.Todos {
		own = append(own, td.Text)
	}
	var leaks []string
	look := func(where string, data []byte) {
		for _, s := range own {
			data = bytes.ReplaceAll(data, []byte(s), nil)
			if j, err := json.Marshal(s); err == nil {
				data = bytes.ReplaceAll(data, j[1:len(j)-1], nil)
			}
		}
		for _, secret := range []string{password, typed} {
			if i := bytes.Index(data, []byte(secret)); i >= 0 {
				leaks = append(leaks, fmt.Sprintf("%s holds %q: …%s…", where, secret, excerpt(data, i)))
			}
		}
	}
	lookCode := func(where string, data []byte) {
		if i := bytes.Index(data, []byte(code)); i >= 0 {
			leaks = append(leaks, fmt.Sprintf("%s holds the SMS code %s: …%s…", where, code, excerpt(data, i)))
		}
	}

	// Every payload of every history, as the server keeps it.
	for _, gid := range []string{over, id} {
		todos := res.Todos
		if gid == over {
			todos = overTodos
		}
		for wid, h := range histories(t, env.Client, gid, todos) {
			raw, err := proto.Marshal(h)
			if err != nil {
				t.Fatal(err)
			}
			look("history of "+wid, raw)
		}
	}
	look("the worker's logs", logs.Bytes())
	hooksMu.Lock()
	if len(hookBodies) == 0 {
		t.Error("the hook heard no event")
	}
	look("the hook events", bytes.Join(hookBodies, []byte("\n")))
	hooksMu.Unlock()
	for _, gid := range []string{over, id} {
		for _, p := range []string{viewer.URL("", gid), viewer.URL("", gid) + "/body", viewer.URL("", gid) + "/events"} {
			look("the step viewer's "+p, get(t, base+p))
		}
	}
	for name, data := range env.Phone.Files() {
		look("the phone's "+name, data)
		lookCode("the phone's "+name, data)
	}
	err = filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil // a file the stack removed while it was read
		}
		rel, _ := filepath.Rel(dataDir, p)
		look("the data directory's "+rel, data)
		if top := strings.Split(rel, string(filepath.Separator))[0]; top == "actions" || top == "routines" {
			lookCode("the data directory's "+rel, data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) > 0 {
		t.Fatalf("typed text in clear in %d places:\n%s", len(leaks), strings.Join(leaks, "\n"))
	}
}

// endTodos waits for a cancelled goal to end and returns its todos.
func endTodos(t *testing.T, g *goalctl.Client, id string) []workflows.TodoState {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if res, err := g.Result(ctx, id); err == nil {
		return res.Todos
	}
	st, err := g.Status(context.Background(), id)
	if err != nil {
		t.Fatalf("goal %s: %v", id, err)
	}
	return st.Todos
}

// excerpt is the text around data[i], for a leak's report.
func excerpt(data []byte, i int) string {
	from, to := max(0, i-80), min(len(data), i+80)
	return strings.ToValidUTF8(string(data[from:to]), "?")
}

// lockedBuffer keeps what the worker logs, written from many goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf.Bytes()...)
}

// testWriter passes warnings and errors on to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("level=WARN")) || bytes.Contains(p, []byte("level=ERROR")) {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}
