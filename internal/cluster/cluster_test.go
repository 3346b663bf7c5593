package cluster_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/operatorservice/v1"

	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/searchattr"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestCluster runs phoneflow on a Temporal cluster of separate service
// processes on PostgreSQL (docs/design.md §14): two worker processes, two
// phones each. The showcase goal, a goal paused and resumed with updates, a
// goal answered with a plain signal (as `temporal workflow signal` sends
// it) and a scheduled run go at once while PostgreSQL crashes and comes
// back, the history service is killed with SIGKILL and started again, and
// the frontend is away for 10 s while a goal waits on a person. Every goal
// ends done, every message is sent once, the list filters and the devices
// check answer from this cluster's visibility store and heartbeats.
// TestClusterDrills (build tag drills) runs the full fault set.
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Temporal server and runs a cluster on PostgreSQL")
	}
	start := time.Now()
	f := startFleet(t, 2)
	checkSearchAttributes(t, f)
	scenario(t, f, 10*time.Second)
	t.Logf("cluster test took %s", time.Since(start).Round(time.Second))
}

// checkSearchAttributes: the cluster started without phoneflow's search
// attributes; the workers registered them as an operator would.
func checkSearchAttributes(t *testing.T, f *fleet) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := f.st.Client.OperatorService().ListSearchAttributes(ctx,
		&operatorservice.ListSearchAttributesRequest{Namespace: f.cl.Namespace})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range searchattr.Attributes {
		if got := resp.GetCustomAttributes()[name]; got != want {
			t.Errorf("search attribute %s on the cluster: %s, want a %s the worker registered", name, got, want)
		}
	}
}

