package scheduled

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// startStack starts a local stack with phones simulated phones, a worker in
// this process and notify.url pointing at hook.
func startStack(ctx context.Context, t *testing.T, phones int, hook *stacktest.Webhook) *localstack.Stack {
	t.Helper()
	cfg := config.Default()
	cfg.Notify.URL = hook.URL + "/phoneflow"
	s := stacktest.Start(ctx, t, localstack.Options{Config: &cfg, ADB: localstack.AnyADB, Phones: phones})
	return s
}

// policy is one way a schedule may treat a run left waiting for a person.
type policy struct {
	name string
	// overlap and deadline are the schedule's --overlap and
	// --answer-deadline (0: until the next run is due).
	overlap  string
	deadline time.Duration
	// buffered: runs due while the waiting run holds the phone must start
	// after it ends (it outlives the interval); otherwise the waiting run
	// must fail by its deadline before the run after next is due.
	buffered bool
}

// The two settings: a long answer deadline with every later run buffered,
// and the default deadline (the time to the next run) with buffer-one.
var (
	bufferPolicy   = policy{name: "buffer", overlap: "buffer-all", buffered: true}
	deadlinePolicy = policy{name: "deadline", overlap: "buffer-one"}
)

// run is one scheduled run as visibility and the goal report it.
type run struct {
	id                       string
	scheduled, start, closed time.Time
	status                   string // the goal's
	reason                   string
}

// drill runs a schedule every `every` for `window` on phone serial. The
// goal always needs a person (the bank app wants its owner to sign in);
// every run's question is answered except the leave-th run's (0-based, in
// scheduled order), which is left waiting. It checks that no run was
// skipped, that the waiting run failed by its deadline with the question in
// its reason, that the runs due meanwhile were buffered (p.buffered) or
// started once the deadline freed the phone, and that the webhook saw each
// run's question and the waiting run's failure.
func drill(ctx context.Context, t *testing.T, s *localstack.Stack, hook *stacktest.Webhook, serial string, p policy, every, window time.Duration, leave int) {
	name := "sched-" + p.name
	deadline := p.deadline
	if p.buffered && deadline == 0 {
		deadline = every*2 + every/2 // the waiting run outlives two intervals
	}
	req := goalctl.ScheduleRequest{Name: name, Goal: "Open the bank app", Device: serial, Every: every,
		Overlap: p.overlap, AnswerDeadline: deadline}
	if err := s.Goals.CreateSchedule(ctx, req); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Goals.DeleteSchedule(context.Background(), name) }()
	if deadline == 0 {
		deadline = every
	}

	answered := map[string]bool{}
	left := ""
	began := time.Now()
	for time.Since(began) < window {
		runs := listRuns(ctx, t, s, name)
		for i, r := range runs {
			if !r.closed.IsZero() || answered[r.id] {
				continue
			}
			if i == leave {
				left = r.id
				continue
			}
			st, err := s.Goals.Status(ctx, r.id)
			if err != nil || st.PendingQuestion == "" {
				continue
			}
			if err := s.Goals.Clarify(ctx, r.id, "I signed in myself", false); err != nil {
				t.Logf("clarify %s: %v", r.id, err)
				continue
			}
			answered[r.id] = true
		}
		time.Sleep(time.Second)
	}
	if err := s.Goals.PauseSchedule(ctx, name, "drill over"); err != nil {
		t.Fatal(err)
	}
	// Let every started run end; answer the ones still asking.
	var runs []run
	for end := time.Now().Add(deadline + 3*time.Minute); ; time.Sleep(2 * time.Second) {
		if time.Now().After(end) {
			t.Fatalf("%s: runs still open after the drill: %+v", name, runs)
		}
		runs = listRuns(ctx, t, s, name)
		open := 0
		for i, r := range runs {
			if !r.closed.IsZero() {
				continue
			}
			open++
			if i == leave || answered[r.id] {
				continue
			}
			if st, err := s.Goals.Status(ctx, r.id); err == nil && st.PendingQuestion != "" {
				if s.Goals.Clarify(ctx, r.id, "I signed in myself", false) == nil {
					answered[r.id] = true
				}
			}
		}
		if open == 0 {
			break
		}
	}
	si, err := s.Goals.DescribeSchedule(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	goalctl.WriteSchedule(&b, si)
	t.Logf("%s: schedule describe:\n%s", name, strings.TrimSpace(b.String()))
	for _, r := range runs {
		t.Logf("%s: run %s scheduled %s started %s closed %s: %s %s", name, r.id, r.scheduled.Format("15:04:05"),
			r.start.Format("15:04:05"), r.closed.Format("15:04:05"), r.status, truncate(r.reason, 100))
	}

	if si.Counts == nil || si.Counts.SkippedOverlap != 0 || si.Counts.MissedCatchup != 0 {
		t.Errorf("%s: counts = %+v, want no skipped run", name, si.Counts)
	}
	want := int(window/every) - 1
	if len(runs) < want || leave >= len(runs) {
		t.Fatalf("%s: %d runs in %s, want at least %d (and the %d-th left waiting)", name, len(runs), window, want, leave+1)
	}
	if left == "" {
		left = runs[leave].id
	}
	// No gap in the scheduled times: every due run started.
	for i := 1; i < len(runs); i++ {
		if gap := runs[i].scheduled.Sub(runs[i-1].scheduled); gap != every {
			t.Errorf("%s: runs %s and %s were scheduled %s apart, want %s (a run was skipped)", name, runs[i-1].id, runs[i].id, gap, every)
		}
	}
	w := runs[leave]
	if w.id != left {
		t.Fatalf("%s: the waiting run was %s, now %s is %d-th", name, left, w.id, leave+1)
	}
	wantReason := fmt.Sprintf("no answer within %s to the question: Please sign in", deadline)
	if w.status != workflows.GoalFailed || !strings.Contains(w.reason, wantReason) {
		t.Errorf("%s: waiting run %s ended %s: %q, want failed with %q", name, w.id, w.status, w.reason, wantReason)
	}
	if held := w.closed.Sub(w.start); held < deadline {
		t.Errorf("%s: waiting run closed %s after it started, before its %s deadline", name, held, deadline)
	}
	if hook.Count(w.id, activities.NotifyFailed) != 1 {
		t.Errorf("%s: the webhook saw %d failures of the waiting run, want 1", name, hook.Count(w.id, activities.NotifyFailed))
	}
	buffered := 0
	for i, r := range runs {
		if n := hook.Count(r.id, activities.NotifyQuestion); n != 1 {
			t.Errorf("%s: the webhook saw %d questions of run %s, want 1", name, n, r.id)
		}
		if i <= leave {
			continue
		}
		if r.status == "" {
			t.Errorf("%s: run %s has no outcome", name, r.id)
		}
		if r.status == workflows.GoalFailed && strings.Contains(r.reason, "no answer within") {
			t.Errorf("%s: answered run %s failed unanswered: %s", name, r.id, r.reason)
		}
		if r.scheduled.Before(w.closed) {
			// Due while the waiting run held the phone: it started after.
			if r.start.Before(w.closed.Add(-time.Second)) {
				t.Errorf("%s: run %s started %s, before the waiting run closed at %s", name, r.id, r.start, w.closed)
			}
			buffered++
		}
	}
	if p.buffered && buffered < 2 {
		t.Errorf("%s: %d runs were buffered behind the waiting run, want at least 2", name, buffered)
	}
	if !p.buffered && buffered > 1 {
		t.Errorf("%s: %d runs were due while the waiting run held the phone; its deadline should have freed it before the second", name, buffered)
	}
}

