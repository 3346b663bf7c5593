package devserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/searchattr"
	"github.com/phoneflow/phoneflow/workflows"
)

// freePort is for the checks that need a port nobody listens on: the
// tests never start a server on one.
func freePort(t *testing.T) int {
	t.Helper()
	r, err := reserve(0)
	if err != nil {
		t.Fatal(err)
	}
	r.release()
	return r.port
}

// greet is a trivial workflow: it answers a query until it gets a signal.
func greet(ctx workflow.Context, name string) (string, error) {
	if err := workflow.SetQueryHandler(ctx, "name", func() (string, error) { return name, nil }); err != nil {
		return "", err
	}
	var suffix string
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, &suffix)
	return "hello " + name + suffix, nil
}

func dial(t *testing.T, s *Server) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.FrontendAddr(), Logger: quietSDKLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestServerSurvivesRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	opts := Options{
		Port:       AnyPort,
		DBFile:     filepath.Join(dir, "temporal.db"),
		Namespaces: []string{"phones"},
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	s, err := Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	// Later starts use the ports this one picked.
	opts.Port = addrPort(t, s.FrontendAddr())
	opts.UIPort = urlPort(t, s.UIURL())

	// A second server on the same ports or file fails cleanly.
	if _, err := Start(ctx, opts); !errors.Is(err, ErrPortInUse) {
		t.Errorf("second start on the same port: %v, want ErrPortInUse", err)
	}
	other := opts
	other.Port, other.UIPort = freePort(t), freePort(t)
	if _, err := Start(ctx, other); !errors.Is(err, ErrLocked) {
		t.Errorf("second start on the same file: %v, want ErrLocked", err)
	}

	// The Web UI answers.
	if !strings.HasPrefix(s.UIURL(), "http://127.0.0.1:") {
		t.Fatalf("UI URL %q", s.UIURL())
	}
	var uiErr error
	for i := 0; i < 50; i++ {
		var resp *http.Response
		resp, uiErr = http.Get(s.UIURL())
		if uiErr == nil {
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				uiErr = errors.New(resp.Status)
			}
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if uiErr != nil {
		t.Errorf("Web UI: %v", uiErr)
	}
	if got := s.WorkflowURL("default", "goal-1"); got != s.UIURL()+"/namespaces/default/workflows/goal-1" {
		t.Errorf("WorkflowURL %q", got)
	}

	// Both namespaces carry the phoneflow search attributes.
	c := dial(t, s)
	for _, ns := range []string{"default", "phones"} {
		resp, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		for sa, typ := range searchattr.Attributes {
			if resp.GetCustomAttributes()[sa] != typ {
				t.Errorf("namespace %s: search attribute %s is %v", ns, sa, resp.GetCustomAttributes()[sa])
			}
		}
	}

	// Start a workflow and query it.
	w := worker.New(c, "devserver-test", worker.Options{})
	w.RegisterWorkflow(greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "survivor", TaskQueue: "devserver-test"}, greet, "phone")
	if err != nil {
		t.Fatal(err)
	}
	var name string
	if err := queryWithRetry(ctx, c, "survivor", &name); err != nil || name != "phone" {
		t.Fatalf("query before restart: %q %v", name, err)
	}
	w.Stop()
	c.Close()

	// Restart on the same file: the workflow is still there and finishes.
	s.Stop()
	s, err = Start(ctx, opts)
	if err != nil {
		t.Fatalf("restart on the existing file: %v", err)
	}
	defer s.Stop()
	c = dial(t, s)
	defer c.Close()
	desc, err := c.DescribeWorkflowExecution(ctx, "survivor", run.GetRunID())
	if err != nil {
		t.Fatalf("workflow lost across restart: %v", err)
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Fatalf("status after restart %v", st)
	}
	w = worker.New(c, "devserver-test", worker.Options{})
	w.RegisterWorkflow(greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := c.SignalWorkflow(ctx, "survivor", "", "finish", "!"); err != nil {
		t.Fatal(err)
	}
	var result string
	if err := c.GetWorkflow(ctx, "survivor", run.GetRunID()).Get(ctx, &result); err != nil || result != "hello phone!" {
		t.Fatalf("result after restart: %q %v", result, err)
	}
}

func addrPort(t *testing.T, addr string) int {
	t.Helper()
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return a.Port
}

func urlPort(t *testing.T, u string) int {
	t.Helper()
	return addrPort(t, strings.TrimPrefix(u, "http://"))
}

func queryWithRetry(ctx context.Context, c client.Client, id string, out *string) error {
	var err error
	for i := 0; i < 100; i++ {
		var v interface{ Get(any) error }
		v, err = c.QueryWorkflow(ctx, id, "", "name")
		if err == nil {
			return v.Get(out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func TestPortTakenError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	_, err = Start(context.Background(), Options{Port: port, DBFile: filepath.Join(t.TempDir(), "t.db")})
	if !errors.Is(err, ErrPortInUse) {
		t.Fatalf("want ErrPortInUse, got %v", err)
	}
	// A bare listener is not taken for a Temporal server.
	for _, want := range []string{"is in use", "another program holds it", "--temporal-port"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}

	// The UI port is bound before anything starts: a taken one is an
	// error, never the UI library's exit, and the frontend port is free
	// again afterwards.
	front := freePort(t)
	_, err = Start(context.Background(), Options{Port: front, UIPort: port})
	if !errors.Is(err, ErrPortInUse) || !strings.Contains(err.Error(), "--temporal-ui-port") {
		t.Fatalf("UI port taken: %v", err)
	}
	l2, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(front)))
	if err != nil {
		t.Fatalf("the frontend port stayed bound after a failed start: %v", err)
	}
	_ = l2.Close()
}

func TestReservationKeepsPortFromAnyPortBinds(t *testing.T) {
	r, err := reserve(0)
	if err != nil {
		t.Fatal(err)
	}
	// Held: nobody else can bind it.
	if l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(r.port))); err == nil {
		_ = l.Close()
		t.Fatal("a held port could be bound")
	}
	r.release()
	// Released: an explicit bind (what the server does) gets it, while a
	// few hundred "any port" binds in between do not.
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	for range 300 {
		l, err := net.Listen("tcp", host+":0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		if l.Addr().(*net.TCPAddr).Port == r.port {
			t.Fatalf("an any-port bind got the released port %d", r.port)
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(r.port)))
	if err != nil {
		t.Fatalf("explicit bind of the released port: %v", err)
	}
	_ = l.Close()
}

