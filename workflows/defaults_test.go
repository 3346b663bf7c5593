package workflows

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestDurationsReadAsTextOrNanosecondsAndWriteAsText(t *testing.T) {
	var o GoalOptions
	in := `{"answer_deadline":"30m","release_phone_after":"1h","durable_wait_after":90000000000,"device_wait_deadline":"2m0s","model_outage_wait":null}`
	if err := json.Unmarshal([]byte(in), &o); err != nil {
		t.Fatal(err)
	}
	if o.AnswerDeadline != 30*time.Minute || o.ReleasePhoneAfter != time.Hour || o.DurableWaitAfter != 90*time.Second ||
		o.DeviceWaitDeadline != 2*time.Minute || o.ModelOutageWait != 0 {
		t.Fatalf("read %+v", o)
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"answer_deadline":"30m0s"`, `"release_phone_after":"1h0m0s"`, `"durable_wait_after":"1m30s"`, `"device_wait_deadline":"2m0s"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("written %s, want %s in it", b, want)
		}
	}
	if strings.Contains(string(b), "model_outage_wait") {
		t.Errorf("a zero duration is written: %s", b)
	}

	var td TodoInput
	if err := json.Unmarshal([]byte(`{"task":"x","answer_deadline":"45m","release_phone_after":300000000000}`), &td); err != nil {
		t.Fatal(err)
	}
	if td.Task != "x" || td.AnswerDeadline != 45*time.Minute || td.ReleasePhoneAfter != 5*time.Minute {
		t.Fatalf("todo input read %+v", td)
	}
	if b, _ := json.Marshal(td); !strings.Contains(string(b), `"answer_deadline":"45m0s"`) || !strings.Contains(string(b), `"release_phone_after":"5m0s"`) {
		t.Errorf("todo input written %s", b)
	}

	err = json.Unmarshal([]byte(`{"answer_deadline":"half an hour"}`), &o)
	if err == nil || !strings.Contains(err.Error(), "answer_deadline") || !strings.Contains(err.Error(), `"30m"`) {
		t.Fatalf("bad duration: %v, want the key and how to write it", err)
	}
}

func TestFillFromTakesOnlyWhatTheInputLeftOut(t *testing.T) {
	yes := true
	d := GoalOptions{Routines: true, OptimizePrompt: true, MaxSteps: 40, AnswerDeadline: time.Hour, TimeZone: "Asia/Shanghai",
		KeepPhoneDuringWaits: true, UITree: &yes, DefaultAnswer: "skip it"}
	var o GoalOptions
	if err := json.Unmarshal([]byte(`{"routines":false,"max_steps":7,"ui_tree":false,"answer_deadline":"5m"}`), &o); err != nil {
		t.Fatal(err)
	}
	got := o.fillFrom(d)
	if got.Routines || got.MaxSteps != 7 || got.UITree == nil || *got.UITree || got.AnswerDeadline != 5*time.Minute {
		t.Errorf("options the input gave were overridden: %+v", got)
	}
	if !got.OptimizePrompt || got.TimeZone != "Asia/Shanghai" || !got.KeepPhoneDuringWaits || got.DefaultAnswer != "skip it" {
		t.Errorf("options the input left out were not filled: %+v", got)
	}
}

func TestGoalStartedWithoutPhoneflowTakesTheWorkerDefaults(t *testing.T) {
	defaults := GoalOptions{Routines: true, OptimizePrompt: true, MaxSteps: 12, AnswerDeadline: 30 * time.Minute}
	for _, tc := range []struct {
		name, input        string
		routines, optimize bool
		maxSteps           int
	}{
		// What `temporal workflow start --input '{…}'` sends.
		{"goal and device only", `{"goal":"turn on wifi","device":"emu-1"}`, true, true, 12},
		{"an option turned off by hand", `{"goal":"turn on wifi","device":"emu-1","options":{"routines":false,"answer_deadline":"45m"}}`, false, true, 12},
		// What `starter run` and phoneflow's schedules send.
		{"resolved by the sender", `{"goal":"turn on wifi","device":"emu-1","options":{"resolved":true}}`, false, false, DefaultMaxSteps},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeWorld{
				plans:   []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn on wifi"}, TaskType: "settings"}},
				replans: []activities.PlanDecision{{Status: activities.PlanDone, Response: "Wi-Fi is on"}},
				scripts: map[string][]autoglm.Action{"turn on wifi": {tap(500, 212), finish("wifi on")}},
			}
			env := newEnv(t, f)
			env.RegisterWorkflowWithOptions(NewGoalWorkflow(defaults), workflow.RegisterOptions{Name: "GoalWorkflow", DisableAlreadyRegisteredCheck: true})
			env.ExecuteWorkflow("GoalWorkflow", json.RawMessage(tc.input))
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			var r GoalResult
			if err := env.GetWorkflowResult(&r); err != nil || r.Status != GoalDone {
				t.Fatalf("result %+v, %v", r, err)
			}
			if got := len(f.recorded) > 0; got != tc.routines {
				t.Errorf("routine recorded = %v, want %v", got, tc.routines)
			}
			if got := len(f.optimized) > 0; got != tc.optimize {
				t.Errorf("prompt memory updated = %v, want %v", got, tc.optimize)
			}
			if st := status(t, env); st.MaxSteps != tc.maxSteps {
				t.Errorf("step budget %d, want %d", st.MaxSteps, tc.maxSteps)
			}
		})
	}
}
