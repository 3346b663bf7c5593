package stack_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// fleetRig is the fleet the scenarios of TestFleetScenarios share: one
// embedded server and two phone hosts, each a worker process with its own
// built-in ADB server; host a has phones a0 and a1, host b phone b0. Every
// phone is labelled shop; a0 is also labelled door, and b0 till. b0 runs
// Android tillAndroid, the others phonesim's own release.
type fleetRig struct {
	st     *stack.Stack
	phones map[string]*phonesim.Phone // by serial
	hostOf map[string]string          // serial → host name
	name   map[string]string          // serial → a0, a1, b0

	mu   sync.Mutex
	sent map[string][]string // serial → the messages its goals were meant to send, once each
	ran  map[string][]string // serial → the goals that ran on it
}

// serial returns the serial of phone a0, a1 or b0.
func (f *fleetRig) serial(name string) string {
	for s, n := range f.name {
		if n == name {
			return s
		}
	}
	panic("no phone " + name)
}

// expect records that phone serial is to show text once, sent by goal id.
func (f *fleetRig) expect(serial, id, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if text != "" {
		f.sent[serial] = append(f.sent[serial], text)
	}
	f.ran[serial] = append(f.ran[serial], id)
}

// message is a goal whose commit is one message the phone shows.
func message(text string) string { return fmt.Sprintf("Send %q to Alice Chen in Messages", text) }

// tillAndroid is b0's Android release: another than the other phones',
// so a value read on b0 is told from one read elsewhere.
const tillAndroid = "15"

// fleetScenarios run in this order on one fleetRig. A scenario records
// the messages it expects each phone to have sent (expect); the test then
// requires every phone to have sent exactly those, each once, and no
// phone to have been driven by two goals at once.
var fleetScenarios = []struct {
	name string
	run  func(t *testing.T, f *fleetRig)
}{
	{"fan-out over a label, then retry the phones not done", fleetFanOutAndRetry},
	{"schedule over a label and a goal on any phone", fleetScheduleAndAny},
	{"a goal whose phone the planner picks", fleetPlannerPicks},
	{"a goal spanning two phones with a value carried across", fleetSpanCarriesAValue},
}

// TestFleetScenarios runs the fleet scenarios on three simulated phones on
// two worker hosts (docs/fleet.md, docs/design.md#phone-fleet).
func TestFleetScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the worker and runs goals on two worker processes")
	}
	ctx := context.Background()
	st, err := stack.Start(ctx, stack.Options{Phones: -1, ADB: stack.BuiltinADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	bin, err := stack.BuildWorker(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fleetRig{st: st, phones: map[string]*phonesim.Phone{}, hostOf: map[string]string{}, name: map[string]string{},
		sent: map[string][]string{}, ran: map[string][]string{}}
	for _, h := range []struct {
		name   string
		phones int
	}{{"a", 2}, {"b", 1}} {
		hh, err := st.AddHost(ctx, h.phones)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range hh.Serials {
			f.phones[s], f.hostOf[s], f.name[s] = hh.Phones[i], h.name, fmt.Sprintf("%s%d", h.name, i)
			label := map[string]string{"a0": "shop door", "b0": "shop till"}[f.name[s]]
			if label == "" {
				label = "shop"
			}
			if f.name[s] == "b0" {
				hh.Phones[i].SetAndroidVersion(tillAndroid)
			}
			hh.Config.ADB.Labels = append(hh.Config.ADB.Labels, s+"="+label)
		}
		w := stacktest.StartProcess(t, bin, hh.Config)
		for _, s := range hh.Serials {
			stacktest.WaitPolled(t, st, s, w)
		}
	}
	waitFleet(t, st, 3)

	for _, sc := range fleetScenarios {
		if !t.Run(sc.name, func(t *testing.T) { sc.run(t, f) }) {
			break
		}
	}

	// Every commit once: each phone shows exactly the messages its goals
	// were to send, and no other.
	for s, p := range f.phones {
		var got []string
		for _, m := range p.State().MessagesSent {
			got = append(got, m.Text)
		}
		want := slices.Clone(f.sent[s])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("phone %s (%s) sent %q, want %q, each once", f.name[s], s, got, want)
		}
	}
	// No phone held by two goals: the todos of the goals that ran on a
	// phone, which drive it only under its lease, never overlap.
	for s, ids := range f.ran {
		checkNoOverlap(t, st, s, f.name[s], ids)
	}
}

// waitFleet waits until the workers have published n phones with their labels.
func waitFleet(t *testing.T, st *stack.Stack, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		phones, err := st.Goals.Fleet(context.Background())
		if err == nil && len(fleet.Selector{Label: "shop"}.Select(phones)) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workers never published their %d shop phones: %v %+v", n, err, phones)
		}
	}
}

