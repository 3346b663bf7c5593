package progress

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// script is the sequence of snapshots of a showcase goal with a replan and
// a question.
func script() []Snapshot {
	todos := func(st ...string) []Todo {
		texts := []string{"Turn on Wi-Fi", "Read the time of the first alarm in Clock", "Send it to Alice in Messages"}
		var out []Todo
		for i, s := range st {
			out = append(out, Todo{Text: texts[i], Status: s})
		}
		return out
	}
	goal := "Turn on Wi-Fi, read the first alarm and send it to Alice"
	s := []Snapshot{
		{GoalID: "goal-abc", Goal: goal, Phase: "planning", MaxSteps: 100},
		{GoalID: "goal-abc", Goal: goal, Phase: "running", MaxSteps: 100, CurrentTodo: 1, Todos: todos("running", "pending", "pending")},
		{GoalID: "goal-abc", Goal: goal, Phase: "running", Steps: 2, MaxSteps: 100, CurrentTodo: 1, Todos: todos("running", "pending", "pending"), Action: `do(action="Launch", app="Settings")`},
		{GoalID: "goal-abc", Goal: goal, Phase: "running", Steps: 4, MaxSteps: 100, CurrentTodo: 1, Todos: todos("running", "pending", "pending"), Action: `do(action="Tap", element=[500,212])`},
	}
	t := todos("done", "running", "pending")
	t[0].Steps, t[0].Result = 5, "Wi-Fi is on"
	s = append(s, Snapshot{GoalID: "goal-abc", Goal: goal, Phase: "running", Steps: 6, MaxSteps: 100, CurrentTodo: 2, Todos: t, Action: `do(action="Launch", app="Clock")`})
	t2 := append([]Todo(nil), t...)
	t2[1] = Todo{Text: t[1].Text, Status: "done", Steps: 3, Result: "07:00"}
	t2[2] = Todo{Text: t[2].Text, Status: "pending"}
	s = append(s, Snapshot{GoalID: "goal-abc", Goal: goal, Phase: "waiting_user", Steps: 10, MaxSteps: 100, Todos: t2, Action: `do(action="Launch", app="Clock")`, Question: "Which Alice: Alice Chen or Alice Wu?"})
	t3 := append([]Todo(nil), t2...)
	t3[2].Status = "done"
	t3[2].Steps = 6
	s = append(s, Snapshot{GoalID: "goal-abc", Goal: goal, Phase: "done", Steps: 17, MaxSteps: 100, Todos: t3, Action: `finish(message="sent")`})
	return s
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden output:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestPlainGolden(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, false)
	for _, s := range script() {
		if err := r.Update(s); err != nil {
			t.Fatal(err)
		}
		// Polling the same state again prints nothing new.
		n := b.Len()
		if err := r.Update(s); err != nil {
			t.Fatal(err)
		}
		if b.Len() != n {
			t.Fatalf("unchanged snapshot printed again: %q", b.String()[n:])
		}
	}
	if strings.Contains(b.String(), "\x1b") {
		t.Fatal("plain output contains escape sequences")
	}
	golden(t, "plain.golden", b.Bytes())
}

func TestTTYRedrawsInPlace(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, true)
	sc := script()
	if err := r.Update(sc[0]); err != nil {
		t.Fatal(err)
	}
	first := b.String()
	if strings.Contains(first, "\x1b[") {
		t.Fatalf("first draw must not move the cursor: %q", first)
	}
	b.Reset()
	if err := r.Update(sc[1]); err != nil {
		t.Fatal(err)
	}
	// The first block had 2 lines (header, goal): the redraw moves up 2.
	if !strings.HasPrefix(b.String(), "\x1b[2F\x1b[J") {
		t.Fatalf("redraw does not clear the previous block: %q", b.String())
	}
	want := strings.Join(Block(sc[1]), "\n") + "\n"
	if got := strings.TrimPrefix(b.String(), "\x1b[2F\x1b[J"); got != want {
		t.Fatalf("redraw = %q, want %q", got, want)
	}
	// Text printed below the view is kept: the next redraw starts fresh.
	b.Reset()
	_ = r.Print("hello")
	_ = r.Update(sc[2])
	if strings.Contains(b.String(), "\x1b[") {
		t.Fatalf("redraw after Print erased the printed line: %q", b.String())
	}
}

func TestBlockGolden(t *testing.T) {
	sc := script()
	var b bytes.Buffer
	for _, l := range Block(sc[5]) {
		b.WriteString(l + "\n")
	}
	golden(t, "block.golden", b.Bytes())
}

func TestSummaryAndHints(t *testing.T) {
	sc := script()
	last := sc[len(sc)-1]
	lines := Summary(Result{GoalID: "goal-abc", Status: "done", Steps: 17, Todos: last.Todos, Response: "Sent 07:00 to Alice"})
	got := strings.Join(lines, "\n")
	for _, want := range []string{"goal-abc done after 17 steps", "[x] 1. Turn on Wi-Fi  (done, 5 steps) → Wi-Fi is on", "result: Sent 07:00 to Alice"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	h := strings.Join(AnswerHints(sc[5]), "\n")
	for _, want := range []string{`starter clarify goal-abc "<your answer>"`, `temporal workflow signal -w goal-abc --name clarify --input '"<your answer>"'`} {
		if !strings.Contains(h, want) {
			t.Errorf("hints lack %q:\n%s", want, h)
		}
	}
	if AnswerHints(sc[0]) != nil {
		t.Error("hints for a goal that waits for nothing")
	}
	a := strings.Join(AnswerHints(Snapshot{GoalID: "g", Approval: "Tap Pay"}), "\n")
	if !strings.Contains(a, "starter approve g") || !strings.Contains(a, `--name approve --input '{"approved":true}'`) {
		t.Errorf("approval hints: %s", a)
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\n  b\tc", 10); got != "a b c" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine("张三李四王五", 4); got != "张三李…" {
		t.Errorf("oneLine cut = %q", got)
	}
}

func TestPlainStepsWithoutAction(t *testing.T) {
	a := Snapshot{GoalID: "g", Phase: "running", Steps: 1, MaxSteps: 10, CurrentTodo: 2}
	b := a
	b.Steps = 4
	if got := Diff(&a, b); len(got) != 1 || got[0] != "[g] step 4/10 (todo 2)" {
		t.Fatalf("Diff = %q", got)
	}
	if got := Diff(&b, b); len(got) != 0 {
		t.Fatalf("unchanged Diff = %q", got)
	}
}

func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if IsTerminal(null) {
		t.Error("/dev/null counted as a terminal")
	}
	if IsTerminal(nil) {
		t.Error("nil counted as a terminal")
	}
}

