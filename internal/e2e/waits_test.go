package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// workerStack starts a local stack for cfg (nil: the defaults) with one
// phone and a worker in this process, both stopped when the test ends. It
// uses the adb binary when there is one; PHONEFLOW_REQUIRE_ADB=1 insists.
func workerStack(ctx context.Context, t *testing.T, cfg *config.Config) *localstack.Stack {
	t.Helper()
	s := stacktest.Start(ctx, t, localstack.Options{Config: cfg, ADB: localstack.AnyADB})
	return s
}

// TestScheduledRunsNeverWaitForeverForAnAnswer runs a schedule every 20 s
// whose goal always needs a person (the bank app wants its owner to sign
// in) and nobody answers. Each run must end failed by its answer deadline
// with the question in its reason, later runs must start (none skipped),
// and the webhook must have seen each wait and each failure, even though
// it refused the first notifications (503, retried).
func TestScheduledRunsNeverWaitForeverForAnAnswer(t *testing.T) {
	hook := stacktest.NewWebhook(t, 2)
	cfg := config.Default()
	cfg.Notify.URL = hook.URL + "/phoneflow?token=t0k3n"
	cfg.Notify.UIURL = "http://127.0.0.1:8233" // only written into the links
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s := workerStack(ctx, t, &cfg)

	const every, wait = 20 * time.Second, 8 * time.Second
	req := goalctl.ScheduleRequest{Name: "bank", Goal: "Open the bank app", Device: s.Serials[0], Every: every,
		AnswerDeadline: wait}
	if err := s.Goals.CreateSchedule(ctx, req); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Goals.DeleteSchedule(context.Background(), "bank") }()

	// Three runs are due in the first minute; wait for three to end.
	var si goalctl.ScheduleInfo
	var err error
	var ended []goalctl.RunOutcome
	for end := time.Now().Add(3 * time.Minute); ; time.Sleep(time.Second) {
		if time.Now().After(end) {
			t.Fatalf("after 3 minutes %d runs ended (%+v)", len(ended), si.Recent)
		}
		if si, err = s.Goals.DescribeSchedule(ctx, "bank"); err != nil {
			t.Fatal(err)
		}
		ended = ended[:0]
		for _, o := range si.Outcomes {
			if o.State != "running" {
				ended = append(ended, o)
			}
		}
		if len(ended) >= 3 {
			break
		}
	}
	if err := s.Goals.PauseSchedule(ctx, "bank", "test over"); err != nil {
		t.Fatal(err)
	}
	for _, o := range ended {
		if o.Status != workflows.GoalFailed || !strings.Contains(o.Reason, "no answer within 8s to the question: Please sign in") {
			t.Errorf("run %s ended %s (%s): %q, want failed for the unanswered question", o.WorkflowID, o.State, o.Status, o.Reason)
		}
		n := hook.Of(o.WorkflowID)
		if len(n[activities.NotifyQuestion]) != 1 || len(n[activities.NotifyFailed]) != 1 {
			t.Errorf("run %s: webhook saw %d questions and %d failures, want 1 and 1", o.WorkflowID,
				len(n[activities.NotifyQuestion]), len(n[activities.NotifyFailed]))
			continue
		}
		q := n[activities.NotifyQuestion][0]
		if q.Schedule != "bank" || q.Device != s.Serials[0] || !strings.Contains(q.Text, "sign in") ||
			q.Deadline.IsZero() || !strings.HasPrefix(q.WebUI, "http://127.0.0.1:8233/namespaces/default/workflows/goal-sched-bank-") {
			t.Errorf("run %s: question notification = %+v", o.WorkflowID, q)
		}
	}
	if si.Counts == nil || si.Counts.SkippedOverlap != 0 || si.Counts.MissedCatchup != 0 {
		t.Errorf("counts = %+v, want no skipped run", si.Counts)
	}
	var b bytes.Buffer
	goalctl.WriteSchedule(&b, si)
	t.Logf("schedule describe:\n%s", strings.TrimSpace(b.String()))
}

// TestCancelledGoalClosesCanceled cancels a goal while its todo waits for
// the user, and checks on the server that the goal and its todo both closed
// as Canceled (what the Web UI shows as CANCELED), with the partial result
// still readable.
func TestCancelledGoalClosesCanceled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s := workerStack(ctx, t, nil)
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Open the bank app", Device: s.Serials[0]})
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, s.Goals, id, 2*time.Minute, func(st workflows.Status) bool { return st.PendingQuestion != "" })
	if err := s.Goals.Cancel(ctx, id); err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, s.Goals, id, time.Minute)
	if res.Status != workflows.GoalCancelled || len(res.Todos) != 1 || res.Todos[0].Status != workflows.TodoCancelled || res.Steps == 0 {
		t.Fatalf("partial result = %+v", res)
	}
	for _, wid := range []string{id, id + "/todo-1"} {
		d, err := s.Client.DescribeWorkflowExecution(ctx, wid, "")
		if err != nil {
			t.Fatal(err)
		}
		if st := d.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED {
			t.Errorf("%s closed %s, want CANCELED", wid, st)
		}
	}
}
