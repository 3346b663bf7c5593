package activities

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

const finishAnswer = `<think>The Wi-Fi row shows it.</think><answer>finish(message="The Wi-Fi row is shown")</answer>`

// A Step asked to verify the finish its think decides gives the verdict
// Verify gives on the same input: the verifier's call follows the think's,
// on the screen the Step observed (docs/design.md §9).
func TestStepVerifiesTheFinishItDecides(t *testing.T) {
	verdict := `{"status":"done","evidence":"the screen shows \"Wi-Fi\""}`
	a, _, m := newActivities(t, finishAnswer, verdict)
	in := StepInput{Serial: "fake-1", Task: "show the Wi-Fi row", UITree: true, Think: true, VerifyFinish: true}
	res, err := a.Step(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict == nil || res.Verdict.Status != "done" || len(m.reqs) != 2 {
		t.Fatalf("verdict = %+v after %d model calls, want done after the think and the verifier", res.Verdict, len(m.reqs))
	}
	if q := m.reqs[1][len(m.reqs[1])-1].Text; !strings.Contains(q, "The Wi-Fi row is shown") || !strings.Contains(q, "show the Wi-Fi row") {
		t.Fatalf("verifier request = %q, want the task and the finish message", q)
	}
	b, _, _ := newActivities(t, verdict)
	b.Blobs = a.Blobs // the screen's blobs
	want, err := b.Verify(context.Background(), VerifyInput{Serial: "fake-1", Task: in.Task, Message: "The Wi-Fi row is shown", Screen: res.Screen, HandBackOutages: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict.Status != want.Status || res.Verdict.Evidence != want.Evidence || res.Verdict.By != want.By {
		t.Fatalf("the Step's verdict %+v, Verify's on the same input %+v", *res.Verdict, want)
	}
}

// No verdict where the workflow must run Verify itself: not asked, no
// finish, postconditions that need the screens the todo saw, and a
// verifier that does not answer (the think is kept, the Step succeeds).
func TestStepGivesNoVerdictWhenItCannot(t *testing.T) {
	read := []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel}}
	for _, c := range []struct {
		name    string
		in      StepInput
		answers []any
		calls   int
	}{
		{"not asked", StepInput{}, []any{finishAnswer}, 1},
		{"no finish", StepInput{VerifyFinish: true}, []any{tapAnswer}, 1},
		{"a read", StepInput{VerifyFinish: true, Expect: read}, []any{finishAnswer}, 1},
		{"verifier down", StepInput{VerifyFinish: true}, []any{finishAnswer, &llm.Error{Kind: llm.Retryable, Msg: "503"}}, 2},
		{"verifier refused", StepInput{VerifyFinish: true}, []any{finishAnswer, errors.New("connection refused")}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _, m := newActivities(t, c.answers...)
			in := c.in
			in.Serial, in.Task, in.UITree, in.Think = "fake-1", "show the Wi-Fi row", true, true
			res, err := a.Step(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != nil || res.Think == nil || res.Think.Response == nil || len(m.reqs) != c.calls {
				t.Fatalf("verdict = %+v, think = %+v after %d model calls, want no verdict and the think after %d", res.Verdict, res.Think, len(m.reqs), c.calls)
			}
		})
	}
}

// stepWithin runs a Step as a workflow schedules it, with that
// start-to-close timeout.
func stepWithin(ctx workflow.Context, timeout time.Duration, in StepInput) (StepResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: timeout})
	var res StepResult
	err := workflow.ExecuteActivity(ctx, NameStep, in).Get(ctx, &res)
	return res, err
}

// A Step with less time left than it keeps for returning its think does
// not start the verification: the workflow runs Verify instead.
func TestStepNearItsDeadlineLeavesTheFinishToVerify(t *testing.T) {
	for _, c := range []struct {
		timeout time.Duration
		verdict bool
	}{{10 * time.Second, false}, {5 * time.Minute, true}} {
		a, _, m := newActivities(t, finishAnswer, `{"status":"done","evidence":"the screen shows \"Wi-Fi\""}`)
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.RegisterActivityWithOptions(a.Step, activity.RegisterOptions{Name: NameStep})
		env.RegisterWorkflow(stepWithin)
		env.ExecuteWorkflow(stepWithin, c.timeout, StepInput{Serial: "fake-1", Task: "show the Wi-Fi row", UITree: true, Think: true, VerifyFinish: true})
		var res StepResult
		if err := env.GetWorkflowResult(&res); err != nil {
			t.Fatal(err)
		}
		if (res.Verdict != nil) != c.verdict || res.Think == nil {
			t.Fatalf("%v start-to-close: verdict = %+v after %d model calls, want a verdict: %v", c.timeout, res.Verdict, len(m.reqs), c.verdict)
		}
	}
}

// slowNotes is a Notes list whose swipes take a while and end with the
// context, as a phone's adb commands do.
type slowNotes struct{ *notesPhone }

func (p slowNotes) Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(40 * time.Millisecond):
	}
	return p.notesPhone.Swipe(ctx, x1, y1, x2, y2, d)
}

func (p slowNotes) UITree(ctx context.Context) ([]uitree.Element, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.notesPhone.UITree(ctx)
}

type slowNotesPool struct{ p slowNotes }

func (f slowNotesPool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f slowNotesPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

// A probe for an unmet postcondition cut off by the deadline (the Step's
// verification giving up in time for its think) has looked at part of the
// list only: the verification gives no verdict, never a failed one, so the
// todo verifies the finish itself or asks; a failed todo is run again.
func TestAProbeCutOffByTheDeadlineGivesNoVerdict(t *testing.T) {
	a, np := newNotes(t, 40)
	p := slowNotes{np}
	a.Devices = slowNotesPool{p}
	obs, err := a.Observe(context.Background(), ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	in := VerifyInput{Serial: "fake-1", Task: "Create a note titled n38", Message: "saved n38", Screen: obs,
		Expect: []postcond.Check{{Kind: postcond.ElementExists, Text: "n38"}}}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	v, err := a.Verify(ctx, in)
	if err == nil {
		t.Fatalf("a cut-off probe gave the verdict %s (%s), want none", v.Status, v.Evidence)
	}
	if !strings.Contains(err.Error(), "not known") {
		t.Errorf("error %q does not say the check is unknown", err)
	}
	// With time for the whole list, the note below the screen is found.
	v, err = a.Verify(context.Background(), in)
	if err != nil || v.Status != verify.Done {
		t.Fatalf("the whole probe: %+v, %v", v, err)
	}
}
