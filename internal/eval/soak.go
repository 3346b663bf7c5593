package eval

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// A soak runs one task type again and again on one phone whose data grows
// (docs/design.md §9): every repetition must end verified done with its
// effect on the phone exactly once, and the steps a goal takes must not
// grow with the data.

// SoakKind is one task type of the eval, written as a goal for repetition
// k (1-based) and a count of that repetition's effect on the phone.
type SoakKind struct {
	Name string
	Goal func(k int) string
	// Effects counts the copies of repetition k's effect the phone holds:
	// 1 is right, 0 is a missing effect, more is a duplicate. Nil for a
	// task type whose effect is a state (a switch) rather than an item.
	Effects func(st phonesim.State, k int) int
	// Check is what the phone or the answer must show after repetition k.
	Check func(k int) Check
	// Targets is what repetition k may commit on; any other commit is a
	// wrong one. Nil: nothing.
	Targets func(k int) Targets
	// Items counts the phone's items of the kind (all notes, all alarms,
	// the messages in the conversation), so a soak can say the list grew
	// by exactly one a repetition. Nil for a state or a read.
	Items func(st phonesim.State) int
	// Like names the repetitions whose steps are compared with each
	// other: the same work on more data. Nil: every repetition is alike
	// (a new note each time); a kind whose goals differ in the work they
	// ask (brightness to 0% is nine taps from 90%, to 20% one from 10%)
	// compares goals of the same text only.
	Like func(k int) string
}

// countNotes, countAlarms and countToAlice are the Items of the soak's
// kinds that add to a list.
func countNotes(st phonesim.State) int  { return len(st.Notes) }
func countAlarms(st phonesim.State) int { return len(st.Alarms) }
func countToAlice(st phonesim.State) int {
	n := 0
	for _, m := range st.MessagesSent {
		if m.To == "Alice Chen" {
			n++
		}
	}
	return n
}