// scenario runs the goals and the faults on f (two hosts of at least two
// phones), with the frontend away for outage while goals wait on a
// person: one goal on the second host's first phone, and one more on each
// host's third phone where there is one.
func scenario(t *testing.T, f *fleet, outage time.Duration) {
	ctx := context.Background()
	a, b := f.hosts[0], f.hosts[1]
	g := f.st.Goals

	show := f.startGoal(t, demo.Showcase, a.Serials[0])
	const pauseText = "cluster pause"
	paused := f.startGoal(t, fmt.Sprintf("Send %q to Alice Chen in Messages", pauseText), a.Serials[1])
	type asker struct {
		id string
		h  *host
		i  int
	}
	askers := []asker{{f.startGoal(t, demo.AskGoal, b.Serials[0]), b, 0}}
	for _, h := range f.hosts {
		if len(h.Serials) > 2 {
			askers = append(askers, asker{f.startGoal(t, demo.AskGoal, h.Serials[2]), h, 2})
		}
	}
	// On failure, what each goal and its children wait on, while the
	// cluster is still up (cleanups run last registered first).
	watched := []string{show, paused}
	for _, q := range askers {
		watched = append(watched, q.id)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, id := range watched {
				t.Logf("goal %s:\n%s", id, drilltest.Pending(f.st, id))
			}
		}
	})
	// The schedule's own time is twelve hours away, so its only run is the
	// trigger below: an hourly interval fired on the hour as well when the
	// test ran a few seconds before it, and the goal lists held two runs.
	due := time.Now().UTC().Add(12 * time.Hour)
	sched := goalctl.ScheduleRequest{Name: "cluster-bt", Goal: "Turn on Bluetooth", Device: b.Serials[1],
		Cron: fmt.Sprintf("%d %d * * *", due.Minute(), due.Hour()), Jitter: time.Second, RunTimeout: 10 * time.Minute}
	if err := g.CreateSchedule(ctx, sched); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.DeleteSchedule(context.Background(), sched.Name) })
	if err := g.TriggerSchedule(ctx, sched.Name); err != nil {
		t.Fatal(err)
	}

	// Pause with an update: the goal says paused and sends nothing.
	if err := g.Send(ctx, paused, workflows.SignalPause, nil, false); err != nil {
		t.Fatalf("pause update: %v", err)
	}
	waitFor(t, "the paused goal says paused", 2*time.Minute, func() (bool, string) {
		st, line, err := f.statusLine(paused)
		return err == nil && st.Paused && st.Phase == workflows.GoalPaused, fmt.Sprint(line, err)
	})

	// PostgreSQL crashes mid-goal and comes back.
	var steps int
	waitFor(t, "the showcase takes a step", 3*time.Minute, func() (bool, string) {
		st, line, err := f.statusLine(show)
		steps = st.Steps
		return err == nil && st.Steps >= 1, fmt.Sprint(line, err)
	})
	if err := f.pg.Crash(ctx); err != nil {
		t.Fatal(err)
	}
	_, line, err := f.statusLine(show)
	t.Logf("PostgreSQL down at showcase step %d; status meanwhile: %q %v", steps, line, err)
	if err := f.pg.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Log("PostgreSQL back")

	// The history service is killed mid-goal and started again.
	waitFor(t, "the showcase moves on after PostgreSQL's restart", 3*time.Minute, func() (bool, string) {
		st, line, err := f.statusLine(show)
		return err == nil && (st.Steps > steps || st.Phase == workflows.GoalDone), fmt.Sprint(line, err)
	})
	hist := f.cl.Service("history")
	if err := hist.Kill(); err != nil {
		t.Fatal(err)
	}
	t.Log("history service killed (SIGKILL)")
	if err := hist.Start(); err != nil {
		t.Fatal(err)
	}
	if err := f.cl.WaitHealthy(ctx, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	t.Log("history service back")

	// The frontend is away while goals wait on a person: every status
	// call fails plainly (no made-up status), and after it the goals
	// still wait with their question.
	for _, q := range askers {
		waitFor(t, "goal "+q.id+" asks its question", 3*time.Minute, func() (bool, string) {
			st, line, err := f.statusLine(q.id)
			return err == nil && st.PendingQuestion != "" && st.Phase == workflows.GoalWaitingUser, fmt.Sprint(line, err)
		})
	}
	front := f.cl.Service("frontend")
	if err := front.Kill(); err != nil {
		t.Fatal(err)
	}
	down := time.Now()
	calls := 0
	for time.Since(down) < outage {
		for _, q := range askers {
			_, line, err := f.statusLine(q.id)
			calls++
			if err == nil {
				t.Errorf("status of %s with the frontend down answered %q, want an error", q.id, line)
			}
		}
		time.Sleep(time.Second)
	}
	_, _, err = f.statusLine(askers[0].id)
	t.Logf("frontend down for %s; %d status calls failed, e.g. %v", time.Since(down).Round(time.Second), calls, err)
	if err := front.Start(); err != nil {
		t.Fatal(err)
	}
	if err := f.cl.WaitHealthy(ctx, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, q := range askers {
		waitFor(t, "goal "+q.id+" still waits on its person", time.Minute, func() (bool, string) {
			st, line, err := f.statusLine(q.id)
			return err == nil && st.PendingQuestion != "" && st.Phase == workflows.GoalWaitingUser, fmt.Sprint(line, err)
		})
		if got := sent(q.h, q.i); len(got) != 0 {
			t.Errorf("goal %s sent %q before its answer", q.id, got)
		}
		// What `temporal workflow signal --name clarify --input '"…"'` sends.
		if err := f.st.Client.SignalWorkflow(ctx, q.id, "", workflows.SignalClarify, demo.AskExample); err != nil {
			t.Fatalf("signal %s: %v", q.id, err)
		}
	}

	// Resume with an update; nothing was sent while paused.
	if got := sent(a, 1); len(got) != 0 {
		t.Errorf("the paused goal sent %q while paused", got)
	}
	if err := g.Send(ctx, paused, workflows.SignalResume, nil, false); err != nil {
		t.Fatalf("resume update: %v", err)
	}

	var run string
	waitFor(t, "the schedule's run starts", 2*time.Minute, func() (bool, string) {
		si, err := g.DescribeSchedule(ctx, sched.Name)
		if err != nil || len(si.Recent) == 0 {
			return false, fmt.Sprint(err)
		}
		run = si.Recent[0].WorkflowID
		return true, ""
	})

	ids := []string{show, paused, run}
	for _, q := range askers {
		ids = append(ids, q.id)
	}
	for _, id := range ids {
		res := f.result(t, id, 5*time.Minute)
		if res.Status != workflows.GoalDone {
			t.Errorf("goal %s ended %s: %s", id, res.Status, res.Reason)
		}
	}
	checkSent(t, a, 0, "Alice Chen: 07:00")
	checkSent(t, a, 1, "Alice Chen: "+pauseText)
	checkSent(t, b, 1)
	_, answer, _ := strings.Cut(demo.AskExample, ": ")
	for _, q := range askers {
		checkSent(t, q.h, q.i, "Alice Chen: "+answer)
	}
	for _, p := range []struct {
		h *host
		i int
	}{{a, 0}, {b, 1}} {
		if !p.h.Phones[p.i].State().Toggles.Bluetooth {
			t.Errorf("phone %s: Bluetooth is still off", p.h.Serials[p.i])
		}
	}

	// The Web UI's and `starter list`'s filters, on this visibility store.
	slices.Sort(ids)
	waitFor(t, "list --status done finds every goal", time.Minute, func() (bool, string) {
		got := f.list(t, goalctl.ListOptions{Status: workflows.GoalDone, Limit: 100})
		return slices.Equal(got, ids), fmt.Sprint(got)
	})
	if got := f.list(t, goalctl.ListOptions{Status: workflows.GoalDone, Device: a.Serials[0]}); !slices.Equal(got, []string{show}) {
		t.Errorf("list --status done --device %s = %v, want [%s]", a.Serials[0], got, show)
	}
	if got := f.list(t, goalctl.ListOptions{Device: b.Serials[1]}); !slices.Equal(got, []string{run}) {
		t.Errorf("list --device %s = %v, want the scheduled run [%s]", b.Serials[1], got, run)
	}
	if got := f.list(t, goalctl.ListOptions{Status: workflows.GoalRunning}); len(got) != 0 {
		t.Errorf("list --status running = %v, want none", got)
	}

	checkDevices(t, f)
}

// checkDevices: `starter devices` reads this cluster's worker heartbeats;
// a worker stopped says so for its phones.
func checkDevices(t *testing.T, f *fleet) {
	t.Helper()
	g := f.st.Goals
	service := func(serial string) (goalctl.DeviceService, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return g.DeviceService(ctx, serial, time.Now())
	}
	for _, h := range f.hosts {
		for _, serial := range h.Serials {
			waitFor(t, "devices says "+serial+" is served by heartbeat", time.Minute, func() (bool, string) {
				ds, err := service(serial)
				return err == nil && ds.Served && ds.Basis == "heartbeat", fmt.Sprintf("%+v %v", ds, err)
			})
		}
	}
	b := f.hosts[1]
	if err := b.worker.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, serial := range b.Serials {
		waitFor(t, "devices says "+serial+" is not served once its worker stopped", 2*time.Minute, func() (bool, string) {
			ds, err := service(serial)
			return err == nil && !ds.Served, fmt.Sprintf("%+v %v", ds, err)
		})
	}
	ds, _ := service(b.Serials[0])
	t.Logf("devices after the worker stopped: %s", ds.Text)
}
