package bench

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// goalTimeout bounds every workflow the suite runs: a goal stuck waiting
// for a human counts as not done instead of hanging the run.
const goalTimeout = 15 * time.Minute

// runWorkflow starts wf on queue and waits for its result.
func runWorkflow[T any](ctx context.Context, st *Stack, id, queue string, wf any, in any) (T, error) {
	var out T
	run, err := st.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: queue, WorkflowExecutionTimeout: goalTimeout,
	}, wf, in)
	if err != nil {
		return out, fmt.Errorf("start %s: %w", id, err)
	}
	err = run.Get(ctx, &out)
	if r, ok := any(&out).(*workflows.GoalResult); ok && workflows.FailedResult(err, r) {
		err = nil // a failed goal closes as Failed with its result
	}
	return out, err
}

// overheadTasks are the showcase goal's three todos: about 20 counted
// steps (thinks plus device actions) that the offline executor completes
// the same way every time. The message names the contact in full: the
// offline verifier finds the conversation only by a title the task names
// whole.
var overheadTasks = []string{
	"Read the time of the first alarm in Clock",
	"Send Alice Chen a message: 07:00",
	"Turn on Bluetooth",
}

// todoInput is a TodoWorkflow input with the default limits.
func todoInput(serial, task string) workflows.TodoInput {
	return workflows.TodoInput{
		Index: 1, Task: task, Device: serial, StepBudget: workflows.DefaultMaxSteps,
		MaxSteps: workflows.DefaultTodoMaxSteps, UITree: true, AutoApprove: true,
		FailureThreshold: workflows.DefaultFailureThreshold, StuckThreshold: workflows.DefaultStuckThreshold,
		MaxStuckRetries: workflows.DefaultMaxStuckRetries, HistoryEventLimit: workflows.DefaultHistoryEventLimit,
	}
}

// errNotVerified is DirectTodo's error when the verdict on a finish is not
// done: the loop made every call, the phone disagreed.
var errNotVerified = errors.New("finish not verified")

// DirectTodo runs one todo as a plain loop over the same activity code the
// TodoWorkflow schedules (Activities.Step: act, settle, observe, think),
// keeping the same executor context (the blob of earlier turns, previous
// action and result), and verifies the finish on the screen it was made on
// as the workflow does: in the Step that decides it (ChangeVerifyInStep),
// or with Activities.Verify when that Step gave no verdict, so both make
// the same model calls. Each device action carries an action ID
// (id and the step) and the screen it was decided on, as the workflow's
// do, so the Step takes the same path: the target check against that
// screen's tree and the exactly-once journal (docs/design.md §4, §9). It
// counts steps the way the workflow does: every think and every device
// action. It returns the counted steps and the finish message; a finish
// the verdict does not confirm is errNotVerified, with the counted steps.
// With stepMs set, each Step call's wall time is appended to it.
func DirectTodo(ctx context.Context, a *activities.Activities, serial, id, task string, maxSteps int, stepMs *Sample) (int, string, error) {
	var (
		act        *autoglm.Action
		screen     activities.Observation
		historyRef string
		prevAction string
		prevResult string
		steps      int
	)
	for steps < maxSteps {
		in := activities.StepInput{Serial: serial, Task: task, UITree: true, Think: true, HistoryRef: historyRef, VerifyFinish: true}
		if act != nil {
			in.Act = act
			in.ScreenHash, in.Width, in.Height = screen.Hash, screen.Width, screen.Height
			if act.TouchesDevice() {
				steps++
				in.ActionID = fmt.Sprintf("%s/%d", id, steps)
				in.ScreenTreeRef, in.ScreenApp, in.ScreenSensitive = screen.TreeRef, screen.AppPackage, screen.Sensitive
			}
		} else {
			in.PreviousAction, in.PreviousResult = prevAction, prevResult
		}
		began := time.Now()
		res, err := a.Step(ctx, in)
		if stepMs != nil {
			*stepMs = append(*stepMs, Ms(time.Since(began)))
		}
		if err != nil {
			return steps, "", err
		}
		steps++
		screen = res.Screen
		act = nil
		th := res.Think
		if th.HistoryRef != "" {
			historyRef = th.HistoryRef
		}
		if th.ParseError != "" || th.Response == nil {
			prevAction, prevResult = "(reply not understood)", "your last reply could not be parsed: "+th.ParseError
			continue
		}
		next := th.Response.Action
		switch {
		case next.Name == autoglm.ActionFinish:
			// As the workflow does: the Step's verdict, or Verify when the
			// Step could not give one.
			v := res.Verdict
			if v == nil {
				vr, err := a.Verify(ctx, activities.VerifyInput{Serial: serial, Task: task, Message: next.Message, Screen: screen, HandBackOutages: true})
				if err != nil {
					return steps, "", fmt.Errorf("verify %q: %w", task, err)
				}
				v = &vr
			}
			if v.Status != workflows.TodoDone {
				return steps, next.Message, fmt.Errorf("%w: %q: %s: %s", errNotVerified, task, v.Status, v.Evidence)
			}
			return steps, next.Message, nil
		case next.NeedsHuman():
			return steps, "", fmt.Errorf("the executor asked for a human (%s) in a plain loop", next.Name)
		case next.Name == autoglm.ActionNote || next.Name == autoglm.ActionCallAPI:
			prevAction, prevResult = th.Action, "ok"
		default:
			act = &next
		}
	}
	return steps, "", fmt.Errorf("%q did not finish within %d steps", task, maxSteps)
}