// listRuns lists the schedule's runs in scheduled order, with each closed
// run's goal result.
func listRuns(ctx context.Context, t *testing.T, s *localstack.Stack, name string) []run {
	t.Helper()
	q := fmt.Sprintf("TemporalScheduledById = '%s'", name)
	var out []run
	var token []byte
	for {
		resp, err := s.Client.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: s.Config.Temporal.Namespace, Query: q, NextPageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.GetExecutions() {
			r := run{id: e.GetExecution().GetWorkflowId(), start: e.GetStartTime().AsTime(),
				scheduled: scheduledTime(e.GetSearchAttributes())}
			if e.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
				r.closed = e.GetCloseTime().AsTime()
				if res, err := s.Goals.Result(ctx, r.id); err == nil {
					r.status, r.reason = res.Status, res.Reason
				}
			}
			out = append(out, r)
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	slices.SortFunc(out, func(a, b run) int { return a.scheduled.Compare(b.scheduled) })
	return out
}

func scheduledTime(sa *commonpb.SearchAttributes) time.Time {
	p, ok := sa.GetIndexedFields()["TemporalScheduledStartTime"]
	if !ok {
		return time.Time{}
	}
	var at time.Time
	if err := converter.GetDefaultDataConverter().FromPayload(p, &at); err != nil {
		return time.Time{}
	}
	return at
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// runBoth drills both policies at once, each on its own phone, as parallel
// subtests of one stack (the stack stops after both, through Cleanup).
func runBoth(t *testing.T, every, window time.Duration, leave int) {
	hook := stacktest.NewWebhook(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), window+10*every+10*time.Minute)
	t.Cleanup(cancel)
	s := startStack(ctx, t, 2, hook)
	for i, p := range []policy{bufferPolicy, deadlinePolicy} {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			drill(ctx, t, s, hook, s.Serials[i], p, every, window, leave)
		})
	}
}

// TestScheduledRunsWithOneLeftWaiting is the bounded drill: schedules every
// 20 s for about a minute and a half, the first run left waiting.
func TestScheduledRunsWithOneLeftWaiting(t *testing.T) {
	runBoth(t, 20*time.Second, 90*time.Second, 0)
}