// fleetFanOutAndRetry: a fan-out over shop (all three phones) where a1
// lacks the ADB Keyboard, so its goal asks for it to be installed, and b0
// has a PIN nobody configured, so its goal asks to be unlocked; both
// questions go unanswered and end asked; a0 is done. The fan-out closes as Failed naming that
// summary. Then a1 gets its keyboard back, b0 is unlocked, and
// --retry-failed runs the goal on a1 and b0 only.
func fleetFanOutAndRetry(t *testing.T, f *fleetRig) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	a0, a1, b0 := f.serial("a0"), f.serial("a1"), f.serial("b0")
	if err := f.phones[a1].SetFault(phonesim.Fault{Kind: phonesim.FaultNoIME}); err != nil {
		t.Fatal(err)
	}
	f.phones[b0].SetScreenLock("4711", false)
	f.phones[b0].Lock()
	text := "fleet fan-out"
	opts := workflows.GoalOptions{Plan: []string{message(text)}, Mode: workflows.ModeLayered, AnswerDeadline: 10 * time.Second}
	id, err := f.st.Goals.StartFanOut(ctx, "", workflows.FanOutInput{Goal: message(text), On: fleet.Selector{Label: "shop"}, Options: opts, Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.st.Goals.FanOutResult(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	f.st.Goals.WriteFanOut(ctx, &out, id, st, false)
	t.Logf("starter status %s:\n%s", id, out.String())
	want := map[string]string{a0: workflows.PhoneDone, a1: workflows.PhoneAsked, b0: workflows.PhoneAsked}
	checkOutcomes(t, st, want)
	if st.Phase != workflows.PhoneFailed {
		t.Errorf("fan-out phase %s, want failed", st.Phase)
	}
	info, err := f.st.Goals.Describe(ctx, id)
	if err != nil || info.State != "failed" {
		t.Errorf("fan-out %s closed %q (%v), want Failed", id, info.State, err)
	}
	f.expect(a0, fanOutGoal(id, a0), text)
	f.expect(a1, fanOutGoal(id, a1), "")
	f.expect(b0, fanOutGoal(id, b0), "")

	if err := f.phones[a1].SetFault(phonesim.Fault{Kind: phonesim.FaultClear}); err != nil {
		t.Fatal(err)
	}
	f.phones[b0].SetScreenLock("", false)
	f.phones[b0].Unlock()
	rid, in, err := f.st.Goals.RetryFailed(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(in.Serials, " "); got != strings.Join(sortedOf(a1, b0), " ") {
		t.Errorf("the retry runs %q, want a1 and b0 only", got)
	}
	rst, err := f.st.Goals.FanOutResult(ctx, rid)
	if err != nil {
		t.Fatal(err)
	}
	checkOutcomes(t, rst, map[string]string{a1: workflows.PhoneDone, b0: workflows.PhoneDone})
	if rst.Phase != workflows.PhoneDone || rst.Input.RetryOf != id {
		t.Errorf("retry %s = %+v, want done as a retry of %s", rid, rst, id)
	}
	f.expect(a1, fanOutGoal(rid, a1), text)
	f.expect(b0, fanOutGoal(rid, b0), text)
}

// fleetScheduleAndAny: a schedule over label till, triggered once, runs its
// goal on b0 (the only phone labelled till), while a goal with --on any
// started at the same time runs on some phone of the fleet.
func fleetScheduleAndAny(t *testing.T, f *fleetRig) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	const name = "fleet-till"
	sched, anyText := "fleet schedule", "fleet any"
	if err := f.st.Goals.CreateSchedule(ctx, goalctl.ScheduleRequest{Name: name, Goal: message(sched), On: &fleet.Selector{Label: "till"},
		Cron: "0 3 1 1 *", Options: workflows.GoalOptions{Plan: []string{message(sched)}, Mode: workflows.ModeLayered}}); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.st.Goals.DeleteSchedule(context.Background(), name) }()
	sid, err := f.st.Goals.TriggerScheduleGoal(ctx, name, time.Minute)
	if err != nil || sid == "" {
		t.Fatalf("the triggered schedule started no goal: %v", err)
	}
	aid, _, err := f.st.Goals.Start(ctx, goalctl.StartRequest{Goal: message(anyText), On: &fleet.Selector{Any: true},
		Options: workflows.GoalOptions{Plan: []string{message(anyText)}, Mode: workflows.ModeLayered}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		id, text, want string
	}{{sid, sched, f.serial("b0")}, {aid, anyText, ""}} {
		res, err := f.st.Goals.Result(ctx, g.id)
		if err != nil || res.Status != workflows.GoalDone {
			t.Errorf("goal %s: %s %s %v", g.id, res.Status, res.Reason, err)
			continue
		}
		info, err := f.st.Goals.Describe(ctx, g.id)
		if err != nil || f.phones[info.Device] == nil || (g.want != "" && info.Device != g.want) {
			t.Errorf("goal %s ran on %q (%v), want %q", g.id, info.Device, err, or(g.want, "a phone of the fleet"))
			continue
		}
		t.Logf("goal %s (%s) ran on %s (host %s)", g.id, g.text, f.name[info.Device], f.hostOf[info.Device])
		f.expect(info.Device, g.id, g.text)
	}
}

// fleetPlannerPicks: a goal started without a phone (what `starter run`
// does with several phones ready, `--on planner`) whose text names the
// label till: the planner chooses b0, the goal runs there, and its
// result's status line says the planner chose it and why.
func fleetPlannerPicks(t *testing.T, f *fleetRig) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	text := "fleet planner"
	b0 := f.serial("b0")
	id, _, err := f.st.Goals.Start(ctx, goalctl.StartRequest{Goal: message(text) + " on the phone labelled till", On: &fleet.Selector{Planner: true},
		Options: workflows.GoalOptions{Plan: []string{message(text)}, Mode: workflows.ModeLayered}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.st.Goals.Result(ctx, id)
	if err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("goal %s: %s %s %v", id, res.Status, res.Reason, err)
	}
	info, err := f.st.Goals.Describe(ctx, id)
	if err != nil || info.Device != b0 {
		t.Errorf("goal %s ran on %q (%v), want b0 (%s), the only phone labelled till", id, info.Device, err, b0)
	}
	if want := "on phone " + b0 + ", chosen by the planner: the goal names the label till"; !strings.HasPrefix(res.Picked, want) {
		t.Errorf("status line %q, want it to start %q", res.Picked, want)
	}
	t.Logf("goal %s: %s", id, res.Picked)
	f.expect(b0, id, text)
}

// fleetSpanCarriesAValue: a goal started without a phone reads the Android
// version on the phone labelled till (b0, which the planner chooses) and
// sends it in Messages on the phone labelled door (a0, leased for that
// todo alone): a0's message carries b0's release, which no other phone
// runs.
func fleetSpanCarriesAValue(t *testing.T, f *fleetRig) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	a0, b0 := f.serial("a0"), f.serial("b0")
	goal := "Read the Android version on the phone labelled till, then send it to Alice Chen in Messages on the phone labelled door"
	id, _, err := f.st.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, On: &fleet.Selector{Planner: true}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.st.Goals.Result(ctx, id)
	if err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("goal %s: %s %s %v (todos %+v)", id, res.Status, res.Reason, err, res.Todos)
	}
	info, err := f.st.Goals.Describe(ctx, id)
	if err != nil || info.Device != b0 {
		t.Errorf("goal %s ran on %q (%v), want b0 (%s)", id, info.Device, err, b0)
	}
	var on []string
	for _, td := range res.Todos {
		d := or(td.Device, info.Device) // "": the goal's own phone
		on = append(on, f.name[d])
		t.Logf("todo %d on %s: %s → %s", td.Index, f.name[d], td.Text, td.Result)
	}
	if !slices.Equal(on, []string{"b0", "a0"}) {
		t.Errorf("todos ran on %v, want the read on b0, then the send on a0", on)
	}
	var sent []string
	for _, m := range f.phones[a0].State().MessagesSent {
		if strings.Contains(m.Text, tillAndroid) {
			sent = append(sent, m.Text)
		}
	}
	if len(sent) != 1 {
		t.Fatalf("a0 sent %q with b0's Android version %s, want one message", sent, tillAndroid)
	}
	f.expect(b0, id, "")
	f.expect(a0, id, sent[0])
}