// soakAlarmTime is repetition k's alarm time: distinct for k up to 1440.
func soakAlarmTime(k int) string {
	m := (k*37 + 5*60) % (24 * 60)
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// SoakKinds are the task types the soak knows, by name: each eval app with
// a goal that can be repeated on the same phone.
var SoakKinds = map[string]SoakKind{
	"note": {Name: "note",
		Goal:    func(k int) string { return fmt.Sprintf("Create a note titled n%d with the text x", k) },
		Targets: func(k int) Targets { return Targets{Notes: []string{fmt.Sprintf("n%d", k)}} },
		Items:   countNotes,
		Effects: func(st phonesim.State, k int) int {
			n := 0
			for _, x := range st.Notes {
				if x.Title == fmt.Sprintf("n%d", k) {
					n++
				}
			}
			return n
		}},
	"alarm": {Name: "alarm",
		Goal:    func(k int) string { return fmt.Sprintf("Create an alarm at %s labelled a%d", soakAlarmTime(k), k) },
		Targets: func(k int) Targets { return Targets{NewAlarms: []string{soakAlarmTime(k)}} },
		Items:   countAlarms,
		Effects: func(st phonesim.State, k int) int {
			n := 0
			for _, x := range st.Alarms {
				if x.Time == soakAlarmTime(k) && x.Label == fmt.Sprintf("a%d", k) {
					n++
				}
			}
			return n
		}},
	"message": {Name: "message",
		Goal:    func(k int) string { return fmt.Sprintf("Send Alice a message saying m%d", k) },
		Targets: func(int) Targets { return Targets{Recipients: []string{"Alice Chen"}} },
		Items:   countToAlice,
		Effects: func(st phonesim.State, k int) int {
			n := 0
			for _, x := range st.MessagesSent {
				if x.To == "Alice Chen" && x.Text == fmt.Sprintf("m%d", k) {
					n++
				}
			}
			return n
		}},
	"toggle": {Name: "toggle",
		Goal: func(k int) string { return "Turn " + onOff(k%2 == 1) + " Bluetooth" },
		Like: func(k int) string { return "Turn " + onOff(k%2 == 1) + " Bluetooth" },
		Check: func(k int) Check {
			return Check{Toggles: map[string]bool{"bluetooth": k%2 == 1}}
		}},
	"brightness": {Name: "brightness",
		Goal: func(k int) string { return fmt.Sprintf("Set brightness to %d%%", 10*(k%10)) },
		Like: func(k int) string { return fmt.Sprintf("Set brightness to %d%%", 10*(k%10)) },
		Check: func(k int) Check {
			b := 10 * (k % 10)
			return Check{Brightness: &b}
		}},
	"read": {Name: "read",
		Goal:  func(int) string { return "Read the Android version" },
		Check: func(int) Check { return Check{Answer: []string{"14"}} }},
	"contact": {Name: "contact",
		Goal:  func(int) string { return "Read Zhang San's phone number" },
		Check: func(int) Check { return Check{Answer: []string{"+86 138 0000 0003"}} }},
	"open": {Name: "open",
		Goal:  func(int) string { return "Open Clock, then go back to the home screen" },
		Check: func(int) Check { return Check{Screen: "Launcher"} }},
}

// SoakOptions configure a soak.
type SoakOptions struct {
	Kinds []string // names in SoakKinds; each runs on a phone of its own
	Reps  int      // repetitions of each kind
	// RepsOf, when it names a kind, is that kind's repetitions instead.
	RepsOf map[string]int
	Seed   int64
	// Prefill, when set, fills each phone before the first repetition
	// (long lists from the start).
	Prefill *phonesim.Fill
	// Skin is the look of every phone the soak starts
	// (docs/phones.md#skins); "" takes the stack's, the configured sim.skin.
	Skin phonesim.Skin
	// Progress, when set, is told of every repetition.
	Progress func(string)
}

// SoakRep is one repetition's outcome.
type SoakRep struct {
	Rep        int
	Goal       string
	Status     string
	Steps      int
	ModelCalls int64
	Effects    int // copies of the repetition's effect; -1 when not counted
	Why        string
	// Like is the class of repetitions its steps are compared within
	// (SoakKind.Like); "" when all are alike.
	Like string
}

// SoakRun is one kind's repetitions.
type SoakRun struct {
	Kind       string
	Reps       []SoakRep
	Done       int
	Duplicates int // repetitions whose effect is on the phone more than once
	Missing    int // repetitions whose effect is not on the phone
	// Lost counts effects of earlier repetitions that went away or
	// multiplied later on.
	Lost int
	// ItemsBefore and ItemsAfter are the kind's items on the phone before
	// the first repetition and after the last (-1: not counted).
	ItemsBefore, ItemsAfter int
}

// Soak runs the kinds side by side, each on its own phone and model
// server, its repetitions one after the other.
func Soak(ctx context.Context, st *bench.Stack, o SoakOptions) ([]SoakRun, error) {
	runs := make([]SoakRun, len(o.Kinds))
	errs := make([]error, len(o.Kinds))
	var wg sync.WaitGroup
	for i, name := range o.Kinds {
		kind, ok := SoakKinds[name]
		if !ok {
			return nil, fmt.Errorf("soak: unknown task type %q: use one of note, alarm, message, toggle, brightness, read, contact, open", name)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i], errs[i] = soakKind(ctx, st, kind, o, int64(i))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return runs, err
		}
	}
	return runs, nil
}

