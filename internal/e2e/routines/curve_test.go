package routines

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/routine"
	"github.com/phoneflow/phoneflow/workflows"
)

// curveTask is one task type of the ten-run curve: the goal a schedule
// would start again and again, and what the phone must show after it.
type curveTask struct {
	kind  string
	goal  string
	check func(st phonesim.State) (bool, string)
}

func curveTasks() []curveTask {
	lastFrom := func(name string) string {
		for _, c := range phonesim.Contacts() {
			if c.Name == name && len(c.Received) > 0 {
				return c.Received[len(c.Received)-1]
			}
		}
		return ""
	}
	sentOnce := func(to, text string) func(phonesim.State) (bool, string) {
		return func(st phonesim.State) (bool, string) {
			if len(st.MessagesSent) == 1 && st.MessagesSent[0].To == to && st.MessagesSent[0].Text == text {
				return true, ""
			}
			return false, fmt.Sprintf("sent %+v, want one %q to %s", st.MessagesSent, text, to)
		}
	}
	return []curveTask{
		{"message", `Send Alice a message saying "leaving work now"`, sentOnce("Alice Chen", "leaving work now")},
		{"alarm", "Set an alarm for 6:45 am", func(st phonesim.State) (bool, string) {
			for _, a := range st.Alarms {
				if a.Time == "06:45" {
					return true, ""
				}
			}
			return false, fmt.Sprintf("no alarm at 06:45: %+v", st.Alarms)
		}},
		{"note", "Create a note titled Standup saying blockers and plans", func(st phonesim.State) (bool, string) {
			n := 0
			for _, x := range st.Notes {
				if x.Title == "Standup" && x.Body == "blockers and plans" {
					n++
				}
			}
			return n == 1, fmt.Sprintf("%d notes titled Standup saying the body: %+v", n, st.Notes)
		}},
		{"toggle", "Turn on Bluetooth", func(st phonesim.State) (bool, string) {
			return st.Toggles.Bluetooth, fmt.Sprintf("toggles %+v", st.Toggles)
		}},
		{"read-and-send", "Read Bob Li's latest text and then send it to Alice Chen", sentOnce("Alice Chen", lastFrom("Bob Li"))},
	}
}

// TestRoutineTenRuns measures the curve of BENCHMARKS.md#routines-the-tenth-run: for
// each of five task types, the same goal runs N times in a row (as a
// schedule would start it) on one stack with routines on, the phone reset
// before each run, and the table gives the executor calls of each run and
// runs 2..N's mean against the first's. Then each type runs once with a
// pop-up over the app (a changed screen: the model takes over and the
// routine learns the step) and once more on a clean phone.
// PHONEFLOW_ROUTINE_CURVE=N sets N
// (10 in the table); it is skipped otherwise: TestRoutineReplay and
// TestRoutinePhrasings cover first and repeated runs in the default suite.
func TestRoutineTenRuns(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PHONEFLOW_ROUTINE_CURVE"))
	if n < 2 {
		t.Skip("set PHONEFLOW_ROUTINE_CURVE=N (at least 2) to run each of five task types N times and print the executor calls per run")
	}
	tasks := curveTasks()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration((n+2)*len(tasks))*2*time.Minute)
	defer cancel()
	s := startStack(ctx, t, t.TempDir(), 0)
	var b strings.Builder
	store, err := routine.Open(filepath.Join(s.Config.DataDir, "routines"))
	if err != nil {
		t.Fatal(err)
	}
	steps := func(r run) int {
		id := routineIDRe.FindString(r.todo.Routine)
		if id == "" {
			return 0
		}
		rt, err := store.Get(id)
		if err != nil {
			t.Errorf("%s: routine %s: %v", r.id, id, err)
			return 0
		}
		return len(rt.Steps)
	}
	var changed strings.Builder
	fmt.Fprintf(&changed, "\n| task type | pop-up run: verified done | executor calls | replayed steps | routine steps before → after | next clean run: executor calls | replayed |\n|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "\n| task type | goal | verified done | executor calls, run 1 … %d | runs 2–%d mean | ratio to run 1 | replayed steps, runs 2–%d mean |\n|---|---|---|---|---|---|---|\n", n, n, n)
	for _, tk := range tasks {
		var calls []string
		var lastRun run
		first, later, replayed, done := 0, 0, 0, 0
		for i := 0; i < n; i++ {
			r := runGoal(ctx, t, s, tk.goal, nil)
			ok, why := tk.check(s.Phones[0].State())
			if r.res.Status == workflows.GoalDone && ok {
				done++
			} else {
				t.Errorf("%s run %d (%s): %s (%s), phone: %s", tk.kind, i+1, r.id, r.res.Status, r.res.Reason, why)
			}
			lastRun = r
			c := r.executorCalls()
			calls = append(calls, strconv.Itoa(c))
			if i == 0 {
				first = c
			} else {
				later += c
				replayed += r.res.Usage.ReplayedSteps
			}
			t.Logf("%s run %d: %s, %d executor calls, %d replayed; routine: %s", tk.kind, i+1, r.res.Status, c, r.res.Usage.ReplayedSteps, r.todo.Routine)
		}
		// A changed screen: the app shows a pop-up the routine never saw.
		// The model takes over where the screen differs, and the
		// routine learns the extra step; the next clean run replays.
		before := 0
		popup := runGoal(ctx, t, s, tk.goal, func(p *phonesim.Phone) {
			before = steps(lastRun)
			if err := p.SetFault(phonesim.Fault{Kind: phonesim.FaultPopup}); err != nil {
				t.Fatal(err)
			}
		})
		ok, why := tk.check(s.Phones[0].State())
		if popup.res.Status != workflows.GoalDone || !ok {
			t.Errorf("%s pop-up run (%s): %s (%s), phone: %s", tk.kind, popup.id, popup.res.Status, popup.res.Reason, why)
		}
		after := steps(popup)
		clean := runGoal(ctx, t, s, tk.goal, nil)
		if ok, why := tk.check(s.Phones[0].State()); clean.res.Status != workflows.GoalDone || !ok {
			t.Errorf("%s clean run after the pop-up (%s): %s (%s), phone: %s", tk.kind, clean.id, clean.res.Status, clean.res.Reason, why)
		}
		t.Logf("%s pop-up run: %s, %d executor calls, %d replayed; routine: %s", tk.kind, popup.res.Status, popup.executorCalls(), popup.res.Usage.ReplayedSteps, popup.todo.Routine)
		t.Logf("%s clean run after it: %s, %d executor calls, %d replayed; routine: %s", tk.kind, clean.res.Status, clean.executorCalls(), clean.res.Usage.ReplayedSteps, clean.todo.Routine)
		fmt.Fprintf(&changed, "| %s | %t | %d | %d | %d → %d | %d | %d |\n", tk.kind, popup.res.Status == workflows.GoalDone && ok,
			popup.executorCalls(), popup.res.Usage.ReplayedSteps, before, after, clean.executorCalls(), clean.res.Usage.ReplayedSteps)

		mean := float64(later) / float64(n-1)
		ratio := "–"
		if first > 0 {
			ratio = fmt.Sprintf("%.0f%%", 100*mean/float64(first))
		}
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %.1f | %s | %.1f |\n", tk.kind, tk.goal, done, n, strings.Join(calls, " "),
			mean, ratio, float64(replayed)/float64(n-1))
	}
	t.Log(b.String() + changed.String())
}

var routineIDRe = regexp.MustCompile(`r-[0-9a-f]{12}`)
