package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"
)

// ChangeTodoMarkersOnce: a todo run records one version marker, this one,
// at its start, and it stands for every change in todoMarkersOnce at the
// version a new run takes (docs/design.md §16). Before it, each of those
// changes recorded its own marker, with the SDK's upsert of the
// TemporalChangeVersion search attribute, the first time the run reached
// it: 18 events of a 3-step todo's 41. A run that recorded no marker for
// it asks each change as before, so older histories replay unchanged.
const ChangeTodoMarkersOnce = "todo-markers-once"

// todoMarkersOnce is what ChangeTodoMarkersOnce stands for at version 1:
// the change IDs a todo reaches, each at the version every new run took
// when it was added. These are frozen: a later change to any of them
// takes a new change ID (getVersion refuses a new run whose code asks more
// of one).
var todoMarkersOnce = map[string]workflow.Version{
	ChangeSignalArrivalOrder:  1,
	ChangeTodoStepNotice:      1,
	changeModelOutageWait:     1,
	ChangeModelHeartbeat:      1,
	ChangeRoutineReplay:       1,
	changeActionJournal:       1,
	ChangeActionIDPerRun:      1,
	ChangeRevokeBlockedHolder: 1,
	ChangeRepeatThatMovesOn:   1,
	ChangePlannerCorrection:   1,
	ChangeVerifyOutageWait:    1,
	ChangeVerifyFinish:        1,
	ChangePostconditions:      1,
	ChangeVerifyHeartbeat:     1,
	ChangeVerifyAtStepCap:     1,
	ChangeRefusedCommitAsks:   1,
	ChangeLockedPhoneAsks:     1,
	ChangeDurableWait:         1,
	ChangeReleaseForPerson:    1,
	ChangeAnswerDeadline:      1,
	ChangeTodoGuidance:        1,
	changeCloseCanceled:       1,
}

// ChangeVerifyInStep: the Step whose think decides finish verifies it
// (StepInput.VerifyFinish) and the todo takes that verdict instead of
// running Verify on the same input (docs/design.md §9). It has no marker
// of its own: only runs that recorded ChangeTodoMarkersOnce at version 2
// take it, and a run that did not never asks for it, so every history
// from before it replays as it ran.
const ChangeVerifyInStep = "verify-in-step"

// ChangeKeepApplied: a Step that fails after its action reached the phone
// hands the action's result back with its error (StepInput.KeepApplied,
// activities.ErrTypeActionApplied), and the todo records the action (a
// commit made, its last action) before it fails, or, when the error alone
// would have been retried, runs the rest of the step again without the
// action (docs/design.md §4). Before it, such a step's result was dropped:
// the todo failed with no record of its commit, and the todo run after it
// sent the message again. No marker of its own: only runs that recorded
// ChangeTodoMarkersOnce at version 3 take it.
const ChangeKeepApplied = "keep-applied"

// ChangeReobserveAfterWait: a finish whose screen is from before a wait in
// which a person could use the phone (a pause, a question) is verified on
// the phone observed again (VerifyInput.Reobserve), not on that screen
// (docs/design.md §9). Like ChangeVerifyInStep it has no marker of its
// own: it is ChangeTodoMarkersOnce version 3, so a run that recorded an
// earlier version verifies as it did.
const ChangeReobserveAfterWait = "reobserve-after-wait"

// todoMarkersOnceAdded are the changes each later version of
// ChangeTodoMarkersOnce stands for besides those of the version before:
// a new change a todo reaches gets the next version here, frozen as the
// first ones are.
var todoMarkersOnceAdded = []map[string]workflow.Version{
	2: {ChangeVerifyInStep: 1},
	3: {ChangeKeepApplied: 1, ChangeReobserveAfterWait: 1},
	4: {ChangeAskPlanner: 1, ChangePlannerReview: 1},
	5: {ChangeAnsweredQuestions: 1},
}

// todoMarkersOnceLatest is the version of ChangeTodoMarkersOnce a new run
// records.
var todoMarkersOnceLatest = workflow.Version(len(todoMarkersOnceAdded) - 1)

// todoMarkersOnceAt returns what version v of ChangeTodoMarkersOnce
// stands for.
func todoMarkersOnceAt(v workflow.Version) map[string]workflow.Version {
	if v < 1 {
		return nil
	}
	m := make(map[string]workflow.Version, len(todoMarkersOnce)+len(todoMarkersOnceAdded))
	for id, cv := range todoMarkersOnce {
		m[id] = cv
	}
	for i := workflow.Version(2); i <= v && int(i) < len(todoMarkersOnceAdded); i++ {
		for id, cv := range todoMarkersOnceAdded[i] {
			m[id] = cv
		}
	}
	return m
}

// TodoMarkersOnceImplies returns the version a run that recorded
// ChangeTodoMarkersOnce at version marker took for changeID, and whether
// the marker stands for it; for tools that read a todo's history.
func TodoMarkersOnceImplies(marker workflow.Version, changeID string) (workflow.Version, bool) {
	v, ok := todoMarkersOnceAt(marker)[changeID]
	return v, ok
}

type markersOnceKey struct{}

// withTodoMarkersOnce decides, first thing in a todo run, whether the run
// records one marker for the changes of todoMarkersOnce, and returns the
// context that carries the decision to every getVersion of the run. A
// worker without the signal-order interceptor takes the default version:
// its runs cannot take signal-arrival-order, which the marker stands for.
func withTodoMarkersOnce(ctx workflow.Context) workflow.Context {
	maxV := workflow.DefaultVersion
	if log, _ := ctx.Value(arrivalsKey{}).(*arrivals); log != nil {
		maxV = todoMarkersOnceLatest
	}
	v := workflow.GetVersion(ctx, ChangeTodoMarkersOnce, workflow.DefaultVersion, maxV)
	if v < 1 {
		return ctx
	}
	return workflow.WithValue(ctx, markersOnceKey{}, todoMarkersOnceAt(v))
}

// markersOnceGive returns the version the run's ChangeTodoMarkersOnce
// marker stands for of changeID, DefaultVersion when it stands for none:
// for the changes that have no marker of their own (ChangeVerifyInStep,
// ChangeKeepApplied).
func markersOnceGive(ctx workflow.Context, changeID string) workflow.Version {
	once, _ := ctx.Value(markersOnceKey{}).(map[string]workflow.Version)
	if v, ok := once[changeID]; ok {
		return v
	}
	return workflow.DefaultVersion
}

// getVersion is workflow.GetVersion for this package's workflows: in a
// todo run that recorded ChangeTodoMarkersOnce, a change that marker
// stands for takes its frozen version and records nothing; everything else
// asks the SDK.
func getVersion(ctx workflow.Context, changeID string, minSupported, maxSupported workflow.Version) workflow.Version {
	if once, _ := ctx.Value(markersOnceKey{}).(map[string]workflow.Version); once != nil {
		if v, ok := once[changeID]; ok {
			if v < minSupported || v > maxSupported || (v < maxSupported && !workflow.IsReplaying(ctx)) {
				// Code that asks more of a frozen change than the marker
				// gives: the change needed a new change ID.
				panic(fmt.Sprintf("change %q is frozen at version %d by %q but the code supports %d to %d: give the later change its own change ID (docs/design.md §16)",
					changeID, v, ChangeTodoMarkersOnce, minSupported, maxSupported))
			}
			return v
		}
	}
	return workflow.GetVersion(ctx, changeID, minSupported, maxSupported)
}