func (r *runner) overhead(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasureOverhead],
		Note: fmt.Sprintf("The showcase goal's three todos (%s) run back to back on one simulated phone, reset before each run: "+
			"(a) as a plain in-process loop calling `Activities.Step` directly, (b) as one `TodoWorkflow` per todo through the embedded Temporal server "+
			"(laid out as a goal runs it: the todo on the shared task queue, its `Step` activities on the phone's queue, one worker process serving both). "+
			"Both do the same device work and the same model calls: every think, the verification of each finish (in the Step that decides it, as a todo does since `verify-in-step`), and for each device action "+
			"the target check against the screen it was decided on and the exactly-once journal (an action ID per action). "+
			"Steps are counted as the workflow counts them: every think and every device action; model calls are the model server's completions during each path. "+
			"The ratio is the median of the per-run ratios (b)/(a). "+
			"CPU ms/step is the whole process's CPU time (getrusage RUSAGE_SELF) over each path divided by its steps: the worker, the embedded server, the model server and the phone, "+
			"so (b) − (a) is what the Temporal path costs in CPU, a figure the machine's load does not inflate the way it does wall time.", strings.Join(quoteAll(overheadTasks), ", ")),
		Header: []string{"model latency", "steps (a / b)", "model calls (a / b)", "(a) plain loop ms/step", "(b) Temporal ms/step", "ratio (b)/(a)", "(b) − (a) ms/step",
			"(a) CPU ms/step", "(b) CPU ms/step", "(b) − (a) CPU ms/step"},
	}
	legs := Table{
		Title: "Where the Temporal path's time goes",
		Note: "The (b) runs above, read back from each todo's history (event times as the server recorded them): per `Step` activity, the wait for the phone's worker " +
			"(scheduled → started), the Step itself (started → completed), the wait for the workflow's worker (Step completed → workflow task started) and the " +
			"workflow task (started → completed, which schedules the next activity); per todo, its start (workflow started → first Step scheduled) and its end " +
			"(last activity completed → workflow closed). Medians (min–max) in ms. The plain loop's Step, timed around the call, is the last column.",
		Header: []string{"model latency", "Step activities (all runs)", "Step waits for the phone's worker", "Step", "workflow task waits", "workflow task",
			"todo start", "todo end", "(a) plain loop's Step"},
	}
	for _, lat := range []time.Duration{0, 200 * time.Millisecond} {
		env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1, Model: modelserver.Config{Latency: lat}})
		if err != nil {
			return []Table{t, legs}, err
		}
		serial, phone := env.Serials[0], env.Phones[0]
		var direct, viaT, ratio, diff, cpuStepA, cpuStepB, cpuDiff Sample
		var stepsA, stepsB, callsA, callsB []int
		var tl StepTimeline
		var loopStep Sample
		unverified := 0
		calls := func() int { return int(env.Model.Stats().Completions) }
		for run := range r.o.Runs {
			phone.Reset()
			c0 := calls()
			stopProf, err := r.profile(lat, "loop", run)
			if err != nil {
				env.Stop()
				return []Table{t, legs}, err
			}
			began, cpu0 := time.Now(), processCPU()
			sa := 0
			for _, task := range overheadTasks {
				n, _, err := DirectTodo(ctx, env.Acts, serial, r.id("loop"), task, workflows.DefaultTodoMaxSteps, &loopStep)
				if errors.Is(err, errNotVerified) {
					// Same calls and device work; the table says so.
					unverified++
					r.o.Progress("overhead: plain loop: " + err.Error())
					err = nil
				}
				if err != nil {
					env.Stop()
					return []Table{t, legs}, fmt.Errorf("plain loop: %w", err)
				}
				sa += n
			}
			da, cpuA := time.Since(began), processCPU()-cpu0
			stopProf()
			ca := calls() - c0
			phone.Reset()
			c0 = calls()
			if stopProf, err = r.profile(lat, "temporal", run); err != nil {
				env.Stop()
				return []Table{t, legs}, err
			}
			began, cpu0 = time.Now(), processCPU()
			sb := 0
			var ids []string
			for _, task := range overheadTasks {
				in := todoInput(serial, task)
				in.DeviceQueue = workflows.DeviceTaskQueue(serial)
				id := r.id("todo")
				ids = append(ids, id)
				res, err := runWorkflow[workflows.TodoResult](ctx, r.st, id, workflows.TaskQueue, workflows.TodoWorkflow, in)
				if err != nil {
					env.Stop()
					return []Table{t, legs}, fmt.Errorf("todo workflow: %w", err)
				}
				if res.Status != workflows.TodoDone {
					env.Stop()
					return []Table{t, legs}, fmt.Errorf("todo workflow %q ended %s: %s", task, res.Status, res.Result)
				}
				sb += res.Steps
			}
			db, cpuB := time.Since(began), processCPU()-cpu0
			stopProf()
			for _, id := range ids {
				one, err := ReadStepTimeline(ctx, r.st.Client, id)
				if err != nil {
					env.Stop()
					return []Table{t, legs}, err
				}
				tl.add(one)
			}
			callsA, callsB = append(callsA, ca), append(callsB, calls()-c0)
			stepsA, stepsB = append(stepsA, sa), append(stepsB, sb)
			pa, pb := Ms(da)/float64(sa), Ms(db)/float64(sb)
			direct, viaT = append(direct, pa), append(viaT, pb)
			ratio, diff = append(ratio, pb/pa), append(diff, pb-pa)
			ca1, cb1 := Ms(cpuA)/float64(sa), Ms(cpuB)/float64(sb)
			cpuStepA, cpuStepB, cpuDiff = append(cpuStepA, ca1), append(cpuStepB, cb1), append(cpuDiff, cb1-ca1)
			r.o.Progress(fmt.Sprintf("overhead %s: plain %.1f ms/step, temporal %.1f ms/step", lat, pa, pb))
		}
		env.Stop()
		if unverified > 0 {
			t.Findings = append(t.Findings, fmt.Sprintf("At %s, %d of the plain loop's %d finishes were not verified done (the workflow's all were); the calls and device work are the same either way.",
				lat, unverified, len(overheadTasks)*r.o.Runs))
		}
		t.Rows = append(t.Rows, []string{lat.String(), fmt.Sprintf("%s / %s", intsSummary(stepsA), intsSummary(stepsB)),
			fmt.Sprintf("%s / %s", intsSummary(callsA), intsSummary(callsB)), direct.Summary(1), viaT.Summary(1), ratio.Summary(2), diff.Summary(1),
			cpuStepA.Summary(1), cpuStepB.Summary(1), cpuDiff.Summary(1)})
		legs.Rows = append(legs.Rows, []string{lat.String(), strconv.Itoa(len(tl.Run)), tl.Dispatch.Summary(1), tl.Run.Summary(1),
			tl.Back.Summary(1), tl.Decide.Summary(1), tl.Start.Summary(1), tl.End.Summary(1), loopStep.Summary(1)})
	}
	return []Table{t, legs}, nil
}

