package progress

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Todo is one line of the checklist.
type Todo struct {
	Text   string `json:"text"`
	Status string `json:"status"` // pending, running, done, failed, skipped, cancelled
	Steps  int    `json:"steps"`
	Result string `json:"result,omitempty"`
}

// Snapshot is what the view shows at one moment.
type Snapshot struct {
	GoalID      string
	Goal        string
	Phase       string // planning, running, paused, waiting_user, done, failed, cancelled
	Steps       int
	MaxSteps    int
	CurrentTodo int // 1-based index of the running todo; 0 = none
	Todos       []Todo
	Action      string // the latest executor action and its result ("Tap [500,212] → ok")
	Thinking    string // first line of the executor's latest reasoning
	Routine     string // the running todo's learned routine: "replayed step 4/9 of routine r-…"
	Question    string // pending clarification question
	Approval    string // pending sensitive action that needs approve/deny
	WaitingFor  string // e.g. "device busy: held by goal-x"
	// Replans counts the replanner's new plans; ReplanKept says the last
	// one left the plan unchanged.
	Replans    int
	ReplanKept bool
}

// Renderer draws snapshots to a writer. It is not safe for concurrent use.
type Renderer struct {
	w     io.Writer
	tty   bool
	color bool
	lines int   // lines of the block drawn last (TTY mode)
	drawn []int // the cells of each of those lines
	width func() int
	prev  *Snapshot // last snapshot seen (plain mode)
}

// New returns a renderer writing to w. With tty set it redraws a block in
// place; otherwise it prints one line per change.
func New(w io.Writer, tty bool) *Renderer {
	return &Renderer{w: w, tty: tty}
}

// SetColor turns ANSI colours on or off in the redrawn view (TTY mode
// only; plain lines never carry colour). The CLI turns them on for a
// terminal unless NO_COLOR is set.
func (r *Renderer) SetColor(on bool) { r.color = on && r.tty }

// SetWidth gives the renderer the terminal's width, measured at each
// redraw (TTY mode): lines are clipped to it and the old view is erased by
// the screen rows it took.
func (r *Renderer) SetWidth(f func() int) { r.width = f }

