package routines

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/routine"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// startStack starts a stack with one phone and a worker in this process,
// its model server answering after latency, its data in dir.
func startStack(ctx context.Context, t testing.TB, dir string, latency time.Duration) *localstack.Stack {
	t.Helper()
	cfg := classicConfig()
	s := stacktest.Start(ctx, t, localstack.Options{Config: &cfg, DataDir: dir, ADB: localstack.AnyADB,
		Model: modelserver.Config{Latency: latency}})
	return s
}

// classicConfig is the default configuration on the classic look. A
// routine replays a conversation only where the conversation screen is
// the same screen for every contact; Google Messages' bubbles are
// clickable rows whose number and place change with the conversation, so
// on the pixel look a routine learned on one contact falls back to the
// model at the other's conversation (docs/design.md §8, Not covered).
func classicConfig() config.Config {
	cfg := config.Default()
	cfg.Sim.Skin = string(phonesim.SkinClassic)
	return cfg
}

// run is one goal's outcome and cost.
type run struct {
	id     string
	res    workflows.GoalResult
	wall   time.Duration
	todo   workflows.Status // the todo's last status answer
	sent   []phonesim.SentMessage
	inputs int
}

// runGoal runs goal on a phone in its initial state, with routines on.
func runGoal(ctx context.Context, t testing.TB, s *localstack.Stack, goal string, setup func(*phonesim.Phone)) run {
	t.Helper()
	return runPlan(ctx, t, s, goal, nil, setup)
}

