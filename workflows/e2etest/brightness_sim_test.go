package e2etest

import (
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/workflows"
)

// A value at either end of the brightness stepper, five taps away, is
// reached tap by tap with no stuck correction: each tap changes the value
// the screen shows, even where the screen's picture hash cannot see it
// (docs/design.md §2 Guards). A value between the stepper's steps is never
// reported done at the value the phone took instead.
func TestBrightnessStepperEndsAndBetweenStepsOnSimulator(t *testing.T) {
	for _, tc := range []struct {
		goal string
		done bool
		want int // the phone's brightness after a goal that ends done
	}{
		{"Set brightness to 0%", true, 0},
		{"Set brightness to 100%", true, 100},
		{"Set brightness to 35%", false, 0},
	} {
		t.Run(tc.goal, func(t *testing.T) {
			env, phone, serial, _ := simEnv(t)
			corrections := 0
			env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, _ error) {
				if info.ActivityType.Name == activities.NameCorrect {
					corrections++
				}
			})
			env.ExecuteWorkflow(workflows.GoalWorkflow, workflows.GoalInput{Goal: tc.goal, Device: serial,
				Options: workflows.GoalOptions{AutoApprove: true}})
			var r workflows.GoalResult
			err := env.GetWorkflowResult(&r)
			if err != nil && tc.done {
				t.Fatal(err)
			}
			got := phone.State().Brightness
			t.Logf("%s: %q in %d steps, brightness %d%%, %d corrections, error %v", tc.goal, r.Status, r.Steps, got, corrections, err)
			switch {
			case tc.done && (r.Status != workflows.GoalDone || got != tc.want):
				t.Fatalf("%s ended %s with the phone at %d%%: %s", tc.goal, r.Status, got, r.Reason)
			case tc.done && corrections > 0:
				t.Fatalf("%s: %d stuck corrections while every tap changed the value", tc.goal, corrections)
			case !tc.done && (err == nil || r.Status == workflows.GoalDone):
				t.Fatalf("%s ended done with the phone at %d%%", tc.goal, got)
			}
		})
	}
}
