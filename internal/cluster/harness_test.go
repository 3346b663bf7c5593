package cluster_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/cluster"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// binDir holds the binaries every test of this run shares: the server and
// the worker are built once (minutes on a cold build cache).
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "phoneflow-cluster-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var (
	buildOnce            sync.Once
	serverBin, workerBin string
	buildErr             error
)

// binaries builds the server and the worker once per test run.
func binaries(t testing.TB) (server, worker string) {
	t.Helper()
	buildOnce.Do(func() {
		ctx := context.Background()
		start := time.Now()
		if serverBin, buildErr = cluster.BuildServer(ctx, binDir); buildErr != nil {
			return
		}
		workerBin, buildErr = stack.BuildWorker(ctx, binDir)
		t.Logf("built the Temporal server and the worker in %s", time.Since(start).Round(time.Second))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return serverBin, workerBin
}

// requirePostgres skips t when PostgreSQL is not installed, unless
// PHONEFLOW_REQUIRE_POSTGRES=1 (set it where the cluster test must run) makes that a failure.
func requirePostgres(t testing.TB) string {
	t.Helper()
	bin, err := cluster.FindPostgres()
	if err != nil {
		if os.Getenv("PHONEFLOW_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("%v, but PHONEFLOW_REQUIRE_POSTGRES=1 requires it", err)
		}
		t.Skipf("skipping the Temporal cluster on PostgreSQL: %v", err)
	}
	return bin
}

// host is one phone host of the fleet: its ADB server and phones, and its
// worker process.
type host struct {
	*stack.Host
	worker *stack.Process
}

// fleet is PostgreSQL, the Temporal cluster on it, a stack (model server,
// phones) pointed at the cluster, and two phone hosts with a worker
// process each.
type fleet struct {
	pg    *cluster.Postgres
	cl    *cluster.Cluster
	st    *stack.Stack
	hosts []*host
}

// startFleet brings a fleet up with phones phones per host, everything
// stopped when the test ends.
func startFleet(t *testing.T, phones int) *fleet { return startFleetOn(t, phones, false) }

// startFleetOn is startFleet, on the embedded server instead of the
// cluster when embedded is set (the bench's comparison).
func startFleetOn(t *testing.T, phones int, embedded bool) *fleet {
	t.Helper()
	pgBin := requirePostgres(t)
	server, worker := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	f := &fleet{}
	var err error
	if embedded {
		if f.st, err = stack.Start(ctx, stack.Options{Phones: -1, ADB: stack.BuiltinADB, Logger: stacktest.Logger(t)}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.st.Stop)
		f.addHosts(ctx, t, worker, phones)
		return f
	}
	if f.pg, err = cluster.StartPostgres(ctx, pgBin); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.pg.Stop)
	t.Logf("PostgreSQL %s on %s", f.pg.Version, f.pg.Addr())
	if major, _, _ := strings.Cut(f.pg.Version, "."); major != strconv.Itoa(cluster.PostgresMajor) {
		t.Errorf("PostgreSQL %s is installed; compose and cluster.PostgresMajor say %d: update both to the version run here",
			f.pg.Version, cluster.PostgresMajor)
	}
	if f.cl, err = cluster.Start(ctx, cluster.Options{Server: server, Postgres: f.pg, Logger: stacktest.Logger(t)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, name := range cluster.Services {
				t.Logf("%s service log (end):\n%s", name, f.cl.Service(name).Tail(15))
			}
			t.Logf("PostgreSQL log (end):\n%s", f.pg.Tail(30))
		}
		f.cl.Stop()
	})
	t.Logf("Temporal cluster up at %s after %s", f.cl.FrontendAddr, time.Since(start).Round(time.Second))
	if f.st, err = stack.Start(ctx, stack.Options{TemporalAddress: f.cl.FrontendAddr, Phones: -1,
		ADB: stack.BuiltinADB, Logger: stacktest.Logger(t)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.st.Stop)
	f.addHosts(ctx, t, worker, phones)
	t.Logf("fleet up (2 workers, %d phones) after %s", 2*phones, time.Since(start).Round(time.Second))
	return f
}

// addHosts adds two phone hosts with a worker process each, one after the
// other: the first registers the search attributes on a fresh namespace
// before the second starts (docs/design.md §14, not covered).
func (f *fleet) addHosts(ctx context.Context, t *testing.T, worker string, phones int) {
	t.Helper()
	for range 2 {
		hh, err := f.st.AddHost(ctx, phones)
		if err != nil {
			t.Fatal(err)
		}
		h := &host{Host: hh, worker: stacktest.StartProcess(t, worker, hh.Config)}
		f.hosts = append(f.hosts, h)
		for _, serial := range h.Serials {
			stacktest.WaitPolled(t, f.st, serial, h.worker)
		}
	}
}

// startGoal starts a goal on a phone.
func (f *fleet) startGoal(t *testing.T, goal, serial string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id, _, err := f.st.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: serial})
	if err != nil {
		t.Fatalf("start %q on %s: %v", goal, serial, err)
	}
	return id
}

// result waits up to d for a goal's result; a call cut by an outage is
// asked again.
func (f *fleet) result(t *testing.T, id string, d time.Duration) workflows.GoalResult {
	t.Helper()
	end := time.Now().Add(d)
	for {
		ctx, cancel := context.WithDeadline(context.Background(), end)
		res, err := f.st.Goals.Result(ctx, id)
		cancel()
		if err == nil {
			return res
		}
		if time.Now().After(end) {
			t.Fatalf("goal %s: no result in %s: %v", id, d, err)
		}
		time.Sleep(time.Second)
	}
}

// sent is the texts a phone sent, to whom, sorted.
func sent(h *host, i int) []string {
	var out []string
	for _, m := range h.Phones[i].State().MessagesSent {
		out = append(out, m.To+": "+m.Text)
	}
	slices.Sort(out)
	return out
}

// checkSent fails unless the phone sent exactly want.
func checkSent(t *testing.T, h *host, i int, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := sent(h, i); !slices.Equal(got, want) {
		t.Errorf("phone %s sent %q, want %q (each exactly once)", h.Serials[i], got, want)
	}
}

// waitFor polls cond every 200 ms for up to d.
func waitFor(t *testing.T, what string, d time.Duration, cond func() (bool, string)) {
	t.Helper()
	last := ""
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		ok, s := cond()
		if ok {
			return
		}
		last = s
	}
	t.Fatalf("%s: not after %s (last: %s)", what, d, last)
}

// list runs the list the Web UI and `starter list` run, filtered.
func (f *fleet) list(t *testing.T, o goalctl.ListOptions) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	infos, err := f.st.Goals.List(ctx, o)
	if err != nil {
		t.Fatalf("list %+v: %v", o, err)
	}
	var ids []string
	for _, in := range infos {
		ids = append(ids, in.ID)
	}
	slices.Sort(ids)
	return ids
}

// statusLine is a goal's status in a line, or the error the query got.
func (f *fleet) statusLine(id string) (workflows.Status, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := f.st.Goals.Status(ctx, id)
	if err != nil {
		return st, "", err
	}
	return st, fmt.Sprintf("%s step %d todo %d %s", st.Phase, st.Steps, st.CurrentTodo, strings.TrimSpace(st.PendingQuestion)), nil
}
