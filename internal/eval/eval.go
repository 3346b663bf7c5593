// Package eval runs a goal set on fresh simulated phones and scores the
// outcomes against the simulator's state: achieved, false done (the goal
// said done but the phone does not show it, or the goal was impossible),
// false failed (a possible goal that ended failed), steps and model calls.
// The set is a JSONL file, one Case per line; the shipped set is Default.
// `starter eval` prints the table; docs/design.md §13 says what a verdict
// is.
package eval

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

//go:embed goals.jsonl
var defaultSet []byte

// Default returns the shipped goal set.
func Default() []Case {
	cs, err := Parse(bytes.NewReader(defaultSet), "goals.jsonl")
	if err != nil {
		panic(err) // TestDefaultSet keeps the embedded set valid
	}
	return cs
}

// Case is one goal of a set.
type Case struct {
	ID     string `json:"id"`
	Goal   string `json:"goal"`
	Lang   string `json:"lang"`   // en | zh
	App    string `json:"app"`    // the simulator app it exercises, or "none"
	Expect string `json:"expect"` // done | failed (impossible on this phone)
	Check  Check  `json:"check"`
	// Reply answers every question the goal asks (the planner's ask_user,
	// the executor's Take_over), as a person would with clarify; empty
	// means a question fails the case after a short wait.
	Reply string `json:"reply,omitempty"`
	// Fast marks the cases CI runs in `go test ./...`.
	Fast bool `json:"fast,omitempty"`
}

// Check is what the phone (or the goal's answer) must show at the end.
// Every field that is set must hold.
type Check struct {
	Toggles     map[string]bool       `json:"toggles,omitempty"` // wifi | bluetooth | airplane
	Brightness  *int                  `json:"brightness,omitempty"`
	Sent        *phonesim.SentMessage `json:"sent,omitempty"` // To, Text (Seq ignored)
	Alarm       *phonesim.Alarm       `json:"alarm,omitempty"`
	Note        *phonesim.Note        `json:"note,omitempty"`
	Screen      string                `json:"screen,omitempty"` // display name of the app in front
	Answer      []string              `json:"answer,omitempty"` // substrings of the response
	Reason      []string              `json:"reason,omitempty"` // substrings of the failure reason (any case)
	NothingSent bool                  `json:"nothing_sent,omitempty"`
}

// Parse reads a JSONL goal set; blank lines and lines starting with # are
// skipped. Errors name the line.
func Parse(r io.Reader, name string) ([]Case, error) {
	var out []Case
	ids := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var c Case
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v (each line is one JSON object: id, goal, lang, app, expect, check)", name, n, err)
		}
		switch {
		case c.ID == "" || strings.TrimSpace(c.Goal) == "":
			return nil, fmt.Errorf("%s:%d: id and goal are required", name, n)
		case c.Expect != workflows.GoalDone && c.Expect != workflows.GoalFailed:
			return nil, fmt.Errorf("%s:%d: expect is %q: use \"done\" or \"failed\"", name, n, c.Expect)
		case c.Lang != "en" && c.Lang != "zh":
			return nil, fmt.Errorf("%s:%d: lang is %q: use \"en\" or \"zh\"", name, n, c.Lang)
		}
		if prev, dup := ids[c.ID]; dup {
			return nil, fmt.Errorf("%s:%d: id %q already used on line %d", name, n, c.ID, prev)
		}
		ids[c.ID] = n
		for k := range c.Check.Toggles {
			if k != "wifi" && k != "bluetooth" && k != "airplane" {
				return nil, fmt.Errorf("%s:%d: toggle %q: use wifi, bluetooth or airplane", name, n, k)
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no goals", name)
	}
	return out, nil
}

