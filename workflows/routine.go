package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/routine"
)

// ChangeRoutineReplay: a todo with routines on looks up its learned
// routine when it starts, replays the routine's steps while the screens
// match, and records its outcome in the routine when it ends
// (docs/design.md §8). Runs from before it, and todos with routines off,
// run every step with the model and record nothing.
const ChangeRoutineReplay = "routine-replay"

// RoutineState is a todo's replay of its routine and the trace it records,
// carried across continue-as-new.
type RoutineState struct {
	Found activities.FindRoutineResult `json:"found"`
	// Next is the index in Found.Steps of the next step to replay.
	Next     int `json:"next"`
	Replayed int `json:"replayed,omitempty"`
	// Skipped counts optional steps passed over (the pop-up they
	// handled was not there).
	Skipped int `json:"skipped,omitempty"`
	// Off says why the replay stopped before the routine's end: the model
	// decides from there.
	Off string `json:"off,omitempty"`
	// Trace is every decision that reached the phone, with the screen it
	// was made on, for recording.
	Trace []activities.TraceStep `json:"trace,omitempty"`
	// Recorded says what the end of the todo did to the routine.
	Recorded string `json:"recorded,omitempty"`
}

// replaying is the routine step the next think replays, if any.
func (r *RoutineState) replaying() *routine.ReplayStep {
	if r == nil || r.Off != "" || r.Next >= len(r.Found.Steps) {
		return nil
	}
	s := r.Found.Steps[r.Next]
	if s.Optional {
		for _, n := range r.Found.Steps[r.Next+1:] {
			if !n.Optional {
				s.Skip = &n
				break
			}
		}
	}
	return &s
}

func routineActivityOptions(summary string) workflow.LocalActivityOptions {
	return workflow.LocalActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
		Summary:             truncate(summary, 380),
	}
}

// findRoutine looks up the todo's routine on the phone's host. A failed
// lookup costs the replay and the recording, never the todo.
func (t *todoRun) findRoutine(ctx workflow.Context) {
	var found activities.FindRoutineResult
	err := t.onPhoneHost(ctx, routineActivityOptions(fmt.Sprintf("Find a routine for todo %d", t.in.Index)), activities.NameFindRoutine,
		activities.FindRoutineInput{Serial: t.in.Device, Task: t.in.Task}, &found)
	if err != nil {
		workflow.GetLogger(ctx).Warn("routine lookup failed; the model runs the todo", "error", err)
		return
	}
	t.st.Routine = &RoutineState{Found: found}
}

// recordRoutine folds the todo's outcome into its routine: a verified done
// todo records its trace (the finish included); a todo that replayed steps
// and did not end done counts a failure against the routine.
func (t *todoRun) recordRoutine(ctx workflow.Context, res TodoResult) {
	r := t.st.Routine
	if r == nil || res.Status == TodoCancelled {
		return
	}
	success := res.Status == TodoDone && res.Verified
	if !success && r.Replayed == 0 {
		return
	}
	in := activities.RecordRoutineInput{Key: r.Found.Key, Task: r.Found.Task, Example: t.in.Task,
		Success: success, Replayed: r.Replayed, Why: truncate(res.Result, 300)}
	if success {
		in.Trace = append([]activities.TraceStep(nil), r.Trace...)
		if n := t.st.Next; n != nil && n.Name == autoglm.ActionFinish {
			in.Trace = append(in.Trace, activities.TraceStep{Screen: traceScreen(t.st.Screen), Action: *n})
		}
	}
	var out activities.RecordRoutineResult
	if err := t.onPhoneHost(ctx, routineActivityOptions(fmt.Sprintf("Record the routine of todo %d", t.in.Index)), activities.NameRecordRoutine, in, &out); err != nil {
		workflow.GetLogger(ctx).Warn("routine not recorded", "error", err)
		r.Recorded = "not recorded: " + rootMessage(err)
		return
	}
	switch {
	case out.Dropped:
		r.Recorded = fmt.Sprintf("routine %s dropped after repeated failures", out.ID)
	case out.Created:
		r.Recorded = fmt.Sprintf("learned routine %s (%d steps)", out.ID, out.Steps)
	case out.Updated:
		r.Recorded = fmt.Sprintf("routine %s updated (%d steps)", out.ID, out.Steps)
	case success:
		r.Recorded = fmt.Sprintf("routine %s confirmed", out.ID)
	case !out.Ignored:
		r.Recorded = fmt.Sprintf("failure counted against routine %s", out.ID)
	}
}

// traceScreen is what the trace keeps of a screen: the tree for the
// fingerprint and the tap targets, the coarse hash without a tree.
func traceScreen(o activities.Observation) activities.Observation {
	return activities.Observation{TreeRef: o.TreeRef, Hash: o.Hash, AppPackage: o.AppPackage, Width: o.Width, Height: o.Height}
}

// traceAction adds an action that reached the phone to the trace.
func (t *todoRun) traceAction(screen activities.Observation, act autoglm.Action, result string) {
	r := t.st.Routine
	if r == nil || !(result == "ok" || result == activities.ActAlreadyApplied) {
		return
	}
	r.Trace = append(r.Trace, activities.TraceStep{Screen: traceScreen(screen), Action: act})
}

// replayed folds a think's replay outcome into the state: a replayed
// decision moves to the next routine step and counts as replayed; a think
// that asked for a replay and got the model stops the replay.
func (t *todoRun) replayed(asked bool, th *activities.ThinkResult) {
	r := t.st.Routine
	if r == nil || !asked {
		return
	}
	if th.Replayed {
		r.Next += 1 + th.ReplaySkipped
		r.Skipped += th.ReplaySkipped
		r.Replayed++
		t.st.Usage.ReplayedSteps++
		return
	}
	why := th.ReplayMiss
	if why == "" {
		why = "the worker did not replay"
	}
	r.Off = why
}

// routineLine says where the todo's routine stands, for the status query
// and the Web UI details: "replayed step 4/9 of routine r-… \"send {1} …\"".
func (t *todoRun) routineLine() string {
	r := t.st.Routine
	if r == nil {
		return ""
	}
	f := r.Found
	name := fmt.Sprintf("routine %s %q", f.ID, f.Key.Template)
	var parts []string
	switch {
	case f.ID == "" && f.Note != "":
		parts = append(parts, f.Note)
	case f.ID == "":
	case r.Off != "":
		parts = append(parts, fmt.Sprintf("replayed %d/%d steps of %s, then the model: %s", r.Replayed, len(f.Steps), name, r.Off))
	case r.Replayed > 0 && r.Skipped > 0:
		parts = append(parts, fmt.Sprintf("replayed step %d/%d of %s (%d optional skipped)", r.Replayed+r.Skipped, len(f.Steps), name, r.Skipped))
	case r.Replayed > 0:
		parts = append(parts, fmt.Sprintf("replayed step %d/%d of %s", r.Replayed, len(f.Steps), name))
	default:
		parts = append(parts, fmt.Sprintf("replaying %s (%d steps)", name, len(f.Steps)))
	}
	if r.Recorded != "" {
		parts = append(parts, r.Recorded)
	}
	return strings.Join(parts, "; ")
}
