package promptmem

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Version statuses: the base and every kept rewrite are kept; a rewrite
// is on trial until its trial runs are counted; a rewrite whose trial
// success rate was worse than the version before it is rolled back.
const (
	StatusKept       = "kept"
	StatusTrial      = "trial"
	StatusRolledBack = "rolled back"
)

// Bounds of a todo type's record: the outcomes kept for the rewriter and
// the size of one version's text and one outcome's reason.
const (
	MaxRecent        = 10
	MaxGuidanceChars = 1500
	maxReasonBytes   = 240
)

// Policy says when guidance is rewritten and how long a rewrite is tried
// (docs/design.md §2 Guards). Zero fields take the defaults.
type Policy struct {
	FailureStreak int // failed runs in a row that ask for a rewrite; default 3
	Every         int // runs of one version that ask for a rewrite; default 10
	TrialRuns     int // runs a rewrite is tried for before it is kept or rolled back; default 5
}

// DefaultPolicy is the policy of a zero Policy.
var DefaultPolicy = Policy{FailureStreak: 3, Every: 10, TrialRuns: 5}

func (p Policy) withDefaults() Policy {
	if p.FailureStreak <= 0 {
		p.FailureStreak = DefaultPolicy.FailureStreak
	}
	if p.Every <= 0 {
		p.Every = DefaultPolicy.Every
	}
	if p.TrialRuns <= 0 {
		p.TrialRuns = DefaultPolicy.TrialRuns
	}
	return p
}

// Version is one text of a todo type's executor guidance, with the runs
// that used it. Version 1 is the base: no guidance text.
type Version struct {
	N         int       `json:"n"`
	Text      string    `json:"text"`
	Status    string    `json:"status"`
	Parent    int       `json:"parent,omitempty"` // the version it rewrote
	Why       string    `json:"why,omitempty"`    // what asked for it, or why it was rolled back
	Created   time.Time `json:"created"`
	Runs      int       `json:"runs"`
	Successes int       `json:"successes"`
}

// Rate is the version's success rate, 0 before any run.
func (v Version) Rate() float64 {
	if v.Runs == 0 {
		return 0
	}
	return float64(v.Successes) / float64(v.Runs)
}

// Outcome is one verified run of a todo type, kept for the rewriter.
type Outcome struct {
	Version int    `json:"version"`
	Success bool   `json:"success"`
	Todo    string `json:"todo"`
	Reason  string `json:"reason,omitempty"` // why it was not done, or what was done
}

// Guidance is a todo type's executor guidance: its versions, the one in
// force and the recent outcomes. The todo type is the routine's task key:
// the todo text with its parameters abstracted (docs/design.md §8).
type Guidance struct {
	Versions []Version `json:"versions"`
	InForce  int       `json:"in_force"`
	// Streak counts the failed runs in a row of the version in force;
	// Since the runs since it came into force.
	Streak  int       `json:"streak,omitempty"`
	Since   int       `json:"since,omitempty"`
	Recent  []Outcome `json:"recent,omitempty"`
	Updated time.Time `json:"updated"`
}

// ErrNoVersion is wrapped when a version asked for does not exist.
var ErrNoVersion = errors.New("no such guidance version")

// base returns g with its base version when it has none yet.
func (g Guidance) base(now time.Time) Guidance {
	if len(g.Versions) == 0 {
		g.Versions = []Version{{N: 1, Status: StatusKept, Why: "base: no guidance", Created: now}}
		g.InForce = 1
	}
	return g
}

// Version returns version n.
func (g Guidance) Version(n int) (Version, bool) {
	for _, v := range g.Versions {
		if v.N == n {
			return v, true
		}
	}
	return Version{}, false
}

func (g *Guidance) at(n int) *Version {
	for i := range g.Versions {
		if g.Versions[i].N == n {
			return &g.Versions[i]
		}
	}
	return nil
}

// Current is the version in force.
func (g Guidance) Current() Version {
	v, _ := g.Version(g.InForce)
	return v
}

// Trial is the version on trial, if any.
func (g Guidance) Trial() (Version, bool) {
	v := g.Current()
	return v, v.Status == StatusTrial
}

// record counts one run that used version o.Version and decides: a trial
// that has its runs is kept or rolled back, and a version in force (not on
// trial) whose failure streak or run count reached the policy asks for a
// rewrite. It returns whether a rewrite is due and what happened.
func (g *Guidance) record(o Outcome, p Policy, now time.Time) (bool, string) {
	p = p.withDefaults()
	o.Todo = clipBytes(oneLine(o.Todo), maxReasonBytes)
	o.Reason = clipBytes(oneLine(o.Reason), maxReasonBytes)
	v := g.at(o.Version)
	if v == nil {
		v = g.at(g.InForce)
		o.Version = v.N
	}
	v.Runs++
	if o.Success {
		v.Successes++
	}
	g.Recent = append(g.Recent, o)
	if len(g.Recent) > MaxRecent {
		g.Recent = g.Recent[len(g.Recent)-MaxRecent:]
	}
	g.Updated = now
	if o.Version != g.InForce {
		return false, "" // an older version's late run: counted, decides nothing
	}
	g.Since++
	if o.Success {
		g.Streak = 0
	} else {
		g.Streak++
	}
	cur := g.at(g.InForce)
	if cur.Status == StatusTrial {
		if cur.Runs < p.TrialRuns {
			return false, ""
		}
		prev := g.at(cur.Parent)
		if prev != nil && cur.Rate() < prev.Rate() {
			cur.Status = StatusRolledBack
			cur.Why = fmt.Sprintf("rolled back: %d/%d done over its trial, worse than v%d's %d/%d", cur.Successes, cur.Runs, prev.N, prev.Successes, prev.Runs)
			g.InForce, g.Streak, g.Since = prev.N, 0, 0
			return false, fmt.Sprintf("v%d rolled back to v%d", cur.N, prev.N)
		}
		cur.Status = StatusKept
		g.Streak, g.Since = 0, 0
		return false, fmt.Sprintf("v%d kept", cur.N)
	}
	switch {
	case g.Streak >= p.FailureStreak:
		return true, fmt.Sprintf("%d failures in a row", g.Streak)
	case g.Since >= p.Every:
		return true, fmt.Sprintf("%d runs of v%d", g.Since, g.InForce)
	}
	return false, ""
}