// up is the escape sequence that moves to the first row of the block drawn
// last and clears from there to the end of the screen.
func (r *Renderer) up(w int) string {
	n := rows(r.drawn, w)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\x1b[%dF\x1b[J", n)
}

func (r *Renderer) measure() int {
	if r.width == nil {
		return 0
	}
	return r.width()
}

// Clear erases the block drawn last (TTY mode), so a closing summary that
// repeats the checklist is not printed below a second copy of it.
func (r *Renderer) Clear() error {
	if !r.tty || r.lines == 0 {
		return nil
	}
	_, err := io.WriteString(r.w, r.up(r.measure()))
	r.lines, r.drawn = 0, nil
	return err
}

// IsTerminal reports whether f is a terminal, which is how the CLI picks
// between the redrawn view and plain lines, and whether it may read typed
// answers. (/dev/null is a character device but not a terminal.)
func IsTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(int(f.Fd()))
}

// Update shows s.
func (r *Renderer) Update(s Snapshot) error {
	if r.tty {
		return r.redraw(s)
	}
	lines := Diff(r.prev, s)
	cp := s
	cp.Todos = append([]Todo(nil), s.Todos...)
	r.prev = &cp
	for _, l := range lines {
		if _, err := fmt.Fprintln(r.w, l); err != nil {
			return err
		}
	}
	return nil
}

// Done leaves the view in place so that following output starts on a fresh
// line below it (TTY mode); it is a no-op in plain mode.
func (r *Renderer) Done() {
	r.lines, r.drawn = 0, nil
}

// Print writes a line of text below the view; the next Update redraws the
// view beneath it.
func (r *Renderer) Print(line string) error {
	r.lines, r.drawn = 0, nil
	_, err := fmt.Fprintln(r.w, line)
	return err
}

func (r *Renderer) redraw(s Snapshot) error {
	var b strings.Builder
	w := r.measure()
	// Move to the first row of the previous block and clear to the end of
	// the screen.
	b.WriteString(r.up(w))
	block := Block(s)
	r.drawn = r.drawn[:0]
	for i, l := range block {
		// One column is kept free: some terminals wrap a line that fills
		// the last column.
		block[i] = clip(l, w-1)
		r.drawn = append(r.drawn, cells(block[i]))
	}
	if r.color {
		block = colorize(block, s)
	}
	for _, l := range block {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	r.lines = len(block)
	_, err := io.WriteString(r.w, b.String())
	return err
}

// Mark returns the checklist mark of a todo status.
func Mark(status string) string {
	switch status {
	case "done":
		return "[x]"
	case "running":
		return "[>]"
	case "failed":
		return "[!]"
	case "skipped":
		return "[-]"
	case "cancelled":
		return "[~]"
	}
	return "[ ]"
}

// Block returns the lines of the full view of s, as drawn on a terminal.
func Block(s Snapshot) []string {
	var out []string
	head := fmt.Sprintf("%s  %s", s.GoalID, s.Phase)
	if s.MaxSteps > 0 {
		head += fmt.Sprintf("  step %d/%d", s.Steps, s.MaxSteps)
	} else {
		head += fmt.Sprintf("  step %d", s.Steps)
	}
	out = append(out, head)
	if s.Goal != "" {
		out = append(out, "goal: "+oneLine(s.Goal, 100))
	}
	for i, t := range s.Todos {
		l := fmt.Sprintf("  %s %d. %s", Mark(t.Status), i+1, oneLine(t.Text, 80))
		if t.Steps > 0 {
			l += "  (" + Plural(t.Steps, "step") + ")"
		}
		out = append(out, l)
	}
	if s.Action != "" {
		out = append(out, "  action: "+oneLine(s.Action, 100))
	}
	if s.Thinking != "" {
		out = append(out, "  thinking: "+oneLine(s.Thinking, 100))
	}
	if s.Routine != "" {
		out = append(out, "  routine: "+oneLine(s.Routine, 200))
	}
	if s.WaitingFor != "" {
		out = append(out, "  waiting: "+oneLine(s.WaitingFor, 400)) // advice whole; a live view clips to its width
	}
	if s.Question != "" {
		out = append(out, "  question: "+oneLine(s.Question, 200))
	}
	if s.Approval != "" {
		out = append(out, "  needs approval: "+oneLine(s.Approval, 200))
	}
	return out
}

// Diff returns the plain lines that describe what changed from prev to s;
// with prev nil it describes s from scratch.
func Diff(prev *Snapshot, s Snapshot) []string {
	var out []string
	p := Snapshot{}
	if prev != nil {
		p = *prev
	}
	tag := "[" + s.GoalID + "] "
	final := isFinalPhase(s.Phase)
	if len(s.Todos) > 0 && !sameTexts(p.Todos, s.Todos) {
		out = append(out, fmt.Sprintf("%splan (%s):", tag, Plural(len(s.Todos), "todo")))
		for i, t := range s.Todos {
			out = append(out, fmt.Sprintf("%s  %s %d. %s", tag, Mark(t.Status), i+1, oneLine(t.Text, 100)))
		}
	}
	// Ends first, then the replan that answered them, then the todo that
	// started after it.
	for _, starting := range []bool{false, true} {
		for i, t := range s.Todos {
			if (t.Status == "running") != starting {
				continue
			}
			old := ""
			if i < len(p.Todos) && p.Todos[i].Text == t.Text {
				old = p.Todos[i].Status
			} else if t.Status != "running" {
				// A new todo: its status is in the plan listing above. One
				// already running (a replan and its first todo between two
				// polls, or the first poll of `status -f`) is said to run.
				continue
			}
			if t.Status == old {
				continue
			}
			l := fmt.Sprintf("%stodo %d %s: %s", tag, i+1, t.Status, oneLine(t.Text, 100))
			if t.Status != "running" && t.Status != "pending" {
				l += " (" + Plural(t.Steps, "step") + ")"
				if t.Result != "" {
					l += " → " + oneLine(t.Result, 120)
				}
			}
			out = append(out, l)
		}
		if !starting && prev != nil && s.Replans > p.Replans && s.ReplanKept {
			// A replan that kept the plan changes no todo line: say it ran,
			// after the todo whose end it answered.
			out = append(out, fmt.Sprintf("%sreplanned: plan unchanged (%s left)", tag, Plural(leftCount(s.Todos), "todo")))
		}
	}
	// The phase follows the todo lines of the same moment: a goal that
	// waits for a person after its todo ended says so after that todo.
	if s.Phase != p.Phase && !final {
		out = append(out, tag+"phase "+s.Phase)
	}
	switch {
	case final:
		// The goal has ended: no more step lines.
	case s.Action != "" && s.Action != p.Action:
		l := fmt.Sprintf("%sstep %s", tag, stepText(s))
		if s.CurrentTodo > 0 {
			l += fmt.Sprintf(" (todo %d)", s.CurrentTodo)
		}
		l += ": " + oneLine(s.Action, 120)
		if s.Thinking != "" {
			l += " — " + oneLine(s.Thinking, 100)
		}
		out = append(out, l)
	case s.Action == "" && s.Steps != p.Steps && prev != nil && s.CurrentTodo > 0:
		// No action text to show: say that steps are being taken.
		out = append(out, fmt.Sprintf("%sstep %s (todo %d)", tag, stepText(s), s.CurrentTodo))
	}
	if s.WaitingFor != p.WaitingFor && s.WaitingFor != "" {
		out = append(out, tag+"waiting: "+oneLine(s.WaitingFor, 120))
	}
	if s.Question != p.Question && s.Question != "" {
		out = append(out, tag+"question: "+oneLine(s.Question, 200))
	}
	if s.Approval != p.Approval && s.Approval != "" {
		out = append(out, tag+"needs approval: "+oneLine(s.Approval, 200))
	}
	if s.Phase != p.Phase && final {
		// The end comes after the last todo's outcome.
		out = append(out, tag+"phase "+s.Phase)
	}
	return out
}

func isFinalPhase(p string) bool { return p == "done" || p == "failed" || p == "cancelled" }

func stepText(s Snapshot) string {
	if s.MaxSteps > 0 {
		return fmt.Sprintf("%d/%d", s.Steps, s.MaxSteps)
	}
	return fmt.Sprint(s.Steps)
}

func sameTexts(a, b []Todo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Text != b[i].Text {
			return false
		}
	}
	return true
}

// oneLine flattens whitespace and cuts s to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Plural writes a count with its noun: "1 step", "3 steps".
func Plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// ANSI colours of the redrawn view.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

// colorize colours the lines of Block(s): the head bold, each todo line
// by its status, the question and approval lines yellow.
func colorize(lines []string, s Snapshot) []string {
	out := make([]string, len(lines))
	copy(out, lines)
	paint := func(i int, c string) { out[i] = c + out[i] + ansiReset }
	paint(0, ansiBold)
	first := 1
	if s.Goal != "" {
		first = 2
	}
	for i, t := range s.Todos {
		if first+i >= len(out) {
			break
		}
		switch t.Status {
		case "done":
			paint(first+i, ansiGreen)
		case "running":
			paint(first+i, ansiCyan)
		case "failed", "stuck", "out_of_budget":
			paint(first+i, ansiRed)
		case "skipped", "cancelled":
			paint(first+i, ansiDim)
		}
	}
	for i := first + len(s.Todos); i < len(out); i++ {
		switch {
		case strings.HasPrefix(out[i], "  question:"), strings.HasPrefix(out[i], "  needs approval:"), strings.HasPrefix(out[i], "  waiting:"):
			paint(i, ansiYellow)
		case strings.HasPrefix(out[i], "  thinking:"):
			paint(i, ansiDim)
		}
	}
	return out
}

// leftCount is how many todos have not ended (running or not started).
func leftCount(todos []Todo) int {
	n := 0
	for _, t := range todos {
		if t.Status == "pending" || t.Status == "running" {
			n++
		}
	}
	return n
}
