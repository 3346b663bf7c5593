package workflows

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestTodoRunsOnSharedQueueWithPhoneBoundActivitiesOnThePhone(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	var todoQueue string
	env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
		todoQueue = info.TaskQueueName
	})
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if todoQueue == "" || todoQueue == DeviceTaskQueue("emu-1") {
		t.Fatalf("todo ran on %q, want the goal's queue", todoQueue)
	}
	want := DeviceTaskQueue("emu-1")
	for _, q := range f.queues {
		if strings.TrimPrefix(q, "verify:") != want {
			t.Fatalf("phone-bound activity ran on %q, want %q (all: %v)", q, want, f.queues)
		}
	}
	if !slices.Contains(f.queues, "verify:"+want) {
		t.Fatalf("Verify did not run on the phone's queue: %v", f.queues)
	}
}

func TestGoalSaysNoWorkerServesPhoneAndGoesOnWhenOneComesBack(t *testing.T) {
	f := &fakeWorld{hostDown: -1, scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	var during Status
	env.RegisterDelayedCallback(func() {
		during = status(t, env)
		f.mu.Lock()
		f.hostDown = 0
		f.mu.Unlock()
	}, 30*time.Second)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone || r.Todos[0].Status != TodoDone {
		t.Fatalf("result = %+v", r)
	}
	if !strings.HasPrefix(during.WaitingFor, "no worker serves phone emu-1 since ") || during.PendingQuestion != "" {
		t.Fatalf("status while no worker served the phone = %+v", during)
	}
	if after := status(t, env); after.WaitingFor != "" {
		t.Fatalf("waiting_for after a worker came back = %q", after.WaitingFor)
	}
	// The unserved tries do not count: think, act, think, replan.
	if r.Steps != 4 {
		t.Fatalf("steps = %d, want 4", r.Steps)
	}
}

func TestGoalAsksUserWhenNoWorkerServesPhonePastDeadline(t *testing.T) {
	asked := askedPastDeviceWaitDeadline(t, func(f *fakeWorld, down int) { f.hostDown = down }, "started it")
	if !strings.Contains(asked.PendingQuestion, "No worker has served the phone emu-1 for") || asked.Phase != GoalWaitingUser {
		t.Fatalf("status past the deadline = %+v, want a question asking to start the phone's worker", asked)
	}
}

func TestVerifyWaitsForThePhonesHost(t *testing.T) {
	// The host is gone when the finish is verified, for two tries.
	f := &fakeWorld{verifyHostDown: 2, scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone || !r.Todos[0].Verified || len(f.verifies) != 1 {
		t.Fatalf("result = %+v after %d verifications, want done and verified once the host came back", r, len(f.verifies))
	}
}

// A Verify on the phone's queue has the phone-bound heartbeat timeout, as
// a Step has: a Verify task no worker ran (handed by a starved server to a
// poll that had given up) or whose worker died is tried again within
// seconds, not after the whole 5-minute start-to-close timeout that held a
// read's todo for ten minutes in the full soak.
func TestVerifyOnThePhonesQueueHasAHeartbeatTimeout(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	var s testsuite.WorkflowTestSuite
	rec := &activityOptionsRecorder{of: activities.NameVerify}
	env := newTestEnvironment(&s, worker.Options{Interceptors: append(Interceptors(), rec)})
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: testGoalID})
	f.register(env)
	saved := DeviceLease
	DeviceLease = nil
	t.Cleanup(func() { DeviceLease = saved })
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone || len(rec.seen) == 0 {
		t.Fatalf("result = %+v, Verify scheduled %d times", r, len(rec.seen))
	}
	for _, o := range rec.seen {
		if o.HeartbeatTimeout != deviceHeartbeatTimeout || o.TaskQueue != DeviceTaskQueue("emu-1") {
			t.Fatalf("Verify scheduled on %q with heartbeat timeout %s, want the phone's queue and %s", o.TaskQueue, o.HeartbeatTimeout, deviceHeartbeatTimeout)
		}
	}
}

// activityOptionsRecorder records the options each activity named of is
// scheduled with.
type activityOptionsRecorder struct {
	interceptor.WorkerInterceptorBase
	of   string
	seen []workflow.ActivityOptions
}

func (r *activityOptionsRecorder) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &recorderInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, r: r}
}

type recorderInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	r *activityOptionsRecorder
}

func (i *recorderInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return i.Next.Init(&recorderOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, r: i.r})
}

type recorderOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	r *activityOptionsRecorder
}

func (o *recorderOutbound) ExecuteActivity(ctx workflow.Context, activityType string, args ...any) workflow.Future {
	if activityType == o.r.of {
		o.r.seen = append(o.r.seen, workflow.GetActivityOptions(ctx))
	}
	return o.Next.ExecuteActivity(ctx, activityType, args...)
}