// markDevice upserts the device search attribute, as a goal does as it
// starts.
func markDevice(ctx workflow.Context, serial string) error {
	return workflow.UpsertTypedSearchAttributes(ctx, temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrDevice).ValueSet(serial))
}

// A database from a release that lacked a search attribute gets it at
// start, and a workflow can use it at once, with no cache forced to
// refresh on every read.
func TestSearchAttributeRegisteredAtStartIsUsableAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := Options{Port: AnyPort, DBFile: filepath.Join(t.TempDir(), "temporal.db"), Namespaces: []string{"default"},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	saved := SearchAttributes
	SearchAttributes = map[string]enumspb.IndexedValueType{workflows.SearchAttrStatus: enumspb.INDEXED_VALUE_TYPE_KEYWORD}
	s, err := Start(ctx, opts)
	SearchAttributes = saved
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, s)
	resp, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
	c.Close()
	s.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := resp.GetCustomAttributes()[workflows.SearchAttrDevice]; ok {
		t.Fatalf("the older database has %s already", workflows.SearchAttrDevice)
	}

	s, err = Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	c = dial(t, s)
	defer c.Close()
	w := worker.New(c, "sa", worker.Options{})
	w.RegisterWorkflow(markDevice)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "sa", WorkflowTaskTimeout: 5 * time.Second}, markDevice, "emu-1")
	if err != nil {
		t.Fatal(err)
	}
	// Well within the caches' one-minute refresh: a stale cache would fail
	// the workflow task until it refreshed.
	gctx, gcancel := context.WithTimeout(ctx, 20*time.Second)
	defer gcancel()
	if err := run.Get(gctx, nil); err != nil {
		t.Fatalf("a workflow upserting the search attribute registered at start: %v", err)
	}
}