// profile starts a CPU profile of one path of one overhead run when
// Options.CPUProfile asks for them, and returns the function that ends it.
func (r *runner) profile(lat time.Duration, path string, run int) (func(), error) {
	if r.o.CPUProfile == "" {
		return func() {}, nil
	}
	name := fmt.Sprintf("%s-%s-%s-%d.pprof", r.o.CPUProfile, lat, path, run+1)
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", name, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func (r *runner) history(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasureHistory],
		Note: fmt.Sprintf("The showcase goal (%q) in layered mode, phone reset before each run. Events and bytes (protobuf size of each event) "+
			"are summed over the goal's history and its child todos' histories read back with GetWorkflowHistory; an executor step is one `Step` "+
			"activity (act + settle + observe + think). Image bytes: every event is searched for PNG/JPEG signatures, raw and base64, and `data:image/`.", demo.Showcase),
		Header: []string{"metric", "value"},
	}
	env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1})
	if err != nil {
		return []Table{t}, err
	}
	defer env.Stop()
	var events, bytes, steps, evPerStep, bPerStep, childEv, childB, images, wfs, verEv, verB Sample
	var last HistoryStats
	for range r.o.Runs {
		env.Phones[0].Reset()
		id := r.id("goal")
		res, err := r.runGoal(ctx, id, demo.Showcase, env.Serials[0], workflows.GoalOptions{AutoApprove: true})
		if err != nil {
			return []Table{t}, err
		}
		if res.Status != workflows.GoalDone {
			return []Table{t}, fmt.Errorf("the showcase goal ended %s: %s", res.Status, res.Reason)
		}
		h, err := ReadHistory(ctx, r.st.Client, id)
		if err != nil {
			return []Table{t}, err
		}
		if h.Steps == 0 {
			return []Table{t}, errors.New("the showcase goal's histories hold no Step activity")
		}
		n := float64(h.Steps)
		events, bytes, steps = append(events, float64(h.Events)), append(bytes, float64(h.Bytes)), append(steps, n)
		evPerStep, bPerStep = append(evPerStep, float64(h.Events)/n), append(bPerStep, float64(h.Bytes)/n)
		childEv, childB = append(childEv, float64(h.ChildEvents)/n), append(childB, float64(h.ChildBytes)/n)
		images, wfs = append(images, float64(h.ImageHits)), append(wfs, float64(h.Workflows))
		verEv, verB = append(verEv, float64(h.VersionEvents)), append(verB, float64(h.VersionBytes))
		last = h
	}
	t.Rows = [][]string{
		{"workflows read (goal + todos)", wfs.Summary(0)},
		{"executor steps (Step activities)", steps.Summary(0)},
		{"events, all histories", events.Summary(0)},
		{"bytes, all histories", bytes.Summary(0)},
		{"**events per executor step** (all histories)", evPerStep.Summary(1)},
		{"**bytes per executor step** (all histories)", bPerStep.Summary(0)},
		{"events per executor step, todo histories only", childEv.Summary(1)},
		{"bytes per executor step, todo histories only", childB.Summary(0)},
		{"version markers and their search attribute upserts: events", verEv.Summary(0)},
		{"version markers and their search attribute upserts: bytes", verB.Summary(0)},
		{"**image signatures found in history**", images.Summary(0)},
	}
	if m := evPerStep.Median(); m > 12 {
		t.Findings = append(t.Findings, fmt.Sprintf("%.1f events per step is above the 12 the design aims at: the goal's planning, replans, child start/complete and lease events are spread over few steps.", m))
	} else {
		t.Findings = append(t.Findings, fmt.Sprintf("%.1f events per executor step including the goal's planning, replans and child bookkeeping; a todo's own history costs %.1f.", evPerStep.Median(), childEv.Median()))
	}
	t.Findings = append(t.Findings, "Events by type in the last run: "+byType(last.ByType)+".")
	if len(last.Versions) > 0 {
		t.Findings = append(t.Findings, "Version markers by change ID in the last run (one per workflow run that reached the change; each with an upsert of TemporalChangeVersion): "+byType(last.Versions)+".")
	}
	if images.Max() > 0 {
		t.Findings = append(t.Findings, "IMAGE BYTES FOUND IN HISTORY: screenshots must stay in the blob store.")
	} else {
		t.Findings = append(t.Findings, "No image bytes in any history: screenshots and UI trees travel as blob references.")
	}
	return []Table{t}, nil
}