// Load reads a goal set file.
func Load(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Holds reports whether the phone's state and the result satisfy the
// check, and if not, what is missing.
func (c Check) Holds(st phonesim.State, r workflows.GoalResult) (bool, string) {
	tog := map[string]bool{"wifi": st.Toggles.WiFi, "bluetooth": st.Toggles.Bluetooth, "airplane": st.Toggles.Airplane}
	keys := make([]string, 0, len(c.Toggles))
	for k := range c.Toggles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if tog[k] != c.Toggles[k] {
			return false, fmt.Sprintf("%s is %t, want %t", k, tog[k], c.Toggles[k])
		}
	}
	if c.Brightness != nil && st.Brightness != *c.Brightness {
		return false, fmt.Sprintf("brightness is %d%%, want %d%%", st.Brightness, *c.Brightness)
	}
	if m := c.Sent; m != nil {
		ok := false
		for _, s := range st.MessagesSent {
			ok = ok || s.To == m.To && s.Text == m.Text
		}
		if !ok {
			return false, fmt.Sprintf("no message %q to %s was sent (sent: %v)", m.Text, m.To, st.MessagesSent)
		}
	}
	if c.NothingSent && len(st.MessagesSent) > 0 {
		return false, fmt.Sprintf("messages were sent: %v", st.MessagesSent)
	}
	if a := c.Alarm; a != nil {
		ok := false
		for _, x := range st.Alarms {
			ok = ok || x.Time == a.Time && x.Label == a.Label
		}
		if !ok {
			return false, fmt.Sprintf("no alarm %s %q (alarms: %v)", a.Time, a.Label, st.Alarms)
		}
	}
	if n := c.Note; n != nil {
		ok := false
		for _, x := range st.Notes {
			ok = ok || x.Title == n.Title && (n.Body == "" || x.Body == n.Body)
		}
		if !ok {
			return false, fmt.Sprintf("no note %q with body %q (notes: %v)", n.Title, n.Body, st.Notes)
		}
	}
	if c.Screen != "" && st.Screen.App != c.Screen {
		return false, fmt.Sprintf("%s is in front, want %s", st.Screen.App, c.Screen)
	}
	for _, s := range c.Answer {
		if !strings.Contains(r.Response, s) {
			return false, fmt.Sprintf("the answer %q lacks %q", clip(r.Response, 200), s)
		}
	}
	for _, s := range c.Reason {
		if !strings.Contains(strings.ToLower(r.Reason), strings.ToLower(s)) {
			return false, fmt.Sprintf("the reason %q does not name %q", clip(r.Reason, 200), s)
		}
	}
	return true, ""
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Options configure one evaluation run.
type Options struct {
	Cases     []Case
	Mode      string  // workflows.ModeLayered (default), ModeSingle or ModeBare
	Seed      int64   // model server seed
	WrongTaps float64 // share of executor taps moved to a wrong point
	Misread   float64 // share of todos the executor misreads on purpose
	Naive     bool    // the executor does not repair its own mistakes
	Protocol  string  // executor request layout; empty = the configured default
	// Batch is how many goals run at once, each on its own phone; 0 = 8.
	Batch    int
	Progress func(string) // nil = silent
}

// Outcome is one case's result.
type Outcome struct {
	Case        Case
	Status      string // the goal's status
	Achieved    bool   // ended as expected and the check holds
	FalseDone   bool   // done, but impossible or the phone does not show it
	FalseFailed bool   // failed, but possible (expect done)
	Steps       int
	Why         string // why it was not achieved
	Response    string
	Reason      string
}

// Summary totals a run.
type Summary struct {
	Mode                       string
	Goals, Achieved, FalseDone int
	FalseFailed                int
	Steps                      int
	ModelCalls                 int64 // planner + executor + verifier requests answered
	Outcomes                   []Outcome
}

var seq atomic.Int64

// Run runs the cases on the stack: batches of fresh phones against a fresh
// model server per batch (seeded with Seed, so two modes see the same
// random source per batch), each goal on its own phone.
func Run(ctx context.Context, st *bench.Stack, o Options) (Summary, error) {
	if o.Mode == "" {
		o.Mode = workflows.ModeLayered
	}
	if o.Batch <= 0 {
		o.Batch = 8
	}
	sum := Summary{Mode: o.Mode}
	for start := 0; start < len(o.Cases); start += o.Batch {
		batch := o.Cases[start:min(start+o.Batch, len(o.Cases))]
		env, err := st.StartEnv(ctx, bench.EnvOptions{Phones: len(batch),
			Model: modelserver.Config{Seed: o.Seed + int64(start), RateWrongTap: o.WrongTaps, RateMisread: o.Misread, Naive: o.Naive}, Protocol: o.Protocol})
		if err != nil {
			return sum, err
		}
		outs := make([]Outcome, len(batch))
		var wg sync.WaitGroup
		for i, c := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i] = runCase(ctx, st.Client, env, i, c, o.Mode)
			}()
		}
		wg.Wait()
		sum.ModelCalls += env.Model.Stats().Completions
		env.Stop()
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		for _, out := range outs {
			sum.add(out)
		}
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("%s: %d of %d goals run", o.Mode, min(start+o.Batch, len(o.Cases)), len(o.Cases)))
		}
	}
	return sum, nil
}

