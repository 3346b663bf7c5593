package activities

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/routine"
)

// Names of the routine activities (docs/design.md §8). Both run as local
// activities of the phone's todo, on the host whose data directory holds
// the routines.
const (
	NameFindRoutine   = "FindRoutine"
	NameRecordRoutine = "RecordRoutine"
)

// FindRoutineInput is the input of FindRoutine.
type FindRoutineInput struct {
	Serial string `json:"serial"`
	Task   string `json:"task"`
}

// FindRoutineResult is the routine a todo may replay, made concrete for its
// parameters, and the key the todo records its outcome under. Steps is
// empty when there is no routine to replay; Note then says why, when there
// is something to say (one recorded on another phone).
type FindRoutineResult struct {
	Key   routine.Key          `json:"key"`
	Task  routine.Task         `json:"task"`
	ID    string               `json:"id,omitempty"`
	Steps []routine.ReplayStep `json:"steps,omitempty"`
	Note  string               `json:"note,omitempty"`
	// Successes and Runs are the routine's counts when it was found.
	Successes int `json:"successes,omitempty"`
	Runs      int `json:"runs,omitempty"`
}

// FindRoutine looks up the routine for a todo on a phone: the one whose
// template the todo fills, among those learned on the app in front now and
// the phone's model and resolution (docs/design.md §8).
func (a *Activities) FindRoutine(ctx context.Context, in FindRoutineInput) (FindRoutineResult, error) {
	var out FindRoutineResult
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return out, err
	}
	if out.Key.Width, out.Key.Height, err = d.ScreenSize(ctx); err != nil {
		return out, deviceError("screen size", err)
	}
	if app, err := d.CurrentApp(ctx); err == nil {
		out.Key.App = app.Package
	}
	out.Key.Model = a.phoneModel(ctx, in.Serial)
	if a.Routines == nil {
		return out, nil
	}
	m, ok, note, err := a.Routines.Match(in.Task, out.Key)
	if err != nil && !ok {
		// An unreadable store costs the replay, not the todo.
		a.logger(ctx).Warn("routines unreadable; the executor model runs the todo", "error", err)
		out.Note = "routines unreadable: " + err.Error()
		return out, nil
	}
	if !ok {
		out.Note = note
		return out, nil
	}
	out.Key, out.Task = m.Routine.Key, m.Task
	out.ID, out.Successes, out.Runs = m.Routine.ID, m.Routine.Successes, m.Routine.Runs
	out.Steps = routine.Plan(m.Routine, m.Task)
	return out, nil
}

// phoneModel is the phone's model as its ADB server reports it.
func (a *Activities) phoneModel(ctx context.Context, serial string) string {
	infos, err := a.Devices.List(ctx)
	if err != nil {
		a.logger(ctx).Warn("phone model unknown", "serial", serial, "error", err)
		return ""
	}
	for _, i := range infos {
		if i.Serial == serial {
			return i.Model
		}
	}
	return ""
}

// TraceStep is one decision of a todo as the workflow keeps it for
// recording: the screen it was made on (references only) and the action.
type TraceStep struct {
	Screen Observation    `json:"screen"`
	Action autoglm.Action `json:"action"`
}

// RecordRoutineInput is the input of RecordRoutine.
type RecordRoutineInput struct {
	Key     routine.Key  `json:"key"`
	Task    routine.Task `json:"task"`
	Example string       `json:"example"`
	Trace   []TraceStep  `json:"trace,omitempty"`
	Success bool         `json:"success"`
	// Replayed counts the steps the todo replayed from the key's routine.
	Replayed int    `json:"replayed,omitempty"`
	Why      string `json:"why,omitempty"`
}

// RecordRoutineResult says what happened to the routine.
type RecordRoutineResult struct {
	ID      string `json:"id,omitempty"`
	Steps   int    `json:"steps,omitempty"`
	Created bool   `json:"created,omitempty"`
	Updated bool   `json:"updated,omitempty"`
	Dropped bool   `json:"dropped,omitempty"`
	Ignored bool   `json:"ignored,omitempty"`
}