// fanOutGoal is the goal a fan-out ran on a phone.
func fanOutGoal(fanout, serial string) string { return workflows.FanOutChildID(fanout, serial) }

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func sortedOf(s ...string) []string { slices.Sort(s); return s }

// checkOutcomes requires the fan-out to have ended with exactly want's
// phones, each with its status.
func checkOutcomes(t *testing.T, st workflows.FanOutStatus, want map[string]string) {
	t.Helper()
	if len(st.Phones) != len(want) {
		t.Errorf("fan-out phones %+v, want %d", st.Phones, len(want))
	}
	got := map[string]string{}
	for _, p := range st.Phones {
		got[p.Serial] = p.Status
		if p.Status != want[p.Serial] {
			t.Errorf("phone %s ended %s (%s), want %s", p.Serial, p.Status, p.Reason, want[p.Serial])
		}
	}
	var serials []string
	for s := range got {
		serials = append(serials, s)
	}
	slices.Sort(serials)
	var in []string
	for _, p := range st.Phones {
		in = append(in, p.Serial)
	}
	slices.Sort(in)
	if !slices.Equal(serials, in) {
		t.Errorf("a phone appears twice in %+v", st.Phones)
	}
}

// checkNoOverlap requires the todos that the goals ids ran on phone
// serial to have run one goal at a time: a todo drives the phone only
// while its goal holds the phone's lease. A todo of a goal that spans
// phones counts on the phone it ran on.
func checkNoOverlap(t *testing.T, st *stack.Stack, serial, phone string, ids []string) {
	t.Helper()
	type span struct {
		goal       string
		start, end time.Time
	}
	var spans []span
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, _ := st.Goals.Result(ctx, id)
		var here []workflows.TodoState
		for _, td := range res.Todos {
			if td.Device == "" || td.Device == serial {
				here = append(here, td)
			}
		}
		res.Todos = here
		for _, tid := range drill.GoalWorkflowIDs(id, res)[1:] {
			d, err := st.Client.DescribeWorkflowExecution(ctx, tid, "")
			if err != nil {
				continue // a restart suffix that was never used
			}
			i := d.GetWorkflowExecutionInfo()
			spans = append(spans, span{id, i.GetStartTime().AsTime(), i.GetCloseTime().AsTime()})
		}
		cancel()
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start.Compare(b.start) })
	for i := 1; i < len(spans); i++ {
		p, c := spans[0], spans[i]
		for _, q := range spans[:i] {
			if q.end.After(p.end) {
				p = q
			}
		}
		if p.goal != c.goal && c.start.Before(p.end) {
			t.Errorf("phone %s: a todo of %s started at %s while one of %s ran until %s",
				phone, c.goal, c.start.Format(time.StampMilli), p.goal, p.end.Format(time.StampMilli))
		}
	}
}