func TestSingularStepAndThinking(t *testing.T) {
	lines := Summary(Result{GoalID: "g", Status: "done", Steps: 1, Todos: []Todo{{Text: "a", Status: "done", Steps: 1}}})
	if lines[0] != "g done after 1 step" || !strings.Contains(lines[1], "(done, 1 step)") {
		t.Fatalf("summary = %q", lines)
	}
	s := Snapshot{GoalID: "g", Phase: "running", Steps: 3, MaxSteps: 10, CurrentTodo: 1,
		Todos: []Todo{{Text: "a", Status: "running", Steps: 1}}, Action: "Tap [1,2] → ok", Thinking: "the switch is off"}
	got := Diff(nil, s)
	if l := got[len(got)-1]; l != "[g] step 3/10 (todo 1): Tap [1,2] → ok — the switch is off" {
		t.Fatalf("step line = %q", l)
	}
	b := Block(s)
	if !strings.Contains(strings.Join(b, "\n"), "(1 step)") || b[len(b)-1] != "  thinking: the switch is off" {
		t.Fatalf("block = %q", b)
	}
	s.Routine = `replayed step 4/9 of routine r-0123456789ab "send {1} a message: {2}"`
	if b := Block(s); b[len(b)-1] != "  routine: "+s.Routine {
		t.Fatalf("block with a routine = %q", b)
	}
}

func TestColorAndClear(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, true)
	r.SetColor(true)
	s := Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{{Text: "a", Status: "done"}, {Text: "b", Status: "running"}}}
	if err := r.Update(s); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, ansiGreen+"  [x] 1. a"+ansiReset) || !strings.Contains(out, ansiCyan+"  [>] 2. b") {
		t.Fatalf("coloured block = %q", out)
	}
	buf.Reset()
	if err := r.Clear(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "\x1b[3F\x1b[J" {
		t.Fatalf("clear wrote %q, want the 3 drawn lines erased", buf.String())
	}
	// Plain output never carries colour.
	buf.Reset()
	p := New(&buf, false)
	p.SetColor(true)
	_ = p.Update(s)
	if strings.Contains(buf.String(), "\x1b[") {
		t.Fatalf("plain output has escapes: %q", buf.String())
	}
}

// A failed goal's summary never reads as a result: the planner's closing
// words, "Done: …" included, come after the reason under their own label.
func TestFailedSummaryHasNoResult(t *testing.T) {
	lines := Summary(Result{GoalID: "g", Status: "failed", Steps: 4, Response: "Done: sent hi to Alice.",
		Reason: "not every todo was done: todo 1 failed", NextStep: "run it again"})
	got := strings.Join(lines, "\n")
	if strings.Contains(got, "result:") || strings.Contains(got, "\nDone:") {
		t.Fatalf("failed goal summary reads as a result:\n%s", got)
	}
	r, a := slices.Index(lines, "reason: not every todo was done: todo 1 failed"), slices.Index(lines, "planner's answer: Done: sent hi to Alice.")
	if r < 0 || a < r {
		t.Fatalf("want the reason, then the planner's answer:\n%s", got)
	}
}

// A todo that is already running when it first shows up (a replan and its
// first todo between two polls, the first poll of `status -f`) is said to
// run, as one that changes from pending is.
func TestDiffSaysNewTodoRuns(t *testing.T) {
	a := Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{{Text: "a", Status: "running"}}}
	b := Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{{Text: "a", Status: "done"}, {Text: "b", Status: "running"}}}
	for _, c := range []struct {
		prev *Snapshot
		s    Snapshot
		want string
	}{
		{nil, a, "[g] todo 1 running: a"},
		{&a, b, "[g] todo 2 running: b"},
	} {
		got := Diff(c.prev, c.s)
		if !slices.Contains(got, c.want) {
			t.Errorf("Diff lacks %q:\n%s", c.want, strings.Join(got, "\n"))
		}
	}
	if got := Diff(nil, Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{{Text: "a", Status: "pending"}}}); slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "todo 1 pending") }) {
		t.Errorf("a pending todo is announced beyond the plan: %v", got)
	}
}

func TestPlanLineGrammar(t *testing.T) {
	one := Diff(nil, Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{{Text: "Open Clock", Status: "pending"}}})
	two := Diff(nil, Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{{Text: "a", Status: "pending"}, {Text: "b", Status: "pending"}}})
	if !slices.Contains(one, "[g] plan (1 todo):") || !slices.Contains(two, "[g] plan (2 todos):") {
		t.Fatalf("plan lines:\n%q\n%q", one, two)
	}
}
