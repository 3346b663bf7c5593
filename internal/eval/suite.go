package eval

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// The generated suite: parameterised task templates, each with several
// phrasings, random parameters drawn from a seed, and a predicate on the
// simulated phone's end state written from the parameters alone (never
// from how a model reads the text). A seed always gives the same tasks.

// Params are one task's parameters, by name.
type Params map[string]string

// Phrasing kinds. Every template has at least four phrasings; the suite as
// a whole covers every kind.
const (
	KindTerse      = "terse"      // a few words, no verb or no article
	KindPlain      = "plain"      // an ordinary imperative
	KindPolite     = "polite"     // a question or a please
	KindChinese    = "zh"         // written in Chinese
	KindPossessive = "possessive" // X's Y, nested names
	KindOrdinal    = "ordinal"    // the first, second, last item
	KindExisting   = "existing"   // enable or disable an item that exists
	KindRelative   = "relative"   // a value relative to the current one
	KindTwoClause  = "two-clause" // two clauses joined by and, then or 并
)

// Kinds lists the phrasing kinds.
var Kinds = []string{KindTerse, KindPlain, KindPolite, KindChinese, KindPossessive, KindOrdinal, KindExisting, KindRelative, KindTwoClause}

// Phrasing is one way to say a template's task.
type Phrasing struct {
	Kind string
	Text func(p Params) string
}

// Template is a family of tasks: what it draws, how it is said, and what
// the phone must show afterwards.
type Template struct {
	ID       string
	App      string // the simulator app it exercises, or "none"
	Feasible bool
	// FeasibleOn, when set, decides Feasible by the phones' skin: a level
	// between the classic page's steps of 10 is out of its reach and in a
	// slider's. Check and Want are then those of the skins it is feasible
	// on.
	FeasibleOn func(phonesim.Skin) bool
	Reply      string // answer to any question (see Task.Reply)
	// AskedRight is, for an infeasible template only the person can
	// unblock, the question that is its right end (see Task.AskedRight).
	AskedRight *regexp.Regexp
	// Draw picks one task's parameters.
	Draw      func(r *rand.Rand) Params
	Phrasings []Phrasing
	// Check is the predicate on the end state and result; nil for an
	// infeasible template (its task must simply not end done).
	Check func(p Params, st phonesim.State, r workflows.GoalResult) (bool, string)
	// Targets is what a task may commit on; the zero value allows nothing.
	Targets func(p Params) Targets
	// Want applies what a correct run does to a state and a result: the
	// reference end the unit tests hold the predicate against. Nil for an
	// infeasible template.
	Want func(p Params, st *phonesim.State, r *workflows.GoalResult)
}

// DefaultPerTemplate is how many tasks each template gives per seed.
const DefaultPerTemplate = 4

// Generate draws perTemplate tasks from every template for seed. Task k of
// a template uses phrasing (offset+k) mod n, from a random offset, so five
// tasks of a template with five phrasings use each once.
func Generate(seed int64, perTemplate int) []Task {
	if perTemplate <= 0 {
		perTemplate = DefaultPerTemplate
	}
	var out []Task
	for _, tp := range Templates() {
		r := templateRand(tp, seed)
		off := r.IntN(len(tp.Phrasings))
		for k := range perTemplate {
			ph := tp.Phrasings[(off+k)%len(tp.Phrasings)]
			p := tp.Draw(r)
			out = append(out, tp.task(p, ph, fmt.Sprintf("%s/%d", tp.ID, k+1)))
		}
	}
	return out
}

// templateRand is a template's random source for a seed: its own stream,
// so adding a template leaves the others' tasks as they were.
func templateRand(tp Template, seed int64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(tp.ID))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

func (tp Template) task(p Params, ph Phrasing, id string) Task {
	goal := ph.Text(p)
	t := Task{ID: id, Template: tp.ID, Phrasing: ph.Kind, Goal: goal, Lang: "en", App: tp.App, Feasible: tp.Feasible, FeasibleOn: tp.FeasibleOn, Reply: tp.Reply, AskedRight: tp.AskedRight}
	if hasHan(goal) {
		t.Lang = "zh"
	}
	if tp.Check != nil {
		check := tp.Check
		t.Check = func(st phonesim.State, r workflows.GoalResult) (bool, string) { return check(p, st, r) }
	}
	if tp.Targets != nil {
		t.Targets = tp.Targets(p)
	}
	return t
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// Templates returns every template of the generated suite.
func Templates() []Template {
	var all []Template
	for _, f := range []func() []Template{settingsTemplates, contactsTemplates, messagesTemplates, clockTemplates, notesTemplates, bankTemplates, launcherTemplates, absentTemplates} {
		all = append(all, f()...)
	}
	return all
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func ph(kind string, f func(p Params) string) Phrasing { return Phrasing{Kind: kind, Text: f} }
