package drill

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestWriteConfigReadsBack checks the worker's config file carries what
// the stack set, so the child worker finds the server, adb and models.
func TestWriteConfigReadsBack(t *testing.T) {
	cfg := config.Default()
	cfg.Temporal.Address = "127.0.0.1:40001"
	cfg.ADB.Address = "127.0.0.1:40002"
	cfg.ADB.Allow = []string{"127.0.0.1:40003", "127.0.0.1:40005"}
	cfg.Planner.BaseURL = "http://127.0.0.1:40004/v1"
	cfg.Executor.BaseURL = "http://127.0.0.1:40004/v1"
	cfg.DataDir = t.TempDir()
	cfg.PromptMemoryPath = filepath.Join(cfg.DataDir, "pm \"quoted\".json")
	cfg.Metrics.Address = ""
	cfg.RoutinesStore = "file:///shared/routines"
	path := filepath.Join(t.TempDir(), "worker.yaml")
	if err := WriteConfig(path, cfg); err != nil {
		t.Fatal(err)
	}
	got, _, err := config.Load(config.LoadOptions{File: path, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	if got.Temporal.Address != cfg.Temporal.Address || got.ADB.Address != cfg.ADB.Address ||
		!slices.Equal(got.ADB.Allow, cfg.ADB.Allow) || got.Planner.BaseURL != cfg.Planner.BaseURL ||
		got.Executor.BaseURL != cfg.Executor.BaseURL || got.DataDir != cfg.DataDir ||
		got.PromptMemoryPath != cfg.PromptMemoryPath || got.Metrics.Address != "" || got.RoutinesStore != cfg.RoutinesStore {
		t.Errorf("read back %+v\nwant the values of %+v", got, cfg)
	}
	// Unset keys stay out of the file: the deploy drill gives it to the
	// previous release's worker, whose config refuses keys it does not know.
	cfg.RoutinesStore = ""
	if err := WriteConfig(path, cfg); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || strings.Contains(string(data), "routines_store") {
		t.Errorf("a config without a routine store still names the key (%v):\n%s", err, data)
	}
}

func TestCountFailures(t *testing.T) {
	payload := func(s string) *commonpb.Payloads {
		return &commonpb.Payloads{Payloads: []*commonpb.Payload{{Data: []byte(s)}}}
	}
	evs := []*historypb.HistoryEvent{
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, Attributes: &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{
			ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{Attempt: 3}}},
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, Attributes: &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{
			ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{Attempt: 1}}},
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED},
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
			ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{Result: payload(`{"think":{"parse_error":"no action found"}}`)}}},
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
			ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{Result: payload(`{"invalid":"the plan is empty"}`)}}},
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
			ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{Result: payload(`{"status":"done"}`)}}},
		// A verdict whose second call made up for a rejected first answer,
		// and one rejected twice.
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
			ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{Result: payload(`{"status":"done","by":"model","rejected":1}`)}}},
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
			ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{Result: payload(`{"status":"failed","invalid":"no status","rejected":2}`)}}},
	}
	got := CountFailures(evs)
	want := Failures{RetriedAttempts: 2, FailedActivities: 1, CountedRejections: 5}
	if got != want {
		t.Errorf("CountFailures = %+v, want %+v", got, want)
	}
}

func TestSendTaps(t *testing.T) {
	ev := func(seq int, kind string, args ...string) phonesim.InputEvent {
		return phonesim.InputEvent{Seq: seq, Kind: kind, Args: args, App: "Messages", Page: "conversation"}
	}
	st := phonesim.State{InputLog: []phonesim.InputEvent{
		ev(1, "ime_text", "hi"), ev(2, "tap", "949", "2119"), ev(3, "tap", "10", "10"), ev(4, "tap", "949", "2119"),
	}}
	msg := phonesim.SentMessage{To: "Alice Chen", Text: "hi", Seq: 2}
	if n := SendTaps(st, msg); n != 2 {
		t.Errorf("SendTaps = %d, want 2 (the Send tap and its repeat)", n)
	}
	st.InputLog = append(st.InputLog, ev(5, "ime_text", "again"), ev(6, "tap", "949", "2119"))
	if n := SendTaps(st, msg); n != 1 {
		t.Errorf("SendTaps after a new text entry = %d, want 1 (only the tap after the last text counts)", n)
	}
	if n := SendTaps(st, phonesim.SentMessage{Seq: 99}); n != 0 {
		t.Errorf("SendTaps for a message no tap sent = %d, want 0", n)
	}
}

func TestGoalWorkflowIDs(t *testing.T) {
	res := workflows.GoalResult{Todos: []workflows.TodoState{{Index: 1, Attempts: 1}, {Index: 2, Attempts: 2}, {Index: 3}}}
	got := GoalWorkflowIDs("goal-x", res)
	want := []string{"goal-x", "goal-x/todo-1", "goal-x/todo-2", "goal-x/todo-2-r1", "goal-x/todo-3"}
	if !slices.Equal(got, want) {
		t.Errorf("GoalWorkflowIDs = %q, want %q", got, want)
	}
}
