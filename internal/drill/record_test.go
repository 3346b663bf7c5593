//go:build record

package drill_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/workflows"
)

// recordDir is the release folder the recorded histories go to. A release
// records once: files already there are never overwritten (histories of an
// earlier release must stay as that release wrote them).
var recordDir = flag.String("record.dir", filepath.Join("..", "..", "workflows", "testdata", "v1"),
	"folder for the recorded histories (one per release, e.g. workflows/testdata/v2)")

// misreadSend is the todo the recorder's model server misreads
// (modelserver.Config.Misread): its executor types "ok" instead of the
// todo's words.
const misreadSend = `Send Bob Li a message saying "see you at 8"`

// recording is one path through the workflows: start it on the given
// phone, steer it, and return the workflow IDs whose runs to record.
type recording struct {
	name string
	run  func(t *testing.T, r *recorder, phone int) []string
}

// recorder runs recordings on one stack.
type recorder struct {
	s *drill.Stack
}

// labelledHost adds a host with one phone labelled label, starts its
// worker and waits until the fleet lists the phone; stop stops the worker.
func (r *recorder) labelledHost(t *testing.T, label string) (h *stack.Host, stop func()) {
	t.Helper()
	ctx := context.Background()
	h, err := r.s.AddHost(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	h.Config.ADB.Labels = []string{h.Serials[0] + "=" + label}
	stop, err = r.s.StartWorkerWith(ctx, h.Config)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		phones, err := r.s.Goals.Fleet(ctx)
		if err == nil && len(fleet.Selector{Label: label}.Select(phones)) == 1 {
			return h, stop
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("the host's worker never published its %s phone: %v %+v", label, err, phones)
		}
	}
}

// TestRecordHistories runs every workflow path the replay corpus covers
// on the embedded server with the current code, and writes each run's
// history (goal, todos, lease; every continue-as-new run) under
// -record.dir:
//
//	go test -tags record -run TestRecordHistories -timeout 30m ./internal/drill -record.dir ../../workflows/testdata/v2
//
// TestReplayRecordedHistories in ./workflows then replays them all.
func TestRecordHistories(t *testing.T) {
	dir, err := filepath.Abs(*recordDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	recs := recordings()
	// The model server misreads one todo, for planner-review-stop.
	s := drilltest.StartStack(t, drill.Options{Phones: len(recs), Model: modelserver.Config{Misread: []string{misreadSend}}}, variantDescription)
	// A lease whose history limit is tiny, started before any goal asks
	// for the phone, so the corpus holds a lease's continue-as-new.
	leasePhone := indexOf(recs, "continue-as-new")
	if _, err := s.Client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
		ID: workflows.LeaseWorkflowID(s.Serials[leasePhone]), TaskQueue: workflows.TaskQueue,
	}, workflows.DeviceLeaseWorkflow, workflows.LeaseState{Serial: s.Serials[leasePhone], HistoryLimit: 25, CheckInterval: time.Second}); err != nil {
		t.Fatal(err)
	}
	workerGoal = workflows.NewGoalWorkflow(app.GoalDefaults(s.Config, time.Now()))
	// GoalWorkflow runs through breakable, which breaks only the goals a
	// path names (revoked-holder plays a bad deploy with it).
	// The executor's requests pass a proxy that refuses one think of the
	// keep-applied path.
	cfg := s.Config
	cfg.Executor.BaseURL = startThinkRefuser(t, s.Config.Executor.BaseURL).url
	stop, err := s.StartWorkerOptions(context.Background(), cfg, app.WorkerOptions{GoalWorkflow: breakable})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r := &recorder{s: s}
	var mu sync.Mutex
	written := map[string]int{}
	var wg sync.WaitGroup
	for i, rec := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(rec.name, func(t *testing.T) {
				ids := rec.run(t, r, i)
				if t.Failed() {
					return
				}
				ids = append(ids, workflows.LeaseWorkflowID(s.Serials[i]))
				n := r.write(t, dir, rec.name, ids)
				mu.Lock()
				written[rec.name] = n
				mu.Unlock()
			})
		}()
	}
	wg.Wait()
	names := make([]string, 0, len(written))
	for n := range written {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%s: %d histories", n, written[n])
	}
}

func indexOf(recs []recording, name string) int {
	for i, r := range recs {
		if r.name == name {
			return i
		}
	}
	panic("no recording " + name)
}

// write records every run of every ID as <name>-<kind>[-run<n>].json.
func (r *recorder) write(t *testing.T, dir, name string, ids []string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n := 0
	seen, used := map[string]bool{}, map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		runs, err := drill.Runs(ctx, r.s.Client, id)
		if err != nil {
			if strings.HasPrefix(id, workflows.LeaseWorkflowIDPrefix) {
				continue // the lease closed and is gone, or never ran
			}
			t.Errorf("read %s: %v", id, err)
			continue
		}
		kind := kindOf(id)
		for base, k := kind, 2; used[kind]; k++ {
			kind = fmt.Sprintf("%s%d", base, k) // a second goal: goal2, todo-12
		}
		used[kind] = true
		for k, h := range runs {
			file := name + "-" + kind
			if len(runs) > 1 {
				file += fmt.Sprintf("-run%d", k+1)
			}
			if err := writeHistory(filepath.Join(dir, file+".json"), h); err != nil {
				t.Error(err)
				continue
			}
			n++
		}
	}
	return n
}

// kindOf names a workflow in a file name: goal, todo-1, todo-1-r1, lease.
func kindOf(id string) string {
	if strings.HasPrefix(id, workflows.LeaseWorkflowIDPrefix) {
		return "lease"
	}
	if i := strings.LastIndex(id, "/"); i >= 0 {
		return id[i+1:]
	}
	return "goal"
}