func (s *Summary) add(o Outcome) {
	s.Goals++
	s.Steps += o.Steps
	if o.Achieved {
		s.Achieved++
	}
	if o.FalseDone {
		s.FalseDone++
	}
	if o.FalseFailed {
		s.FalseFailed++
	}
	s.Outcomes = append(s.Outcomes, o)
}

// goalTimeout bounds one goal; the offline models answer at once.
const goalTimeout = 10 * time.Minute

func runCase(ctx context.Context, c client.Client, env *bench.Env, i int, tc Case, mode string) Outcome {
	out := Outcome{Case: tc}
	id := fmt.Sprintf("eval-%s-%s-%d-%d", tc.ID, mode, time.Now().UnixNano()%1e9, seq.Add(1))
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue, WorkflowExecutionTimeout: goalTimeout},
		workflows.GoalWorkflow, workflows.GoalInput{Goal: tc.Goal, Device: env.Serials[i], Options: workflows.GoalOptions{Mode: mode, AutoApprove: true}})
	var r workflows.GoalResult
	if err == nil {
		stop := answerQuestions(ctx, c, id, tc.Reply)
		err = run.Get(ctx, &r)
		stop()
	}
	if err != nil {
		out.Status, out.Why = "error", err.Error()
		out.FalseFailed = tc.Expect == workflows.GoalDone
		return out
	}
	out.Status, out.Steps, out.Response, out.Reason = r.Status, r.Steps, r.Response, r.Reason
	holds, why := tc.Check.Holds(env.Phones[i].State(), r)
	switch {
	case r.Status == workflows.GoalDone && (tc.Expect != workflows.GoalDone || !holds):
		out.FalseDone = true
		out.Why = "done, but " + firstNonEmpty(why, "the goal is impossible on this phone")
	case r.Status != workflows.GoalDone && tc.Expect == workflows.GoalDone:
		out.FalseFailed = true
		out.Why = r.Status + ": " + r.Reason
	case !holds:
		out.Why = why
	default:
		out.Achieved = true
	}
	return out
}

// answerQuestions answers the goal's pending questions with reply until
// stop is called. Without a reply a pending question cancels the goal after
// a minute: nobody will answer it.
func answerQuestions(ctx context.Context, c client.Client, id, reply string) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var asked time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(300 * time.Millisecond):
			}
			v, err := c.QueryWorkflow(ctx, id, "", workflows.QueryStatus)
			var st workflows.Status
			if err != nil || v.Get(&st) != nil || st.PendingQuestion == "" {
				asked = time.Time{}
				continue
			}
			if reply == "" {
				if asked.IsZero() {
					asked = time.Now()
				} else if time.Since(asked) > time.Minute {
					_ = c.CancelWorkflow(ctx, id, "")
					return
				}
				continue
			}
			_ = c.SignalWorkflow(ctx, id, "", workflows.SignalClarify, reply)
			time.Sleep(time.Second) // let the goal take the answer before asking again
		}
	}()
	return func() { cancel(); <-done }
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Render writes the table of one or more summaries, then a line per goal
// that was not achieved.
func Render(w io.Writer, title string, sums ...Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", title)
	b.WriteString("| mode | goals | achieved | false done | false failed | steps | mean steps | model calls |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		mean := 0.0
		if s.Goals > 0 {
			mean = float64(s.Steps) / float64(s.Goals)
		}
		fmt.Fprintf(&b, "| %s | %d | %d (%.0f%%) | %d | %d | %d | %.1f | %d |\n", s.Mode, s.Goals, s.Achieved,
			pct(s.Achieved, s.Goals), s.FalseDone, s.FalseFailed, s.Steps, mean, s.ModelCalls)
	}
	for _, s := range sums {
		for _, o := range s.Outcomes {
			if !o.Achieved {
				fmt.Fprintf(&b, "\n- %s `%s` (%s, expect %s): %s", s.Mode, o.Case.ID, o.Status, o.Case.Expect, clip(o.Why, 300))
			}
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// ErrNoADB is returned when the adb binary is missing.
var ErrNoADB = bench.ErrNoADB

// StartStack starts the shared stack (embedded Temporal server, adb
// server) the runs use.
func StartStack(ctx context.Context, adbPath string, log *slog.Logger) (*bench.Stack, error) {
	st, err := bench.StartStack(ctx, adbPath, log)
	if errors.Is(err, bench.ErrNoADB) {
		return nil, ErrNoADB
	}
	return st, err
}
