package routines

import (
	"context"
	"encoding/json"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/workflows"
)

// Environment of the Temporal CLI test: the binary's path, and whether a
// missing binary fails the test (CI) instead of skipping it.
const (
	temporalCLIEnv        = "PHONEFLOW_TEMPORAL_CLI"
	requireTemporalCLIEnv = "PHONEFLOW_REQUIRE_TEMPORAL_CLI"
	temporalCLIInstall    = "go install github.com/temporalio/cli/cmd/temporal@v1.5.1"
)

// temporalCLI finds the Temporal CLI: PHONEFLOW_TEMPORAL_CLI, then
// `temporal` on PATH, then the Go bin directory `go install` writes to.
func temporalCLI(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(temporalCLIEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v (install it with `%s`, or unset %s)", temporalCLIEnv, p, err, temporalCLIInstall, temporalCLIEnv)
		}
		return p
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p
	}
	dirs := []string{os.Getenv("GOBIN")}
	for _, gp := range filepath.SplitList(build.Default.GOPATH) {
		dirs = append(dirs, filepath.Join(gp, "bin"))
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, "temporal"); fileExists(p) {
			return p
		}
	}
	msg := fmt.Sprintf("the Temporal CLI is not installed: install it with `%s` (or set %s to its path)", temporalCLIInstall, temporalCLIEnv)
	if os.Getenv(requireTemporalCLIEnv) != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// TestGoalsStartedWithTheTemporalCLI starts goals with the real Temporal
// CLI binary, the way a person without phoneflow's client does: `temporal
// workflow start` with a JSON input holding the goal, the phone and a
// duration written "30m", and a schedule made with `temporal schedule
// create` and run with `temporal schedule trigger`. The worker resolves
// every other option (docs/design.md §2): the first goal teaches a
// routine, and the second and the scheduled one end done with the phone
// showing their message, their todos' histories showing the routine's
// steps replayed without the model, and prompt memory fed.
func TestGoalsStartedWithTheTemporalCLI(t *testing.T) {
	cli := temporalCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	s := startStack(ctx, t, t.TempDir(), 0)
	if !s.Config.Routines || !s.Config.PromptMemory {
		t.Fatal("the stack's worker config must have routines and prompt memory on for this test")
	}
	home := t.TempDir()
	temporal := func(args ...string) string {
		t.Helper()
		args = append(args, "--address", s.Config.Temporal.Address, "--namespace", s.Config.Temporal.Namespace,
			"--disable-config-file", "--disable-config-env")
		cmd := exec.CommandContext(ctx, cli, args...)
		// The person's own CLI settings must not reach the test.
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("temporal %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	input := func(goal string) string {
		return goalInput(goal, s.Serials[0])
	}
	start := func(id, goal string) {
		t.Helper()
		s.Phones[0].Reset()
		temporal("workflow", "start", "--type", goalctl.GoalWorkflowName, "--task-queue", workflows.TaskQueue,
			"--workflow-id", id, "--input", input(goal))
	}

	start("tcli-first", `Send Alice a message saying "dinner is at 8"`)
	checkOne(t, s, goalResult(ctx, t, s, "tcli-first"), "tcli-first", "Alice Chen", "dinner is at 8")
	checkHistory(ctx, t, s, "tcli-first")

	start("tcli-second", `Send Bob a message saying "on the train"`)
	second := goalResult(ctx, t, s, "tcli-second")
	checkOne(t, s, second, "tcli-second", "Bob Li", "on the train")
	checkHistory(ctx, t, s, "tcli-second")
	checkReplayed(ctx, t, s, "tcli-second", second)

	// A schedule made and triggered with the CLI alone.
	s.Phones[0].Reset()
	temporal("schedule", "create", "--schedule-id", "tcli-schedule", "--interval", "1h",
		"--workflow-id", "tcli-scheduled", "--type", goalctl.GoalWorkflowName, "--task-queue", workflows.TaskQueue,
		"--input", input(`Send Mom a message saying "home by 6"`))
	defer func() {
		_ = s.Client.ScheduleClient().GetHandle(context.Background(), "tcli-schedule").Delete(context.Background())
	}()
	temporal("schedule", "trigger", "--schedule-id", "tcli-schedule")
	h := s.Client.ScheduleClient().GetHandle(ctx, "tcli-schedule")
	runID := scheduledGoal(ctx, t, h)
	if !strings.HasPrefix(runID, "tcli-scheduled") {
		t.Fatalf("the schedule started %s, want a run of tcli-scheduled", runID)
	}
	third := goalResult(ctx, t, s, runID)
	checkOne(t, s, third, runID, "Mom", "home by 6")
	checkHistory(ctx, t, s, runID)
	checkReplayed(ctx, t, s, runID, third)
}

// checkReplayed reads the goal's todo history: the todo found a learned
// routine, and some of its decisions (the think of a Step or a Think
// activity's result) were replayed from it, not asked of the model, as
// many as the goal's result counts.
func checkReplayed(ctx context.Context, t *testing.T, s *localstack.Stack, id string, r workflows.GoalResult) {
	t.Helper()
	wid := id + "/todo-1"
	types := map[int64]string{} // scheduled event ID → activity type
	found, replayed := false, 0
	it := s.Client.GetWorkflowHistory(ctx, wid, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		var typ string
		var results []string
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			types[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if c := ev.GetActivityTaskCompletedEventAttributes(); c != nil {
			typ = types[c.GetScheduledEventId()]
			for _, p := range c.GetResult().GetPayloads() {
				results = append(results, string(p.GetData()))
			}
		}
		// A local activity's marker holds its type in "data" and its
		// result in "result".
		if m := ev.GetMarkerRecordedEventAttributes(); m != nil && m.GetMarkerName() == "LocalActivity" {
			for _, p := range m.GetDetails()["data"].GetPayloads() {
				var d struct{ ActivityType string }
				if json.Unmarshal(p.GetData(), &d) == nil {
					typ = d.ActivityType
				}
			}
			for _, p := range m.GetDetails()["result"].GetPayloads() {
				results = append(results, string(p.GetData()))
			}
		}
		for _, res := range results {
			switch typ {
			case activities.NameFindRoutine:
				var f activities.FindRoutineResult
				if json.Unmarshal([]byte(res), &f) == nil && f.ID != "" && len(f.Steps) > 0 {
					found = true
				}
			case activities.NameStep:
				var st activities.StepResult
				if json.Unmarshal([]byte(res), &st) == nil && st.Think != nil && st.Think.Replayed {
					replayed++
				}
			case activities.NameThink:
				var th activities.ThinkResult
				if json.Unmarshal([]byte(res), &th) == nil && th.Replayed {
					replayed++
				}
			}
		}
	}
	if !found {
		t.Errorf("%s: no %s result in its history found a learned routine", wid, activities.NameFindRoutine)
	}
	if replayed == 0 || replayed != r.Usage.ReplayedSteps {
		t.Errorf("%s: %d replayed decisions in history, the goal's result counts %d replayed steps", wid, replayed, r.Usage.ReplayedSteps)
	}
}