func writeHistory(path string, h *historypb.History) error {
	data, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(h)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists: recorded histories are never overwritten; record this release into a new folder with -record.dir", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// start starts a goal with options on phone i.
func (r *recorder) start(t *testing.T, i int, goal string, o workflows.GoalOptions) string {
	t.Helper()
	id, _, err := r.s.Goals.Start(context.Background(), goalctl.StartRequest{Goal: goal, Device: r.s.Serials[i], Options: o})
	if err != nil {
		t.Fatalf("start %q: %v", goal, err)
	}
	return id
}

// finish waits for the goal and returns the IDs of it and its todos.
func (r *recorder) finish(t *testing.T, id string) []string {
	t.Helper()
	res := drilltest.WaitResult(t, r.s, id, 6*time.Minute)
	t.Logf("%s ended %s after %d steps: %s%s", id, res.Status, res.Steps, res.Response, res.Reason)
	return drill.GoalWorkflowIDs(id, res)
}

// until waits for the workflow's status to satisfy ok.
func (r *recorder) until(t *testing.T, id, what string, ok func(workflows.Status) bool) workflows.Status {
	t.Helper()
	st, good := drilltest.WaitStatus(r.s, id, 3*time.Minute, ok)
	if !good {
		t.Fatalf("%s never reached %s; last status %+v", id, what, st)
	}
	return st
}

// untilChecked waits until the goal has run a CheckPhone to its end.
func (r *recorder) untilChecked(t *testing.T, id string) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		evs, err := drill.History(context.Background(), r.s.Client, id)
		if err != nil {
			t.Fatal(err)
		}
		checks := map[int64]bool{}
		for _, ev := range evs {
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameCheckPhone {
				checks[ev.EventId] = true
			}
			if c := ev.GetActivityTaskCompletedEventAttributes(); c != nil && checks[c.GetScheduledEventId()] {
				return
			}
		}
	}
	t.Fatalf("%s ran no phone check", id)
}

// send sends a steering name (as an update unless asSignal) and fails on
// an error.
func (r *recorder) send(t *testing.T, id, name string, arg any, asSignal bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.s.Goals.Send(ctx, id, name, arg, asSignal); err != nil {
		t.Fatalf("%s %s: %v", name, id, err)
	}
}

// signalsOutOfNameOrder counts the workflow tasks of a goal's latest run
// that took plain steering signals in an order other than the fixed name
// order (pause, resume, inject) runs from before arrival order use.
func signalsOutOfNameOrder(t *testing.T, s *drill.Stack, id string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	evs, err := drill.History(ctx, s.Client, id)
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{workflows.SignalPause: 1, workflows.SignalResume: 2, workflows.SignalInject: 3}
	n, last, out := 0, 0, false
	for _, e := range evs {
		if e.GetWorkflowTaskStartedEventAttributes() != nil {
			if out {
				n++
			}
			last, out = 0, false
		}
		if a := e.GetWorkflowExecutionSignaledEventAttributes(); a != nil && rank[a.GetSignalName()] > 0 {
			k := rank[a.GetSignalName()]
			out = out || k < last
			last = k
		}
	}
	return n
}

func midTodo(st workflows.Status) bool { return st.Steps >= 2 }

func asking(st workflows.Status) bool { return st.PendingQuestion != "" }

// broken names the goals whose GoalWorkflow a bad deploy broke: replaying
// them issues a timer first, so their workflow task fails.
var broken sync.Map

// breakable is GoalWorkflow as the recorder's worker runs it: the real
// code, except for goals in broken.
func breakable(ctx workflow.Context, in workflows.GoalInput) (workflows.GoalResult, error) {
	if _, bad := broken.Load(workflow.GetInfo(ctx).WorkflowExecution.ID); bad {
		_ = workflow.NewTimer(ctx, time.Hour)
	}
	return workerGoal(ctx, in)
}

// workerGoal is the recorder's worker's GoalWorkflow, with its config's
// defaults for goals started without phoneflow's client (docs/design.md §2).
var workerGoal = workflows.GoalWorkflow

