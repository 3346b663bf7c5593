package routine

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestMergeStepsKeepsAPopUpStepOptional(t *testing.T) {
	st := func(screen string, name string) Step {
		return Step{Screen: screen, Action: autoglm.Action{Name: name}}
	}
	launch, open, send, finish := st("home", autoglm.ActionLaunch), st("list", autoglm.ActionTap), st("chat", autoglm.ActionTap), st("sent", autoglm.ActionFinish)
	dismiss := st("popup", autoglm.ActionTap)
	routine := []Step{launch, open, send, finish}

	// A run after a pop-up: the routine's steps with one in between.
	merged, changed := MergeSteps(routine, []Step{launch, dismiss, open, send, finish})
	if !changed || len(merged) != 5 || !merged[1].Optional || merged[0].Optional || merged[2].Optional {
		t.Fatalf("after a pop-up: changed %t, %+v", changed, merged)
	}
	// The next clean run skipped it: the routine stays as it is.
	again, changed := MergeSteps(merged, routine)
	if changed || len(again) != 5 || !again[1].Optional {
		t.Fatalf("clean run after it: changed %t, %+v", changed, again)
	}
	// The same run again: unchanged.
	if _, changed := MergeSteps(merged, []Step{launch, dismiss, open, send, finish}); changed {
		t.Errorf("the pop-up run again changed the routine")
	}
	// A run that left out a required step, or took other steps,
	// replaces the routine.
	if got, changed := MergeSteps(merged, []Step{launch, send, finish}); !changed || len(got) != 3 || got[1].Optional {
		t.Errorf("a run without a required step: changed %t, %+v", changed, got)
	}
	if got, changed := MergeSteps(routine, []Step{launch, st("other", autoglm.ActionTap), finish}); !changed || len(got) != 3 || got[1].Optional {
		t.Errorf("another path: changed %t, %+v", changed, got)
	}
	// Steps after the routine's finish are no optional insert.
	if got, _ := MergeSteps(routine, []Step{launch, open, send, finish, dismiss}); len(got) != 5 || got[4].Optional {
		t.Errorf("a step after the end: %+v", got)
	}
	// A new routine is the run.
	if got, changed := MergeSteps(nil, routine); !changed || len(got) != 4 {
		t.Errorf("first run: changed %t, %+v", changed, got)
	}
	// Plan carries the mark.
	plan := Plan(Routine{ID: "r-1", Steps: merged}, Task{})
	if !plan[1].Optional || plan[2].Optional {
		t.Errorf("plan lost the optional mark: %+v", plan)
	}
}