// scaleGoal is the goal of phone i in the scale test: a message with a
// text only that goal sends.
func scaleGoal(i int) (goal, text string) {
	text = fmt.Sprintf("bench %d", i)
	return "Send Alice a message saying " + text, text
}

// Isolated reports whether phone st was driven by goal text only: exactly
// one message sent, with that text, and no text input of another goal in
// its input log (text is checked raw and base64-decoded).
func Isolated(st phonesim.State, text string) bool {
	if len(st.MessagesSent) != 1 || st.MessagesSent[0].Text != text {
		return false
	}
	for _, ev := range st.InputLog {
		for _, a := range ev.Args {
			s := a
			if b, err := base64.StdEncoding.DecodeString(a); err == nil {
				s = string(b)
			}
			if strings.Contains(s, "bench ") && !strings.Contains(s, text) {
				return false
			}
		}
	}
	return true
}

func (r *runner) scale(ctx context.Context) ([]Table, error) {
	sizes := []int{1, 10, 50}
	if r.o.Quick {
		sizes = []int{1, 5}
	}
	t := Table{
		Title: Headings[MeasureScale],
		Note: "N simulated phones, one goal each (\"Send Alice a message saying bench <i>\", layered mode), all started at once on one worker process " +
			"(the shared task queue plus one task queue per phone). Isolation: each phone sent exactly its own goal's message and its input log holds no other goal's text. " +
			"Step latency is the server-recorded time from `Step` activity scheduled to completed, over every step of every goal (includes queueing on the worker). " +
			"Peak RSS is this process's VmHWM after the run: it holds the worker, but also the embedded Temporal server, the model server and the simulated phones, and it only grows, so it is an upper bound. " +
			"One run per size.",
		Header: []string{"phones", "goals done", "isolated", "executor steps", "step p50 ms", "step p95 ms", "wall time s", "peak RSS MiB (whole process)"},
	}
	for _, n := range sizes {
		env, err := r.st.StartEnv(ctx, EnvOptions{Phones: n})
		if err != nil {
			return []Table{t}, err
		}
		ids := make([]string, n)
		results := make([]workflows.GoalResult, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		began := time.Now()
		for i := range n {
			ids[i] = r.id("scale")
			goal, _ := scaleGoal(i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = r.runGoal(ctx, ids[i], goal, env.Serials[i], workflows.GoalOptions{AutoApprove: true})
			}()
		}
		wg.Wait()
		wall := time.Since(began)
		done, isolated, steps := 0, 0, 0
		var lat Sample
		var problems []string
		for i := range n {
			_, text := scaleGoal(i)
			if errs[i] == nil && results[i].Status == workflows.GoalDone {
				done++
			} else if len(problems) < 3 {
				problems = append(problems, fmt.Sprintf("goal %d: %v %s %s", i, errs[i], results[i].Status, results[i].Reason))
			}
			if Isolated(env.Phones[i].State(), text) {
				isolated++
			}
			h, err := ReadHistory(ctx, r.st.Client, ids[i])
			if err != nil {
				env.Stop()
				return []Table{t}, err
			}
			steps += h.Steps
			for _, d := range h.StepLatency {
				lat = append(lat, Ms(d))
			}
		}
		env.Stop()
		t.Rows = append(t.Rows, []string{fmt.Sprint(n), fmt.Sprintf("%d/%d", done, n), fmt.Sprintf("%d/%d", isolated, n), fmt.Sprint(steps),
			fmt.Sprintf("%.0f", lat.Quantile(0.5)), fmt.Sprintf("%.0f", lat.Quantile(0.95)), fmt.Sprintf("%.1f", wall.Seconds()), fmt.Sprintf("%.0f", PeakRSSMB())})
		if done < n || isolated < n {
			t.Findings = append(t.Findings, fmt.Sprintf("%d phones: %d of %d goals done, %d isolated; first problems: %s", n, done, n, isolated, strings.Join(problems, "; ")))
		}
		r.o.Progress(fmt.Sprintf("scale %d phones: %d done, p95 %.0f ms", n, done, lat.Quantile(0.95)))
	}
	return []Table{t}, nil
}

// byType lists event counts, largest first.
func byType(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var all []kv
	for k, v := range m {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v || all[i].v == all[j].v && all[i].k < all[j].k })
	parts := make([]string, len(all))
	for i, x := range all {
		parts[i] = fmt.Sprintf("%s %d", x.k, x.v)
	}
	return strings.Join(parts, ", ")
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

// intsSummary writes a list of counts as "n" when all equal, else "min–max".
func intsSummary(v []int) string {
	if len(v) == 0 {
		return "n/a"
	}
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}