// RecordRoutine folds a finished todo into its routine: a verified done
// todo stores its trace (with the screens' fingerprints, read from the UI
// trees in the blob store), a failure after a replay counts against the
// routine (routine.Store.Record).
func (a *Activities) RecordRoutine(ctx context.Context, in RecordRoutineInput) (RecordRoutineResult, error) {
	if a.Routines == nil {
		return RecordRoutineResult{Ignored: true}, nil
	}
	var steps []routine.Step
	if in.Success {
		obs := make([]routine.Observed, 0, len(in.Trace))
		for _, t := range in.Trace {
			o := routine.Observed{AppPackage: t.Screen.AppPackage, ImageHash: t.Screen.Hash,
				Width: t.Screen.Width, Height: t.Screen.Height, Action: t.Action}
			if t.Screen.TreeRef != "" {
				var err error
				if o.Elems, err = a.tree(ctx, t.Screen.TreeRef); err != nil {
					return RecordRoutineResult{}, err
				}
			}
			obs = append(obs, o)
		}
		if in.Key.Template != "" {
			// The todo used a routine: its trace updates that routine,
			// with the parameters the match gave, when the trace still
			// uses every one of them.
			steps = routine.Build(in.Task, obs)
		}
		if in.Key.Template == "" || !routine.UsesAll(steps, len(in.Task.Params)) {
			// A new routine: its parameters are the spans of the todo
			// its trace used. A trace that left a parameter of the
			// routine it followed unused (the switch was on already)
			// did another task, and learns a routine of its own.
			in.Task, steps = routine.Learn(in.Example, obs)
			in.Key.Template = in.Task.Template
		}
	}
	rec, err := a.Routines.Record(routine.Outcome{Key: in.Key, Task: in.Task, Example: in.Example, Steps: steps,
		Success: in.Success, Replayed: in.Replayed, Why: in.Why}, a.now())
	if err != nil {
		return RecordRoutineResult{}, temporal.NewApplicationError(err.Error(), ErrTypeBlob)
	}
	return RecordRoutineResult{ID: rec.Routine.ID, Steps: len(rec.Routine.Steps), Created: rec.Created,
		Updated: rec.Updated, Dropped: rec.Dropped, Ignored: rec.Ignored}, nil
}

// replay decides a step from the todo's routine instead of the executor
// model when the screen matches the recorded one. It returns the reason
// when it cannot (the model then decides).
func (a *Activities) replay(ctx context.Context, in StepInput, s screen) (ThinkResult, string, error) {
	r := in.Replay
	if r.Model != "" {
		return ThinkResult{}, fmt.Sprintf("step %d/%d is the model's: %s", r.Index, r.Total, r.Model), nil
	}
	fp := routine.Fingerprint(s.obs.AppPackage, s.elems, s.obs.Width, s.obs.Height, s.obs.Hash)
	if fp != "" && fp != r.Screen && r.Optional && r.Skip != nil && fp == r.Skip.Screen {
		// The screen an optional step handled (a pop-up) is not there
		// this time; the next required step's is.
		next := *r.Skip
		rin := in
		rin.Replay = &next
		res, why, err := a.replay(ctx, rin, s)
		if why == "" && err == nil {
			res.ReplaySkipped = next.Index - r.Index
		}
		return res, why, err
	}
	if fp == "" || fp != r.Screen {
		app := s.obs.App
		if app == "" {
			app = "an unknown app"
		}
		return ThinkResult{}, fmt.Sprintf("the screen before step %d/%d (%s) differs from the recorded one", r.Index, r.Total, app), nil
	}
	act, why := r.Resolve(s.elems, s.obs.Width, s.obs.Height)
	if why != "" {
		return ThinkResult{}, fmt.Sprintf("step %d/%d: %s", r.Index, r.Total, why), nil
	}
	si, hist, err := a.request(ctx, ThinkInput{Task: in.Task, TaskType: in.TaskType, Screen: s.obs,
		PreviousAction: in.PreviousAction, PreviousResult: in.PreviousResult, Notes: in.Notes, HistoryRef: in.HistoryRef}, s)
	if err != nil {
		return ThinkResult{}, "", err
	}
	res := a.turn(si)
	res.Replayed = true
	thinking := fmt.Sprintf("Replaying step %d/%d of routine %s: the screen matches the recorded one.", r.Index, r.Total, r.Routine)
	res.Response = &autoglm.Response{Thinking: thinking, Action: act}
	res.Action = autoglm.FormatAction(act)
	res.Turn.Assistant = "<think>" + thinking + "</think><answer>" + res.Action + "</answer>"
	res, err = a.keepTurn(ctx, hist, res)
	return res, "", err
}
