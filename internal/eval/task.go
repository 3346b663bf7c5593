package eval

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Task is one goal the runner starts on a fresh phone: a line of a fixed
// set (a Case) or a task drawn from a template of the generated suite.
type Task struct {
	ID       string
	Template string // the template it was drawn from; the case id for a fixed set
	Phrasing string // the phrasing's kind (see Kinds); "fixed" for a fixed set
	Goal     string
	Lang     string // en | zh
	App      string // the simulator app it exercises, or "none"
	// Feasible says the phone can do it; an infeasible task must end
	// failed or asked, never done.
	Feasible bool
	// FeasibleOn, when set, decides Feasible by the phones' skin before
	// the task runs (Template.FeasibleOn); on a skin where it is
	// infeasible, Check is not applied.
	FeasibleOn func(phonesim.Skin) bool
	// Reply answers every question the goal asks; empty means a question
	// is left unanswered and the task counts as asked.
	Reply string
	// AskedRight, for an infeasible task that only the person can unblock
	// (a sign-in with their own credentials, money moved from their
	// account), is the question that is its right end: the goal that asks
	// it and is left unanswered did what the product's rules want
	// (docs/design.md §9: never guess, ask), and is achieved. Any other
	// unanswered question stays "asked".
	AskedRight *regexp.Regexp
	// Check is the predicate on the phone's end state and the goal's
	// result, written from the task's parameters; nil holds always.
	Check func(st phonesim.State, r workflows.GoalResult) (bool, string)
	// Targets is what the task may commit on; any other commit is a wrong
	// commit action.
	Targets Targets
	// Setup prepares the fresh phone before the goal starts (a fixed
	// set's Case.Before); nil leaves it as it is.
	Setup func(p *phonesim.Phone) error
	// SendsNothing are message texts the executor persona does not send
	// (modelserver.Config.SendsNothing).
	SendsNothing []string
}

// Targets names what a task may change irreversibly: the people it may
// message, the notes it may create or change (by title), the alarms it may
// create and the existing alarms it may switch (by "HH:MM" time).
type Targets struct {
	Recipients []string
	Notes      []string
	NewAlarms  []string
	Alarms     []string
}

// WrongCommits compares the phone before and after a task and lists every
// commit (a message sent, a note saved, an alarm created, switched or deleted) on a
// target the task never named.
func WrongCommits(before, after phonesim.State, t Targets) []string {
	var out []string
	for _, m := range after.MessagesSent[min(len(before.MessagesSent), len(after.MessagesSent)):] {
		if !slices.Contains(t.Recipients, m.To) {
			out = append(out, fmt.Sprintf("sent %q to %s", clip(m.Text, 60), m.To))
		}
	}
	for i, n := range after.Notes {
		switch {
		case i >= len(before.Notes):
			if !slices.Contains(t.Notes, n.Title) {
				out = append(out, fmt.Sprintf("saved a new note titled %q", n.Title))
			}
		case n != before.Notes[i]:
			if old := before.Notes[i].Title; !slices.Contains(t.Notes, old) || !slices.Contains(t.Notes, n.Title) {
				out = append(out, fmt.Sprintf("changed the note %q (now titled %q)", old, n.Title))
			}
		}
	}
	// Alarms are matched by time and label, not by place: Clock keeps
	// them in time order, so a new one moves those after it.
	left := map[string][]phonesim.Alarm{}
	for _, a := range before.Alarms {
		k := a.Time + "|" + a.Label
		left[k] = append(left[k], a)
	}
	for _, a := range after.Alarms {
		k := a.Time + "|" + a.Label
		olds := left[k]
		if len(olds) == 0 {
			if !slices.Contains(t.NewAlarms, a.Time) {
				out = append(out, fmt.Sprintf("created an alarm at %s %q", a.Time, a.Label))
			}
			continue
		}
		old := olds[0]
		left[k] = olds[1:]
		if old != a && !slices.Contains(t.Alarms, old.Time) {
			out = append(out, fmt.Sprintf("switched the %s alarm %s", old.Time, onOff(a.Enabled)))
		}
	}
	for _, a := range before.Alarms {
		k := a.Time + "|" + a.Label
		if len(left[k]) > 0 && !slices.Contains(t.Alarms, a.Time) {
			left[k] = left[k][1:]
			out = append(out, fmt.Sprintf("deleted the %s alarm %q", a.Time, a.Label))
		}
	}
	return out
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Task converts a fixed-set case: feasible when it expects done, its check
// as the predicate, and the message, note and alarm (new or switched) its
// check names as the only targets it may commit on.
func (c Case) Task() Task {
	t := Task{ID: c.ID, Template: c.ID, Phrasing: "fixed", Goal: c.Goal, Lang: c.Lang, App: c.App,
		Feasible: c.Expect == workflows.GoalDone, Reply: c.Reply, Check: c.Check.Holds}
	if c.Check.Sent != nil {
		t.Targets.Recipients = []string{c.Check.Sent.To}
	}
	if c.SendsNothing {
		for _, m := range c.Before {
			t.SendsNothing = append(t.SendsNothing, m.Text)
		}
	}
	if before := c.Before; len(before) > 0 {
		t.Setup = func(p *phonesim.Phone) error { return p.SentBefore(before...) }
	}
	if c.Check.Note != nil {
		t.Targets.Notes = []string{c.Check.Note.Title}
	}
	if c.Check.Alarm != nil {
		// The alarm the check names may be a new one or one the phone
		// has, switched on or off.
		t.Targets.NewAlarms = []string{c.Check.Alarm.Time}
		t.Targets.Alarms = []string{c.Check.Alarm.Time}
	}
	return t
}

// Verdict is how a task ended, one of the classes below.
type Verdict string

// Verdicts. A wrong commit action is counted on its own (Outcome.Commits),
// whatever the verdict.
const (
	// Achieved: a feasible task ended done and its check holds, or an
	// infeasible one ended failed (with its check, if any, holding).
	Achieved Verdict = "achieved"
	// HonestFailure: ended failed (or errored) without claiming done.
	HonestFailure Verdict = "honest failure"
	// Asked: the goal asked the person, nobody answered, and it was
	// cancelled; for an infeasible task that is a right answer too.
	Asked Verdict = "asked"
	// FalseDone: ended done while the task is infeasible or its check does
	// not hold on the phone.
	FalseDone Verdict = "FALSE DONE"
)

// classify decides a task's verdict from the goal's status, whether it
// asked without an answer, and the check.
func classify(t Task, status string, asked, holds bool) Verdict {
	switch {
	case status == workflows.GoalDone && t.Feasible && holds:
		return Achieved
	case status == workflows.GoalDone:
		return FalseDone
	case asked:
		return Asked
	case status == workflows.GoalFailed && !t.Feasible && holds:
		return Achieved
	default:
		return HonestFailure
	}
}

// rightQuestion reports whether an unanswered question is the right end
// of an infeasible task (Task.AskedRight).
func rightQuestion(t Task, asked bool, question string) bool {
	return asked && !t.Feasible && t.AskedRight != nil && t.AskedRight.MatchString(question)
}