// recordings are the paths of the corpus, one phone each.
func recordings() []recording {
	return []recording{
		{"plan-replan", func(t *testing.T, r *recorder, i int) []string {
			return r.finish(t, r.start(t, i, `Turn on Bluetooth and then send Alice Chen a message saying "hi"`, workflows.GoalOptions{}))
		}},
		{"verified", func(t *testing.T, r *recorder, i int) []string {
			// One todo verified done by the verifier model, one impossible:
			// the goal ends failed naming what is missing (docs/design.md §9).
			return r.finish(t, r.start(t, i, "Set brightness to 80% and then book a train ticket in the travel app", workflows.GoalOptions{}))
		}},
		{"ask-user-clarify", func(t *testing.T, r *recorder, i int) []string {
			id := r.start(t, i, "Send a message", workflows.GoalOptions{})
			r.until(t, id, "the planner's question", asking)
			r.send(t, id, workflows.SignalClarify, "Alice Chen: see you at 8", false)
			return r.finish(t, id)
		}},
		{"take-over-clarify", func(t *testing.T, r *recorder, i int) []string {
			id := r.start(t, i, "Open the bank app", workflows.GoalOptions{Mode: workflows.ModeSingle})
			r.until(t, id, "the executor's question", asking)
			r.send(t, id, workflows.SignalClarify, "I signed in myself", true)
			return r.finish(t, id)
		}},
		{"planner-asks-person", func(t *testing.T, r *recorder, i int) []string {
			// The executor's hand-over goes to the planner first, which
			// leaves it to the person (docs/design.md#executor-questions).
			id := r.start(t, i, "Open the bank app", workflows.GoalOptions{})
			r.until(t, id, "the executor's question", asking)
			r.send(t, id, workflows.SignalClarify, "I signed in myself", false)
			return r.finish(t, id)
		}},
		{"question-answered", func(t *testing.T, r *recorder, i int) []string {
			// The todo leaves out the words the goal names: the executor
			// asks (Interact), the planner answers from the goal and the
			// person is never asked (docs/design.md#executor-questions).
			return r.finish(t, r.start(t, i, "Tell Alice Chen: on my way", workflows.GoalOptions{Plan: []string{"Send Alice Chen a message"}}))
		}},
		{"question-answered-done", func(t *testing.T, r *recorder, i int) []string {
			// The planner answers from the goal, the todo keeps the
			// answer and its finish is verified with it: the bubble with
			// the answer's words ends the todo and the goal done
			// (docs/design.md#executor-questions).
			return r.finish(t, r.start(t, i, "Tell Alice Chen: on my way", workflows.GoalOptions{Plan: []string{"Send Alice Chen a message"}}))
		}},
		{"question-replanned", func(t *testing.T, r *recorder, i int) []string {
			// The todo names a person not on the phone and no words: the
			// planner stops it for a replan and the next todo runs
			// (docs/design.md#executor-questions).
			return r.finish(t, r.start(t, i, "Message Carol, then turn on Bluetooth",
				workflows.GoalOptions{Plan: []string{"Send a message to Carol", "Turn on Bluetooth"}}))
		}},
		{"planner-review", func(t *testing.T, r *recorder, i int) []string {
			// The planner looks in after every executor turn
			// (docs/design.md#planner-review).
			return r.finish(t, r.start(t, i, "Turn on Wi-Fi", workflows.GoalOptions{Plan: []string{"Turn on Wi-Fi"}, ReviewEvery: 1}))
		}},
		{"planner-review-stop", func(t *testing.T, r *recorder, i int) []string {
			// The executor misreads the todo (misreadSend, misread by the
			// recorder's model server) and types "ok"; the planner, looking
			// in after every turn, stops the todo for a replan before the
			// Send (docs/design.md#planner-review).
			return r.finish(t, r.start(t, i, misreadSend, workflows.GoalOptions{Plan: []string{misreadSend}, ReviewEvery: 1}))
		}},
		{"look-again", func(t *testing.T, r *recorder, i int) []string {
			// Bluetooth turned on, then a message sent: the message's
			// screen does not show Bluetooth, so the goal adds a todo that
			// looks again, changing nothing, before it ends done
			// (docs/design.md §9, A todo that only looks).
			return r.finish(t, r.start(t, i, `Turn on Bluetooth, then send Alice Chen a message saying "on my way"`, workflows.GoalOptions{}))
		}},
		{"look-returns", func(t *testing.T, r *recorder, i int) []string {
			// Bluetooth turned on, then the home screen: the look opens
			// Bluetooth's page and, after its verdict, goes back home
			// (docs/design.md §9, A todo that only looks).
			return r.finish(t, r.start(t, i, "Turn on Bluetooth, then go back to the home screen", workflows.GoalOptions{}))
		}},
		{"look-names-app", func(t *testing.T, r *recorder, i int) []string {
			// A note deleted, then Bluetooth turned on: Settings does not
			// show the notes list, so the goal looks again whether the
			// note is gone from Notes, naming the app and the note, not
			// the todo that deleted it (docs/design.md §9, A todo that
			// only looks). The Delete tap is approved by the goal's option.
			return r.finish(t, r.start(t, i, `Delete the note "Shopping list", then turn on Bluetooth`, workflows.GoalOptions{AutoApprove: true}))
		}},
		{"planner-review-hint", func(t *testing.T, r *recorder, i int) []string {
			// The display shows the old screen for a while after every
			// input, so the executor is stuck and corrected; the planner,
			// looking in every other turn, reads the stuck lesson and gives
			// one hint (docs/design.md#planner-review).
			phone := r.s.Phones[i]
			if err := phone.SetFault(phonesim.Fault{Kind: phonesim.FaultScreenDelay, Duration: 8 * time.Second}); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = phone.SetFault(phonesim.Fault{Kind: phonesim.FaultClear}) }()
			return r.finish(t, r.start(t, i, "Turn on Bluetooth", workflows.GoalOptions{Plan: []string{"Turn on Bluetooth"},
				StuckThreshold: 1, MaxStuckRetries: 1, MaxSteps: 40, ReviewEvery: 2}))
		}},
		{"person-action", func(t *testing.T, r *recorder, i int) []string {
			// A person takes over from the step viewer (docs/design.md
			// §7): the goal asks, the person's taps and key run as
			// PersonAct activities, then the answer resumes the todo.
			id := r.start(t, i, "Open the bank app", workflows.GoalOptions{Mode: workflows.ModeSingle})
			r.until(t, id, "the executor's question", asking)
			r.send(t, id, workflows.UpdatePersonAction, workflows.PersonAction{Kind: activities.PersonTap, X: 540, Y: 700}, false)
			r.send(t, id, workflows.UpdatePersonAction, workflows.PersonAction{Kind: activities.PersonBack}, false)
			r.send(t, id, workflows.SignalClarify, "I signed in myself", false)
			return r.finish(t, id)
		}},
		{"approval", func(t *testing.T, r *recorder, i int) []string {
			// A refusal with a note (sent as a signal), then the same
			// sensitive tap asked again and approved (as an update).
			id := r.start(t, i, "Tap Sign in in the bank app", workflows.GoalOptions{Mode: workflows.ModeSingle})
			r.until(t, id, "an approval", func(st workflows.Status) bool { return st.PendingApproval != nil })
			r.send(t, id, workflows.SignalApprove, workflows.ApproveInput{Approved: false, Note: "not now"}, true)
			r.until(t, id, "a second approval", func(st workflows.Status) bool { return st.PendingApproval != nil })
			r.send(t, id, workflows.SignalApprove, workflows.ApproveInput{Approved: true, Note: "go ahead now"}, false)
			return r.finish(t, id)
		}},
		{"pause-resume", func(t *testing.T, r *recorder, i int) []string {
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			r.send(t, id, workflows.SignalPause, nil, false)
			r.until(t, id+"/todo-1", "paused", func(st workflows.Status) bool { return st.Paused })
			time.Sleep(2 * time.Second)
			r.send(t, id, workflows.SignalResume, nil, true)
			return r.finish(t, id)
		}},
		{"inject", func(t *testing.T, r *recorder, i int) []string {
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			r.send(t, id, workflows.SignalInject, "be brief", false)
			r.send(t, id, workflows.SignalInject, "keep the text as given", true)
			r.send(t, id, workflows.SignalUserInput, "then turn on Wi-Fi", false)
			return r.finish(t, id)
		}},
		{"steering-order", func(t *testing.T, r *recorder, i int) []string {
			// Ordered steering (docs/design.md §6): a burst of signals and
			// updates mid-todo, numbered by the goal and passed to the todo
			// in one queue; then the goal and the todo agree.
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			r.send(t, id, workflows.SignalPause, nil, true)
			r.send(t, id, workflows.SignalInject, "be brief", true)
			r.send(t, id, workflows.SignalInject, "keep the text as given", false)
			st := r.until(t, id, "the burst taken", func(st workflows.Status) bool { return st.SteerSeq >= 3 })
			r.until(t, id+"/todo-1", "the burst applied", func(c workflows.Status) bool { return c.SteerSeq == st.SteerSeq })
			if st.Paused {
				r.send(t, id, workflows.SignalResume, nil, false)
			}
			return r.finish(t, id)
		}},
		{"signal-order", func(t *testing.T, r *recorder, i int) []string {
			// Plain signals of different names in one workflow task
			// (docs/design.md §6): the goal paused mid-todo, then resume,
			// inject and pause sent back to back as signals, taken in the
			// order they arrived, so the goal and its todo end paused (in
			// name order the pause came first, was dropped as the goal
			// was paused, and the goal ended running); again until the
			// history shows a workflow task that took signals out of name
			// order. Then a resume, and the goal ends done.
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			r.send(t, id, workflows.SignalPause, nil, false)
			for try := 1; ; try++ {
				seq := r.until(t, id, "paused", func(st workflows.Status) bool { return st.Paused }).SteerSeq
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				for _, sig := range []struct {
					name string
					arg  any
				}{{workflows.SignalResume, nil}, {workflows.SignalInject, fmt.Sprintf("burst %d: be brief", try)}, {workflows.SignalPause, nil}} {
					if err := r.s.Client.SignalWorkflow(ctx, id, "", sig.name, sig.arg); err != nil {
						t.Fatalf("signal %s: %v", sig.name, err)
					}
				}
				cancel()
				st := r.until(t, id, "the burst taken", func(st workflows.Status) bool { return st.SteerSeq >= seq+3 })
				c := r.until(t, id+"/todo-1", "the burst applied", func(c workflows.Status) bool { return c.SteerSeq == st.SteerSeq })
				if !st.Paused || !c.Paused {
					t.Fatalf("after resume, inject, pause: goal paused=%v, todo paused=%v; the last signal was pause", st.Paused, c.Paused)
				}
				if n := signalsOutOfNameOrder(t, r.s, id); n > 0 {
					t.Logf("%d workflow task(s) took signals out of name order after %d burst(s)", n, try)
					break
				}
				if try == 10 {
					t.Fatal("10 bursts and no workflow task took two of their signals together")
				}
			}
			r.send(t, id, workflows.SignalResume, nil, false)
			return r.finish(t, id)
		}},
		{"routine-replay", func(t *testing.T, r *recorder, i int) []string {
			// Learned routines (docs/design.md §8): the first goal learns
			// the routine, the second replays it for another contact and
			// text, the third falls back to the model where a pop-up
			// covers the app, and updates the routine.
			o := workflows.GoalOptions{Routines: true}
			ids := r.finish(t, r.start(t, i, `Send Alice a message saying "see you at 7"`, o))
			r.s.Phones[i].Reset()
			ids = append(ids, r.finish(t, r.start(t, i, `Send Bob a message saying "running late"`, o))...)
			r.s.Phones[i].Reset()
			if err := r.s.Phones[i].SetFault(phonesim.Fault{Kind: phonesim.FaultPopup}); err != nil {
				t.Fatal(err)
			}
			return append(ids, r.finish(t, r.start(t, i, `Send Mom a message saying "landed"`, o))...)
		}},
		{"pick-phone", func(t *testing.T, r *recorder, i int) []string {
			// A goal started with --on and no device picks its phone in
			// PickPhone before it plans (docs/design.md#phone-fleet).
			on, err := fleet.ParseSelector("serial=" + r.s.Serials[i])
			if err != nil {
				t.Fatal(err)
			}
			id, _, err := r.s.Goals.Start(context.Background(), goalctl.StartRequest{Goal: "Turn on Bluetooth", On: &on})
			if err != nil {
				t.Fatalf("start with --on: %v", err)
			}
			return r.finish(t, id)
		}},
		{"fan-out", func(t *testing.T, r *recorder, i int) []string {
			// A fan-out over one phone (docs/design.md#phone-fleet): it
			// lists its phones in FleetPhones and starts one child goal.
			id, err := r.s.Goals.StartFanOut(context.Background(), "", workflows.FanOutInput{Goal: "Turn on Bluetooth",
				On: fleet.Selector{Serial: r.s.Serials[i]}, Options: workflows.GoalOptions{Plan: []string{"Turn on Bluetooth"}, Mode: workflows.ModeLayered}})
			if err != nil {
				t.Fatalf("start the fan-out: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			st, err := r.s.Goals.FanOutResult(ctx, id)
			if err != nil || len(st.Phones) != 1 || st.Phones[0].Status != workflows.PhoneDone {
				t.Fatalf("fan-out %s: %+v %v", id, st, err)
			}
			return append([]string{id}, r.finish(t, st.Phones[0].GoalID)...)
		}},
		{"fan-out-fails", func(t *testing.T, r *recorder, i int) []string {
			// A fan-out whose one goal fails (its text over its own
			// max_goal_text) closes as Failed, naming the summary, with the
			// status as the failure's details (docs/design.md#phone-fleet).
			id, err := r.s.Goals.StartFanOut(context.Background(), "", workflows.FanOutInput{Goal: "Turn on Bluetooth",
				On: fleet.Selector{Serial: r.s.Serials[i]}, Options: workflows.GoalOptions{MaxGoalText: 5}})
			if err != nil {
				t.Fatalf("start the fan-out: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			st, err := r.s.Goals.FanOutResult(ctx, id)
			if err != nil || st.Phase != workflows.PhoneFailed || len(st.Phones) != 1 || st.Phones[0].Status != workflows.PhoneFailed {
				t.Fatalf("fan-out %s: %+v %v", id, st, err)
			}
			return append([]string{id}, r.finish(t, st.Phones[0].GoalID)...)
		}},
		{"todo-phone", func(t *testing.T, r *recorder, i int) []string {
			// A goal that spans phones (docs/design.md#goals-that-span-phones):
			// its first todo runs on its own phone, its second on a phone of
			// another host labelled spare, which the goal leases for that
			// todo alone (change ID todo-phone).
			h, stopHost := r.labelledHost(t, "spare")
			defer stopHost()
			id := r.start(t, i, "Read the Android version, then turn on Bluetooth on the phone labelled spare", workflows.GoalOptions{})
			ids := r.finish(t, id)
			if !h.Phones[0].State().Toggles.Bluetooth || r.s.Phones[i].State().Toggles.Bluetooth {
				t.Errorf("Bluetooth: spare %v, goal's phone %v; want on the spare only", h.Phones[0].State().Toggles.Bluetooth, r.s.Phones[i].State().Toggles.Bluetooth)
			}
			return append(ids, workflows.LeaseWorkflowID(h.Serials[0]))
		}},
		{"planner-picks", func(t *testing.T, r *recorder, i int) []string {
			// A goal started without a phone (--on planner): it lists the
			// fleet with each phone's facts and state, the planner chooses
			// the phone of another host that the goal names by its label
			// till, and the goal picks that serial (change ID planner-picks,
			// docs/design.md#phone-fleet).
			ctx := context.Background()
			h, stopHost := r.labelledHost(t, "till")
			defer stopHost()
			id, _, err := r.s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Turn on Bluetooth on the phone labelled till", On: &fleet.Selector{Planner: true}})
			if err != nil {
				t.Fatalf("start with --on planner: %v", err)
			}
			ids := r.finish(t, id)
			if !h.Phones[0].State().Toggles.Bluetooth {
				t.Error("Bluetooth is off on the till phone the planner was to choose")
			}
			return append(ids, workflows.LeaseWorkflowID(h.Serials[0]))
		}},
		{"busy-phone-timeout", func(t *testing.T, r *recorder, i int) []string {
			// A goal with device_wait "5s" queues behind a goal that holds
			// the phone while it waits for a person, shows waiting_device,
			// and fails naming the holder once the 5 s are up
			// (docs/design.md §5); then the holder is answered and ends.
			first := r.start(t, i, "Open the bank app", workflows.GoalOptions{Mode: workflows.ModeSingle, ReleasePhoneAfter: time.Hour})
			r.until(t, first, "the question with the phone held", func(st workflows.Status) bool { return st.PendingQuestion != "" })
			second := r.start(t, i, "Turn on Bluetooth", workflows.GoalOptions{DeviceWait: "5s"})
			r.until(t, second, "the bounded wait or its end", func(st workflows.Status) bool {
				return st.Phase == workflows.GoalWaitingDevice || st.Phase == workflows.GoalFailed
			})
			// It never ran a todo: only its own history.
			r.finish(t, second)
			ids := []string{second}
			r.send(t, first, workflows.SignalClarify, "I signed in myself", false)
			return append(ids, r.finish(t, first)...)
		}},
		{"keep-applied", func(t *testing.T, r *recorder, i int) []string {
			// A Step's think refused with a 400 after its action reached
			// the phone (docs/design.md §4): the Step hands the action back
			// with its error, the todo records it before it fails, and the
			// replanner sees it.
			return r.finish(t, r.start(t, i, `Send Bob a message saying "`+refusedThinkText+`"`, workflows.GoalOptions{}))
		}},
		{"durable-wait", func(t *testing.T, r *recorder, i int) []string {
			// Durable waits (docs/design.md §7): a wait todo gives the phone
			// back for its timer and a second goal uses it meanwhile; then an
			// executor's own long Wait is a timer in the todo.
			o := workflows.GoalOptions{DurableWaitAfter: 10 * time.Second}
			first := r.start(t, i, "In 40 seconds, turn on Wi-Fi", o)
			r.until(t, first, "the wait with the phone free", func(st workflows.Status) bool {
				return st.Phase == workflows.GoalWaitingUntil && st.PhoneReleased
			})
			ids := r.finish(t, r.start(t, i, "Turn on Bluetooth", workflows.GoalOptions{}))
			ids = append(ids, r.finish(t, first)...)
			o.Mode = workflows.ModeSingle
			return append(ids, r.finish(t, r.start(t, i, "Wait 40 seconds, then turn on Airplane mode", o))...)
		}},
		{"release-for-person", func(t *testing.T, r *recorder, i int) []string {
			// A question unanswered for ReleasePhoneAfter gives the phone
			// back; a second goal uses it; the answer leases it again.
			first := r.start(t, i, "Open the bank app", workflows.GoalOptions{Mode: workflows.ModeSingle, ReleasePhoneAfter: 5 * time.Second})
			r.until(t, first, "the question with the phone free", func(st workflows.Status) bool {
				return st.PendingQuestion != "" && st.PhoneReleased
			})
			ids := r.finish(t, r.start(t, i, "Turn on Bluetooth", workflows.GoalOptions{}))
			r.send(t, first, workflows.SignalClarify, "I signed in myself", false)
			return append(ids, r.finish(t, first)...)
		}},
		{"device-wait", func(t *testing.T, r *recorder, i int) []string {
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{DeviceWaitDeadline: 3 * time.Second})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			if err := r.s.Phones[i].SetFault(phonesim.Fault{Kind: phonesim.FaultDisconnect, Duration: 30 * time.Second}); err != nil {
				t.Fatal(err)
			}
			// Past the 3 s deadline the user is asked to reconnect; answer
			// once the phone is back.
			st := r.until(t, id, "the reconnect question or the end", func(st workflows.Status) bool {
				return asking(st) || st.Phase == workflows.GoalDone || st.Phase == workflows.GoalFailed
			})
			if asking(st) {
				time.Sleep(30 * time.Second)
				r.send(t, id, workflows.SignalClarify, "reconnected", false)
			} else {
				t.Logf("the phone came back before the question: %+v", st)
			}
			return r.finish(t, id)
		}},
		{"stuck-restart", func(t *testing.T, r *recorder, i int) []string {
			// The display shows the old screen for a while after every
			// input, so no action seems to change it: stuck, corrected,
			// restarted with a fresh context, then replanned.
			phone := r.s.Phones[i]
			if err := phone.SetFault(phonesim.Fault{Kind: phonesim.FaultScreenDelay, Duration: 8 * time.Second}); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = phone.SetFault(phonesim.Fault{Kind: phonesim.FaultClear}) }()
			id := r.start(t, i, "Turn on Bluetooth",
				workflows.GoalOptions{StuckThreshold: 1, MaxStuckRetries: 1, MaxSteps: 40})
			return r.finish(t, id)
		}},
		{"cancel", func(t *testing.T, r *recorder, i int) []string {
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			if err := r.s.Goals.Cancel(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			return r.finish(t, id)
		}},
		{"continue-as-new", func(t *testing.T, r *recorder, i int) []string {
			// The lease of this phone was started with a tiny history limit.
			return r.finish(t, r.start(t, i, `Turn on Wi-Fi and then send Alice Chen a message saying "on my way"`,
				workflows.GoalOptions{HistoryEventLimit: 30}))
		}},
		{"lease-wait", func(t *testing.T, r *recorder, i int) []string {
			goal, _ := drilltest.MessageGoal(i)
			first := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, first+"/todo-1", "two steps", midTodo)
			second := r.start(t, i, "Turn on Airplane mode", workflows.GoalOptions{})
			r.until(t, second, "waiting for the phone", func(st workflows.Status) bool { return st.WaitingFor != "" })
			return append(r.finish(t, first), r.finish(t, second)...)
		}},
		{"lost-host", func(t *testing.T, r *recorder, _ int) []string {
			// The phone is on a host of its own whose worker stops mid-todo:
			// the todo (on the shared queue) finds no worker for the phone's
			// activities, says so, and goes on once the worker is back
			// (docs/design.md §5).
			ctx := context.Background()
			h, err := r.s.AddHost(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			stopHost, err := r.s.StartWorkerWith(ctx, h.Config)
			if err != nil {
				t.Fatal(err)
			}
			goal, _ := drilltest.MessageGoal(99)
			id, _, err := r.s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: h.Serials[0]})
			if err != nil {
				t.Fatal(err)
			}
			r.until(t, id+"/todo-1", "two steps", midTodo)
			stopHost()
			r.until(t, id, "no worker serves the phone", func(st workflows.Status) bool {
				return strings.HasPrefix(st.WaitingFor, "no worker serves phone")
			})
			if stopHost, err = r.s.StartWorkerWith(ctx, h.Config); err != nil {
				t.Fatal(err)
			}
			defer stopHost()
			return append(r.finish(t, id), workflows.LeaseWorkflowID(h.Serials[0]))
		}},
		{"unserved-phone", func(t *testing.T, r *recorder, _ int) []string {
			// The goal starts on a phone whose host's worker is not running
			// yet: it waits for a worker to serve the phone, says so, and
			// goes on once the worker polls (docs/design.md §5, change ID
			// wait-for-unserved-phone).
			ctx := context.Background()
			h, err := r.s.AddHost(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			goal, _ := drilltest.MessageGoal(98)
			id, _, err := r.s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: h.Serials[0],
				Options: workflows.GoalOptions{DeviceWaitDeadline: 10 * time.Minute}})
			if err != nil {
				t.Fatal(err)
			}
			r.until(t, id, "waiting for a worker to serve the phone", func(st workflows.Status) bool {
				return strings.HasPrefix(st.WaitingFor, "waiting for a worker to serve phone")
			})
			stopHost, err := r.s.StartWorkerWith(ctx, h.Config)
			if err != nil {
				t.Fatal(err)
			}
			defer stopHost()
			return append(r.finish(t, id), workflows.LeaseWorkflowID(h.Serials[0]))
		}},
		{"lease-restart", func(t *testing.T, r *recorder, i int) []string {
			// The lease is terminated while the first goal drives the phone;
			// the second goal's request starts it again, and it learns the
			// holder from the goals (docs/design.md §5).
			goal, _ := drilltest.MessageGoal(i)
			first := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, first+"/todo-1", "two steps", midTodo)
			if err := r.s.Client.TerminateWorkflow(context.Background(), workflows.LeaseWorkflowID(r.s.Serials[i]), "", "record: the lease is lost"); err != nil {
				t.Fatal(err)
			}
			second := r.start(t, i, "Turn on Airplane mode", workflows.GoalOptions{})
			r.until(t, second, "waiting for the phone", func(st workflows.Status) bool { return st.WaitingFor != "" })
			return append(r.finish(t, first), r.finish(t, second)...)
		}},
		{"revoked-holder", func(t *testing.T, r *recorder, i int) []string {
			// The first goal holds the phone, paused mid-todo, when a bad
			// deploy breaks its workflow task; the lease (short bounds)
			// takes the phone and grants it to the second goal. The fix
			// comes back, the first goal is resumed, its step is refused
			// by the lease, it asks for the phone again and ends done
			// (docs/design.md §5, change ID revoke-blocked-holder).
			ctx := context.Background()
			serial := r.s.Serials[i]
			if _, err := r.s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
				ID: workflows.LeaseWorkflowID(serial), TaskQueue: workflows.TaskQueue,
			}, workflows.DeviceLeaseWorkflow, workflows.LeaseState{Serial: serial, CheckInterval: 2 * time.Second, BlockedAfter: 5 * time.Second}); err != nil {
				t.Fatal(err)
			}
			goal, _ := drilltest.MessageGoal(i)
			first := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, first+"/todo-1", "two steps", midTodo)
			r.send(t, first, workflows.SignalPause, nil, false)
			r.until(t, first+"/todo-1", "paused", func(st workflows.Status) bool { return st.Paused && st.WaitingFor != "" })
			second := r.start(t, i, "Turn on Airplane mode", workflows.GoalOptions{})
			r.until(t, second, "waiting for the phone", func(st workflows.Status) bool { return st.WaitingFor != "" })
			broken.Store(first, true)
			worker.PurgeStickyWorkflowCache() // the next task of the first goal replays its history
			r.send(t, first, workflows.SignalInject, "a note the broken goal cannot read", true)
			ids := r.finish(t, second)
			broken.Delete(first)
			worker.PurgeStickyWorkflowCache()
			r.send(t, first, workflows.SignalResume, nil, false)
			return append(ids, r.finish(t, first)...)
		}},
		{"step-notice", func(t *testing.T, r *recorder, i int) []string {
			// The running todo tells its goal its step count whenever it
			// waits (docs/design.md §2): the goal paused mid-todo has heard
			// the count the todo stopped at; resumed, it ends done.
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			r.send(t, id, workflows.SignalPause, nil, false)
			c := r.until(t, id+"/todo-1", "paused", func(st workflows.Status) bool { return st.Paused && st.WaitingFor != "" })
			r.until(t, id, "the goal told the paused todo's count", func(st workflows.Status) bool { return st.TodoSteps == c.Steps })
			r.send(t, id, workflows.SignalResume, nil, false)
			return r.finish(t, id)
		}},
		{"goal-text-limit", func(t *testing.T, r *recorder, i int) []string {
			// A goal started past the starter's check, over its own
			// max_goal_text: it ends failed before planning (docs/design.md §2).
			id := r.start(t, i, "Turn on Wi-Fi, then turn on Bluetooth, then set the brightness to 80%", workflows.GoalOptions{MaxGoalText: 40})
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); !strings.Contains(res.Reason, "over the limit of 40") {
				t.Fatalf("the long goal ended %+v, want failed over its limit", res)
			}
			return ids
		}},
		{"hopeless-todo", func(t *testing.T, r *recorder, i int) []string {
			// The same impossible todo planned three times: it fails twice
			// the same way on the same screen, and the third is not run
			// (docs/design.md §9).
			todo := "Book a train ticket in the travel app"
			id := r.start(t, i, "Book a train ticket", workflows.GoalOptions{Plan: []string{todo, todo, todo}})
			r.finish(t, id)
			res := drilltest.WaitResult(t, r.s, id, time.Minute)
			var ids []string
			for _, wid := range drill.GoalWorkflowIDs(id, res) {
				if !strings.HasSuffix(wid, "/todo-3") { // not run: no workflow
					ids = append(ids, wid)
				}
			}
			if !strings.HasPrefix(res.Todos[len(res.Todos)-1].Result, "not run again") {
				t.Fatalf("the third todo was run: %+v", res.Todos)
			}
			return ids
		}},
		{"step-cap", func(t *testing.T, r *recorder, i int) []string {
			// A todo whose cap (3 steps) comes before it could finish is
			// verified on the screen its last step left (docs/design.md §9).
			id := r.start(t, i, "Turn on Wi-Fi", workflows.GoalOptions{Plan: []string{"Turn on Wi-Fi"}, TodoMaxSteps: 3, MaxSteps: 12})
			ids := r.finish(t, id)
			res := drilltest.WaitResult(t, r.s, id, time.Minute)
			if len(res.Todos) == 0 || !strings.Contains(res.Todos[0].Result, "step cap reached") || res.Todos[0].Evidence == "" {
				t.Fatalf("the first todo did not end at its cap with a verdict: %+v", res.Todos)
			}
			return ids
		}},
		{"stepper-repeats", func(t *testing.T, r *recorder, i int) []string {
			// Brightness from 50% to 0%: the stepper's "-" tapped five times
			// in a row, each tap changing the value the screen shows, with no
			// stuck correction (docs/design.md §2 Guards, change ID
			// repeat-that-moves-on).
			id := r.start(t, i, "Set brightness to 0%", workflows.GoalOptions{})
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); res.Status != workflows.GoalDone {
				t.Fatalf("the goal ended %+v, want done", res)
			}
			return ids
		}},
		{"todo-reset", func(t *testing.T, r *recorder, i int) []string {
			// A todo paused mid-way, reset, resumed: it runs again as
			// todo-1-r1 with a fresh executor context (docs/design.md §6).
			goal, _ := drilltest.MessageGoal(i)
			id := r.start(t, i, goal, workflows.GoalOptions{})
			r.until(t, id+"/todo-1", "two steps", midTodo)
			r.send(t, id, workflows.SignalPause, nil, false)
			r.until(t, id+"/todo-1", "paused", func(st workflows.Status) bool { return st.Paused })
			r.send(t, id, workflows.UpdateReset, nil, false)
			r.send(t, id, workflows.SignalResume, nil, false)
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); res.Status != workflows.GoalDone || res.Todos[0].Attempts != 2 {
				t.Fatalf("the reset goal ended %+v", res)
			}
			return ids
		}},
		{"worker-defaults", func(t *testing.T, r *recorder, i int) []string {
			// A goal started as the Temporal CLI starts it, with only the
			// goal, the phone and a "30m" duration: the worker fills the
			// rest from its config (docs/design.md §2).
			input := fmt.Sprintf(`{"goal":"Turn on Wi-Fi","device":%q,"options":{"plan":["Turn on Wi-Fi"],"answer_deadline":"30m"}}`, r.s.Serials[i])
			id := fmt.Sprintf("record-cli-%d", time.Now().UnixNano())
			if _, err := r.s.Client.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue},
				goalctl.GoalWorkflowName, json.RawMessage(input)); err != nil {
				t.Fatal(err)
			}
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); res.Status != workflows.GoalDone {
				t.Fatalf("the CLI goal ended %+v", res)
			}
			return ids
		}},
		{"phone-wait", func(t *testing.T, r *recorder, i int) []string {
			// A todo that waits for a message (docs/design.md §7, change
			// ID phone-wait): CheckPhone on a backoff with the phone given
			// back. The recorder's phones have no life of their own, so
			// the recorder is the one who writes: after the first check
			// has set aside what already showed, Alice's message arrives
			// and the reply is sent.
			id := r.start(t, i, "When Alice Chen sends a message, reply 'got it'", workflows.GoalOptions{})
			r.until(t, id, "the wait for the phone", func(st workflows.Status) bool { return st.Phase == workflows.GoalWaitingPhone })
			r.untilChecked(t, id)
			r.s.Phones[i].Receive("Alice Chen", "Are you there?")
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); res.Status != workflows.GoalDone || res.Todos[0].Result != "Are you there?" {
				t.Fatalf("the waiting goal ended %+v", res)
			}
			return ids
		}},
		{"locked-phone-asks", func(t *testing.T, r *recorder, i int) []string {
			// A phone with a pattern lock, dark and locked: the worker
			// wakes it but cannot pass the pattern, so the todo asks the
			// person (docs/design.md §15, change ID locked-phone-asks); the
			// owner unlocks it at the phone, answers, and the same step
			// runs again.
			phone := r.s.Phones[i]
			phone.SetScreenLock("", true)
			defer phone.SetScreenLock("", false)
			phone.Lock()
			id := r.start(t, i, "Turn on Wi-Fi", workflows.GoalOptions{Plan: []string{"Turn on Wi-Fi"}})
			r.until(t, id, "the unlock question", asking)
			phone.Unlock()
			r.send(t, id, workflows.SignalClarify, "unlocked it", false)
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); res.Status != workflows.GoalDone || !phone.State().Toggles.WiFi {
				t.Fatalf("the goal on the locked phone ended %+v", res)
			}
			return ids
		}},
		{"fan-out-asked", func(t *testing.T, r *recorder, i int) []string {
			// A locked phone nobody unlocks: the Step cannot pass the lock
			// screen, the todo asks, the question's deadline passes, and
			// the todo and the goal end unanswered, which a fan-out counts
			// as asked (docs/design.md §16, change ID fan-out-asked).
			phone := r.s.Phones[i]
			phone.SetScreenLock("", true)
			defer phone.Unlock()
			defer phone.SetScreenLock("", false)
			phone.Lock()
			id := r.start(t, i, "Turn on Wi-Fi", workflows.GoalOptions{Plan: []string{"Turn on Wi-Fi"}, AnswerDeadline: 5 * time.Second})
			ids := r.finish(t, id)
			if res := drilltest.WaitResult(t, r.s, id, time.Minute); res.Status != workflows.GoalFailed || !workflows.Unanswered(res) || res.Unanswered == "" {
				t.Fatalf("the goal on the locked phone nobody unlocked ended %+v", res)
			}
			return ids
		}},
		{"schedule", func(t *testing.T, r *recorder, i int) []string {
			ctx := context.Background()
			name := "record-schedule"
			if err := r.s.Goals.CreateSchedule(ctx, goalctl.ScheduleRequest{Name: name, Goal: "Turn on Wi-Fi",
				Device: r.s.Serials[i], Cron: "0 3 1 1 *", Paused: false}); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = r.s.Goals.DeleteSchedule(ctx, name) }()
			if err := r.s.Goals.TriggerSchedule(ctx, name); err != nil {
				t.Fatal(err)
			}
			var id string
			deadline := time.Now().Add(time.Minute)
			for id == "" && time.Now().Before(deadline) {
				info, err := r.s.Goals.DescribeSchedule(ctx, name)
				if err == nil && len(info.Recent) > 0 {
					id = info.Recent[0].WorkflowID
				}
				time.Sleep(300 * time.Millisecond)
			}
			if id == "" {
				t.Fatal("the schedule started no goal")
			}
			return r.finish(t, id)
		}},
	}
}