// propose puts text in force as a new version on trial, rewritten from
// version from. It refuses when the version in force is no longer from or
// is on trial (another rewrite won), and when the text is empty, too long
// or the same as the version in force.
func (g *Guidance) propose(from int, text, why string, now time.Time) (Version, error) {
	text = strings.TrimSpace(text)
	cur := g.Current()
	switch {
	case cur.N != from:
		return Version{}, fmt.Errorf("guidance moved on: v%d is in force, not v%d", cur.N, from)
	case cur.Status == StatusTrial:
		return Version{}, fmt.Errorf("v%d is still on trial", cur.N)
	case text == "":
		return Version{}, errors.New("empty guidance")
	case len([]rune(text)) > MaxGuidanceChars:
		return Version{}, fmt.Errorf("guidance of %d characters, more than %d", len([]rune(text)), MaxGuidanceChars)
	case text == cur.Text:
		return Version{}, errors.New("the rewrite is the guidance in force")
	}
	n := 0
	for _, v := range g.Versions {
		n = max(n, v.N)
	}
	v := Version{N: n + 1, Text: text, Status: StatusTrial, Parent: cur.N, Why: why, Created: now}
	g.Versions = append(g.Versions, v)
	g.InForce, g.Streak, g.Since, g.Updated = v.N, 0, 0, now
	return v, nil
}

// rollback puts version n in force; a version on trial that is left is
// marked rolled back, and n is kept from then on.
func (g *Guidance) rollback(n int, now time.Time) error {
	target := g.at(n)
	if target == nil {
		return fmt.Errorf("%w: v%d (versions are 1 to %d; see `starter prompts show`)", ErrNoVersion, n, len(g.Versions))
	}
	if cur := g.at(g.InForce); cur != nil && cur.N != n && cur.Status == StatusTrial {
		cur.Status = StatusRolledBack
		cur.Why = fmt.Sprintf("rolled back by hand to v%d", n)
	}
	target.Status = StatusKept
	g.InForce, g.Streak, g.Since, g.Updated = n, 0, 0, now
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clipBytes shortens s to at most n bytes on a rune boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}

// Guidance returns the guidance of todoType, read fresh from the file.
func (m *Memory) Guidance(todoType string) (Guidance, bool, error) {
	f, err := m.load()
	if err != nil {
		return Guidance{}, false, err
	}
	g, ok := f.TodoTypes[todoType]
	return g, ok, nil
}

// AllGuidance returns every todo type's guidance.
func (m *Memory) AllGuidance() (map[string]Guidance, error) {
	f, err := m.load()
	if err != nil {
		return nil, err
	}
	if f.TodoTypes == nil {
		f.TodoTypes = map[string]Guidance{}
	}
	return f.TodoTypes, nil
}

// RecordRun counts one run of todoType that used guidance version
// o.Version (0 or unknown: the version in force) and applies the policy:
// it reports whether a rewrite is due now, and what the run decided (a
// trial kept or rolled back), "" when nothing.
func (m *Memory) RecordRun(todoType string, o Outcome, p Policy) (rewrite bool, note string, err error) {
	err = m.updateGuidance(todoType, func(g *Guidance, now time.Time) error {
		rewrite, note = g.record(o, p, now)
		return nil
	})
	return rewrite, note, err
}

// Propose stores text as todoType's new guidance version, on trial, when
// version from is still in force and not on trial itself.
func (m *Memory) Propose(todoType string, from int, text, why string) (Version, error) {
	var v Version
	err := m.updateGuidance(todoType, func(g *Guidance, now time.Time) error {
		var err error
		v, err = g.propose(from, text, why, now)
		return err
	})
	return v, err
}

// Rollback puts version n of todoType in force.
func (m *Memory) Rollback(todoType string, n int) error {
	if _, ok, err := m.Guidance(todoType); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("%w: no todo type %q in %s (see `starter prompts list`)", ErrNoVersion, todoType, m.path)
	}
	return m.updateGuidance(todoType, func(g *Guidance, now time.Time) error { return g.rollback(n, now) })
}

// updateGuidance applies fn to todoType's guidance under the file's lock;
// nothing is written when fn fails.
func (m *Memory) updateGuidance(todoType string, fn func(*Guidance, time.Time) error) error {
	if strings.TrimSpace(todoType) == "" {
		return errors.New("promptmem: empty todo type")
	}
	return m.change(func(f *File) error {
		now := m.now().UTC()
		g := f.TodoTypes[todoType].base(now)
		if err := fn(&g, now); err != nil {
			return err
		}
		if f.TodoTypes == nil {
			f.TodoTypes = map[string]Guidance{}
		}
		f.TodoTypes[todoType] = g
		return nil
	})
}

// Forget removes todoType's guidance and its counts, for a measurement that
// starts each arm from nothing.
func (m *Memory) Forget(todoType string) error {
	return m.change(func(f *File) error {
		delete(f.TodoTypes, todoType)
		return nil
	})
}
