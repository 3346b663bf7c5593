package workflows

import (
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// TestPhoneRecordKeepsTheNewest: a record answers what its worker
// published last, and a second publication replaces the first.
func TestPhoneRecordKeepsTheNewest(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(PhoneRecordWorkflow, workflow.RegisterOptions{Name: PhoneRecordWorkflowType})
	first := fleet.Phone{Serial: "a", Labels: []string{"shop"}, Facts: device.Facts{Model: "Pixel 7", Android: "14"}}
	second := first
	second.Labels = []string{"shop", "work"}
	second.Worker = "12@host-b@"
	var seen []fleet.Phone
	query := func() {
		v, err := env.QueryWorkflow(QueryPhoneRecord)
		if err != nil {
			t.Error(err)
			return
		}
		var p fleet.Phone
		if err := v.Get(&p); err != nil {
			t.Error(err)
		}
		seen = append(seen, p)
	}
	env.RegisterDelayedCallback(query, time.Second)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalPhoneRecord, second) }, 2*time.Second)
	env.RegisterDelayedCallback(query, 3*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, 4*time.Second)
	env.ExecuteWorkflow(PhoneRecordWorkflowType, first)
	if len(seen) != 2 || seen[0].Worker != "" || len(seen[0].Labels) != 1 || seen[1].Worker != "12@host-b@" || len(seen[1].Labels) != 2 {
		t.Fatalf("records seen %+v, want the first then the second publication", seen)
	}
}
