package workflows

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// TestReplayRecordedHistories replays every history recorded under
// testdata and its release folders (`temporal workflow show --output json`
// format) against the
// current workflow code, so a change that breaks determinism fails here
// before it breaks running goals. It also checks the recorded histories
// carry no screenshots and no credentials, and reports their size.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := recordedHistories("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no recorded histories in workflows/testdata: record them from a real server (see testdata/README.md)")
	}
	// The replayer runs the workflows as a worker does: with the
	// interceptors every worker registers.
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: Interceptors()})
	if err != nil {
		t.Fatal(err)
	}
	r.RegisterWorkflow(GoalWorkflow)
	r.RegisterWorkflow(TodoWorkflow)
	r.RegisterWorkflow(DeviceLeaseWorkflow)
	r.RegisterWorkflowWithOptions(FanOutWorkflow, workflow.RegisterOptions{Name: FanOutWorkflowName})
	for _, path := range files {
		name, _ := filepath.Rel("testdata", path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, err := client.HistoryFromJSON(bytes.NewReader(data), client.HistoryJSONOptions{})
			if err != nil {
				t.Fatalf("%s is not a history in `temporal workflow show --output json` format: %v", path, err)
			}
			// Goal code derives child IDs from its own ID, which a history
			// does not record: recover it from the first child it started.
			opts := worker.ReplayWorkflowHistoryOptions{}
			if id := recordedGoalID(h); id != "" {
				opts.OriginalExecution = workflow.Execution{ID: id, RunID: "replay"}
			}
			if err := r.ReplayWorkflowHistoryWithOptions(nil, h, opts); err != nil {
				t.Fatalf("replay %s: %v", path, err)
			}
			raw := string(data)
			for _, bad := range []string{
				"iVBORw0KGgo", // base64 of the PNG signature
				"/9j/",        // base64 of a JPEG start
				"data:image/", // an image data URL
				"Bearer ",
			} {
				if strings.Contains(raw, bad) {
					t.Errorf("%s contains %q: images and credentials must stay out of history", path, bad)
				}
			}
			t.Logf("%s: %d events, %d bytes", name, len(h.Events), proto.Size(h))
		})
	}
}

// recordedHistories lists the *.json files under dir and its release
// folders (testdata/v1, testdata/v2, ...), in lexical order.
func recordedHistories(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	return files, err
}

// recordedGoalID returns the goal ID a history ran under, read from the
// "<goal id>/todo-<n>" ID of the first todo child it started, else from
// the goal's request for its phone's lease (a continued run that started
// no todo); "" when it did neither.
func recordedGoalID(h *historypb.History) string {
	for _, ev := range h.Events {
		if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil {
			if i := strings.LastIndex(a.GetWorkflowId(), "/todo-"); i > 0 {
				return a.GetWorkflowId()[:i]
			}
			// A fan-out names its goals FanOutChildID(parent, serial).
			for _, p := range a.GetInput().GetPayloads() {
				var in GoalInput
				if json.Unmarshal(p.GetData(), &in) == nil && in.Device != "" {
					suffix := "-" + fleet.QueueSafe(in.Device)
					if id, ok := strings.CutSuffix(a.GetWorkflowId(), suffix); ok {
						return id
					}
				}
			}
		}
	}
	for _, ev := range h.Events {
		a := ev.GetActivityTaskScheduledEventAttributes()
		if a == nil || a.GetActivityType().GetName() != activities.NameAcquireDevice {
			continue
		}
		for _, p := range a.GetInput().GetPayloads() {
			var in activities.AcquireDeviceInput
			if json.Unmarshal(p.GetData(), &in) == nil && in.Request.GoalID != "" {
				return in.Request.GoalID
			}
		}
	}
	return ""
}

// TestReplayNeedsSignalOrder replays a run that took its signals in arrival
// order (docs/design.md §6) on a replayer built without Interceptors(): the
// run must not go on in name order, its workflow task fails naming the
// change.
func TestReplayNeedsSignalOrder(t *testing.T) {
	path := filepath.Join("testdata", "v6", "signal-order-goal.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := client.HistoryFromJSON(bytes.NewReader(data), client.HistoryJSONOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflow(GoalWorkflow)
	r.RegisterWorkflow(TodoWorkflow)
	r.RegisterWorkflow(DeviceLeaseWorkflow)
	opts := worker.ReplayWorkflowHistoryOptions{OriginalExecution: workflow.Execution{ID: recordedGoalID(h), RunID: "replay"}}
	err = r.ReplayWorkflowHistoryWithOptions(nil, h, opts)
	if err == nil || !strings.Contains(err.Error(), ChangeSignalArrivalOrder) {
		t.Fatalf("replay without the interceptor: %v; want a failure naming %s", err, ChangeSignalArrivalOrder)
	}
	t.Log(err)
}