func soakKind(ctx context.Context, st *bench.Stack, kind SoakKind, o SoakOptions, n int64) (run SoakRun, err error) {
	run = SoakRun{Kind: kind.Name, ItemsBefore: -1, ItemsAfter: -1}
	reps := o.Reps
	if r, ok := o.RepsOf[kind.Name]; ok {
		reps = r
	}
	env, err := st.StartEnv(ctx, bench.EnvOptions{Phones: 1, Model: modelserver.Config{Seed: o.Seed + n}, Skin: o.Skin})
	if err != nil {
		return run, err
	}
	defer env.Stop()
	phone := env.Phones[0]
	if o.Prefill != nil {
		phone.Fill(*o.Prefill)
	}
	if kind.Items != nil {
		run.ItemsBefore = kind.Items(phone.State())
		defer func() { run.ItemsAfter = kind.Items(phone.State()) }()
	}
	for k := 1; k <= reps; k++ {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		before := env.Model.Stats().Completions
		c := Case{ID: fmt.Sprintf("soak-%s-%d", kind.Name, k), Goal: kind.Goal(k), Lang: "en", Expect: workflows.GoalDone}
		if kind.Check != nil {
			c.Check = kind.Check(k)
		}
		task := c.Task()
		if kind.Targets != nil {
			task.Targets = kind.Targets(k)
		}
		out := runTask(ctx, st.Client, env, 0, task, Options{Mode: workflows.ModeLayered}.goalOptions(), 20*time.Second)
		rep := SoakRep{Rep: k, Goal: c.Goal, Status: out.Status, Steps: out.Steps, Effects: -1,
			ModelCalls: env.Model.Stats().Completions - before, Why: out.Why}
		if kind.Like != nil {
			rep.Like = kind.Like(k)
		}
		state := phone.State()
		if kind.Effects != nil {
			rep.Effects = kind.Effects(state, k)
			switch {
			case rep.Effects == 0:
				run.Missing++
				rep.Why = strings.TrimSpace(rep.Why + " effect missing")
			case rep.Effects > 1:
				run.Duplicates++
				rep.Why = strings.TrimSpace(fmt.Sprintf("%s effect %d times", rep.Why, rep.Effects))
			}
			for j := 1; j < k; j++ {
				if kind.Effects(state, j) != 1 && run.Reps[j-1].Effects == 1 {
					run.Lost++
				}
			}
		}
		if out.Status == workflows.GoalDone && out.Achieved {
			run.Done++
		}
		run.Reps = append(run.Reps, rep)
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("soak %s %d/%d: %s, %d steps, %d model calls, effects %d %s", kind.Name, k, reps,
				out.Status, out.Steps, rep.ModelCalls, rep.Effects, rep.Why))
		}
	}
	return run, nil
}

// RenderSoak writes the soak's table: one row per repetition with the
// steps and model calls of each kind, then the totals.
func RenderSoak(w io.Writer, runs []SoakRun) error {
	var b strings.Builder
	b.WriteString("| repetition |")
	for _, r := range runs {
		fmt.Fprintf(&b, " %s steps | %s model calls |", r.Kind, r.Kind)
	}
	b.WriteString("\n|---|")
	for range runs {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	reps := 0
	for _, r := range runs {
		reps = max(reps, len(r.Reps))
	}
	for k := range reps {
		fmt.Fprintf(&b, "| %d |", k+1)
		for _, r := range runs {
			if k >= len(r.Reps) {
				b.WriteString(" | |")
				continue
			}
			x := r.Reps[k]
			mark := ""
			if x.Status != workflows.GoalDone {
				mark = " (" + x.Status + ")"
			}
			fmt.Fprintf(&b, " %d%s | %d |", x.Steps, mark, x.ModelCalls)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n| task type | repetitions | verified done | duplicate effects | missing effects | earlier effects lost | items before → after | steps first → last |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range runs {
		first, last := 0, 0
		if len(r.Reps) > 0 {
			first, last = r.Reps[0].Steps, r.Reps[len(r.Reps)-1].Steps
		}
		items := "-"
		if r.ItemsBefore >= 0 {
			items = fmt.Sprintf("%d → %d", r.ItemsBefore, r.ItemsAfter)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %s | %d → %d |\n", r.Kind, len(r.Reps), r.Done, r.Duplicates, r.Missing, r.Lost, items, first, last)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// StepsGrew says, for each class of alike repetitions (SoakRep.Like) that
// ran at least four times, whether its last two took more steps than its
// first two: the data grew and so did the work. Goals that ask for
// different work are never compared with each other.
func (r SoakRun) StepsGrew() []string {
	var classes []string
	of := map[string][]SoakRep{}
	for _, x := range r.Reps {
		if _, ok := of[x.Like]; !ok {
			classes = append(classes, x.Like)
		}
		of[x.Like] = append(of[x.Like], x)
	}
	var out []string
	for _, c := range classes {
		reps := of[c]
		n := len(reps)
		if n < 4 {
			continue
		}
		first := max(reps[0].Steps, reps[1].Steps)
		last := max(reps[n-1].Steps, reps[n-2].Steps)
		if last > first {
			what := r.Kind
			if c != "" {
				what += " (" + c + ")"
			}
			out = append(out, fmt.Sprintf("%s: steps grew with the data: %d in repetitions %d and %d, %d in %d and %d",
				what, first, reps[0].Rep, reps[1].Rep, last, reps[n-2].Rep, reps[n-1].Rep))
		}
	}
	return out
}