// runPlan runs goal with a given plan (nil: the planner plans).
func runPlan(ctx context.Context, t testing.TB, s *localstack.Stack, goal string, plan []string, setup func(*phonesim.Phone)) run {
	t.Helper()
	p := s.Phones[0]
	p.Reset()
	if setup != nil {
		setup(p)
	}
	start := time.Now()
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: s.Serials[0],
		Options: workflows.GoalOptions{AutoApprove: true, Routines: true, OptimizePrompt: true, Plan: plan}})
	if err != nil {
		t.Fatal(err)
	}
	var r run
	r.id = id
	for {
		res, err := s.Goals.Result(ctx, id)
		if err == nil {
			r.res = res
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("goal %s did not end: %v", id, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	r.wall = time.Since(start)
	if len(r.res.Todos) > 0 {
		r.todo, _ = s.Goals.Status(ctx, id+"/todo-1")
	}
	st := p.State()
	r.sent, r.inputs = st.MessagesSent, len(st.InputLog)
	return r
}

func (r run) executorCalls() int { return r.res.Usage.Executor.Calls }

// TestRoutineReplay runs the same task three times with one data
// directory, on a fresh phone each time: the first learns the routine, the
// second (another contact and text) replays it with at most 20% of the
// first run's executor calls, and the third, whose Messages app shows a
// pop-up, falls back to the model where the screen differs and still ends
// done, updating the routine.
func TestRoutineReplay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	s := startStack(ctx, t, dir, 0)

	first := runGoal(ctx, t, s, `Send Alice a message saying "see you at 7"`, nil)
	checkSent(t, first, "Alice Chen", "see you at 7")
	if first.res.Usage.ReplayedSteps != 0 {
		t.Errorf("first run replayed %d steps with no routine yet", first.res.Usage.ReplayedSteps)
	}
	store, err := routine.Open(filepath.Join(dir, "routines"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := store.List()
	if err != nil || len(rs) != 1 {
		t.Fatalf("routines after the first run: %d, %v", len(rs), err)
	}
	learned := rs[0]
	if learned.Key.Template != "send {1} a message: {2}" || learned.Successes != 1 {
		t.Errorf("learned routine %+v", learned.Key)
	}

	second := runGoal(ctx, t, s, `Send Bob a message saying "running late"`, nil)
	checkSent(t, second, "Bob Li", "running late")
	if 5*second.executorCalls() > first.executorCalls() {
		t.Errorf("second run made %d executor calls, first %d: want at most 20%%", second.executorCalls(), first.executorCalls())
	}
	if second.res.Usage.ReplayedSteps < 3 {
		t.Errorf("second run replayed %d steps", second.res.Usage.ReplayedSteps)
	}
	if want := fmt.Sprintf("replayed step %d/%d of routine %s", len(learned.Steps), len(learned.Steps), learned.ID); !strings.Contains(second.todo.Routine, want) {
		t.Errorf("todo status routine = %q, want it to contain %q", second.todo.Routine, want)
	}

	third := runGoal(ctx, t, s, `Send Mom a message saying "landed"`, func(p *phonesim.Phone) {
		if err := p.SetFault(phonesim.Fault{Kind: phonesim.FaultPopup}); err != nil {
			t.Fatal(err)
		}
	})
	checkSent(t, third, "Mom", "landed")
	if !strings.Contains(third.todo.Routine, "then the model") || third.res.Usage.ReplayedSteps == 0 {
		t.Errorf("pop-up run: routine %q, %d replayed: want a replay that fell back to the model", third.todo.Routine, third.res.Usage.ReplayedSteps)
	}
	if third.executorCalls() <= second.executorCalls() {
		t.Errorf("pop-up run made %d executor calls, the clean replay %d: the model should have taken over", third.executorCalls(), second.executorCalls())
	}
	after, err := store.Get(learned.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Successes != 3 || after.Failures != 0 || len(after.Steps) <= len(learned.Steps) {
		t.Errorf("routine after the fallback: %d successes, %d failures, %d steps (was %d): want it updated with the pop-up step",
			after.Successes, after.Failures, len(after.Steps), len(learned.Steps))
	}
	for _, r := range []run{first, second, third} {
		t.Logf("%s: %s, %d steps, executor %d calls (%d in, %d out tokens), planner %d calls, %d replayed, %s; routine: %s",
			r.id, r.res.Status, r.res.Steps, r.res.Usage.Executor.Calls, r.res.Usage.Executor.InputTokens,
			r.res.Usage.Executor.OutputTokens, r.res.Usage.Planner.Calls, r.res.Usage.ReplayedSteps, r.wall.Round(time.Millisecond), r.todo.Routine)
	}
}

func checkSent(t testing.TB, r run, to, text string) {
	t.Helper()
	if r.res.Status != workflows.GoalDone {
		t.Fatalf("%s ended %s: %s %s", r.id, r.res.Status, r.res.Reason, r.res.Response)
	}
	if len(r.sent) != 1 || r.sent[0].To != to || r.sent[0].Text != text {
		t.Fatalf("%s sent %+v, want exactly one %q to %s", r.id, r.sent, text, to)
	}
}

// TestRoutineCostTable measures first against repeated runs and prints
// their table (calls, tokens, wall time): PHONEFLOW_ROUTINE_BENCH=N runs N
// pairs (a first run that learns on an empty routine store, then a
// repeated run of the same task with another contact and text) at 0 ms and
// at 1 s model latency, and prints medians. It is skipped otherwise:
// TestRoutineReplay covers the same runs once.
func TestRoutineCostTable(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PHONEFLOW_ROUTINE_BENCH"))
	if n <= 0 {
		t.Skip("set PHONEFLOW_ROUTINE_BENCH=N to measure N first and repeated runs at 0 ms and 1 s model latency")
	}
	type row struct {
		latency         time.Duration
		kind            string
		calls, in, out  []int
		planner         []int
		walls           []time.Duration
		replayed, steps []int
	}
	var rows []*row
	for _, lat := range []time.Duration{0, time.Second} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(n+1)*5*time.Minute)
		s := startStack(ctx, t, t.TempDir(), lat)
		store, err := routine.Open(filepath.Join(s.Config.DataDir, "routines"))
		if err != nil {
			t.Fatal(err)
		}
		first, repeated := &row{latency: lat, kind: "first (learns)"}, &row{latency: lat, kind: "repeated (replays)"}
		add := func(r *row, x run) {
			if x.res.Status != workflows.GoalDone {
				t.Fatalf("%s ended %s: %s", x.id, x.res.Status, x.res.Reason)
			}
			u := x.res.Usage
			r.calls = append(r.calls, u.Executor.Calls)
			r.in = append(r.in, u.Executor.InputTokens)
			r.out = append(r.out, u.Executor.OutputTokens)
			r.planner = append(r.planner, u.Planner.Calls)
			r.walls = append(r.walls, x.wall)
			r.replayed = append(r.replayed, u.ReplayedSteps)
			r.steps = append(r.steps, x.res.Steps)
		}
		for i := 0; i < n; i++ {
			all, _ := store.List()
			for _, r := range all {
				if err := store.Delete(r.ID); err != nil {
					t.Fatal(err)
				}
			}
			add(first, runGoal(ctx, t, s, fmt.Sprintf(`Send Alice a message saying "run %d"`, i), nil))
			add(repeated, runGoal(ctx, t, s, fmt.Sprintf(`Send Bob a message saying "again %d"`, i), nil))
		}
		rows = append(rows, first, repeated)
		cancel()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| model latency | run | runs | executor calls | executor tokens in / out | planner calls | replayed steps | goal steps | wall time |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d / %d | %d | %d | %d | %s |\n", r.latency, r.kind, len(r.calls), medianInt(r.calls),
			medianInt(r.in), medianInt(r.out), medianInt(r.planner), medianInt(r.replayed), medianInt(r.steps), medianDur(r.walls).Round(10*time.Millisecond))
	}
	t.Log(b.String())
}

func medianInt(v []int) int {
	s := append([]int(nil), v...)
	sort.Ints(s)
	return s[len(s)/2]
}

func medianDur(v []time.Duration) time.Duration {
	s := append([]time.Duration(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// TestRoutinePhrasings learns routines from todos as people write them
// (unquoted, Chinese, a time) and replays them for the same task with other
// spans, on the embedded server with the simulator: the parameters come
// from the trajectory. Each goal is its own one-todo plan, so the todo is
// the text as written (the planner would rewrite it in its own words). A todo that fits a routine in two ways runs with the
// model, and a todo that fits a routine's words but whose replay would do
// the wrong thing (a switch already on) falls back before it acts.
func TestRoutinePhrasings(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	s := startStack(ctx, t, t.TempDir(), 0)
	sent := func(to, text string) func(t *testing.T, r run) {
		return func(t *testing.T, r run) {
			t.Helper()
			if len(r.sent) != 1 || r.sent[0].To != to || r.sent[0].Text != text {
				t.Errorf("%s sent %+v, want exactly one %q to %s", r.id, r.sent, text, to)
			}
		}
	}
	alarm := func(hhmm string) func(t *testing.T, r run) {
		return func(t *testing.T, r run) {
			t.Helper()
			for _, a := range s.Phones[0].State().Alarms {
				if a.Time == hhmm {
					return
				}
			}
			t.Errorf("%s: no alarm at %s: %+v", r.id, hhmm, s.Phones[0].State().Alarms)
		}
	}
	toggles := func(wifi, bt bool) func(t *testing.T, r run) {
		return func(t *testing.T, r run) {
			t.Helper()
			if tg := s.Phones[0].State().Toggles; tg.WiFi != wifi || tg.Bluetooth != bt {
				t.Errorf("%s: toggles %+v, want Wi-Fi %t, Bluetooth %t", r.id, tg, wifi, bt)
			}
		}
	}
	note := func(title, body string) func(t *testing.T, r run) {
		return func(t *testing.T, r run) {
			t.Helper()
			for _, n := range s.Phones[0].State().Notes {
				if n.Title == title && n.Body == body {
					return
				}
			}
			t.Errorf("%s: no note %q saying %q: %+v", r.id, title, body, s.Phones[0].State().Notes)
		}
	}
	type want int
	const (
		learns want = iota
		replays
		replaysToLast
		modelOnly
	)
	var firsts = map[string]run{}
	for _, tc := range []struct {
		goal  string
		want  want
		first string // the goal whose run this replay is compared with
		check func(t *testing.T, r run)
	}{
		{"Send Bob Li a message saying routine one", learns, "", sent("Bob Li", "routine one")},
		{"Send Bob Li a message saying routine two", replays, "Send Bob Li a message saying routine one", sent("Bob Li", "routine two")},
		{"Send Alice Chen a message saying lunch is at noon", replays, "Send Bob Li a message saying routine one", sent("Alice Chen", "lunch is at noon")},
		{"给李四发消息说你好", learns, "", sent("李四", "你好")},
		{"给李四发消息说明天见", replays, "给李四发消息说你好", sent("李四", "明天见")},
		{"Set an alarm for 6 am", learns, "", alarm("06:00")},
		// The alarm list the finish is decided on sorts the new alarm
		// elsewhere: that last step is the model's.
		{"Set an alarm for 9:45 pm", replaysToLast, "Set an alarm for 6 am", alarm("21:45")},
		{"Create a note titled Groceries saying milk and eggs", learns, "", note("Groceries", "milk and eggs")},
		// As the alarm list, the notes list sorts the new note elsewhere.
		{"Create a note titled Trip saying pack the charger", replaysToLast, "Create a note titled Groceries saying milk and eggs", note("Trip", "pack the charger")},
		// Plan / hi saying bye, or Plan saying hi / bye?
		{"Create a note titled Plan saying hi saying bye", modelOnly, "", note("Plan", "hi saying bye")},
		{"Turn on Bluetooth", learns, "", toggles(true, true)},
		// Wi-Fi is on already: a replayed tap on its switch would turn it off.
		{"Turn on Wi-Fi", modelOnly, "", toggles(true, false)},
		// That run only finished: it did not become the routine's steps.
		{"Turn on Bluetooth", replays, "Turn on Bluetooth", toggles(true, true)},
	} {
		r := runPlan(ctx, t, s, tc.goal, []string{tc.goal}, nil)
		if r.res.Status != workflows.GoalDone {
			t.Errorf("%q: %s ended %s: %s %s", tc.goal, r.id, r.res.Status, r.res.Reason, r.res.Response)
		}
		tc.check(t, r)
		calls, replayed := r.executorCalls(), r.res.Usage.ReplayedSteps
		t.Logf("%-52q %d executor calls, %d replayed; routine: %s", tc.goal, calls, replayed, r.todo.Routine)
		switch tc.want {
		case learns:
			firsts[tc.goal] = r
			if replayed != 0 || !strings.Contains(r.todo.Routine, "learned routine") {
				t.Errorf("%q: replayed %d, routine %q: want a routine learned", tc.goal, replayed, r.todo.Routine)
			}
		case replays:
			first := firsts[tc.first]
			if replayed == 0 || 5*calls > first.executorCalls() {
				t.Errorf("%q: %d executor calls (%d replayed) against %d for %q: want at most 20%%", tc.goal, calls, replayed, first.executorCalls(), tc.first)
			}
		case modelOnly:
			if calls == 0 || strings.Contains(r.todo.Routine, "replayed step") {
				t.Errorf("%q: %d executor calls, routine %q: want the model to decide", tc.goal, calls, r.todo.Routine)
			}
		}
	}
}
