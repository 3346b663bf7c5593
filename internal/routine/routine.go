package routine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// MaxFailures is how many runs in a row may fail after replaying a routine
// before the routine is dropped.
const MaxFailures = 3

// Key is what a routine is for: a task template, the app in front when the
// todo started, and the phone (model and resolution: coordinates and
// layouts differ between them).
type Key struct {
	Template string `json:"template"`
	App      string `json:"app"` // package in front at the start
	Model    string `json:"model"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
}

// ID names the routine of a key: a short hash, also its file name.
func (k Key) ID() string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%s\x00%dx%d", k.Template, k.App, k.Model, k.Width, k.Height)))
	return "r-" + hex.EncodeToString(h[:])[:12]
}

// Resolution is the key's screen size as people write it.
func (k Key) Resolution() string { return fmt.Sprintf("%dx%d", k.Width, k.Height) }

// Step is one recorded decision: the screen expected before it and the
// action, with the todo's parameters abstracted into placeholders.
type Step struct {
	Screen string         `json:"screen"`
	Action autoglm.Action `json:"action"`
	// Target is set on a tap whose element's label carries a parameter
	// (a contact's row): the replay taps the element labelled with the new
	// value, wherever it is.
	Target *Target `json:"target,omitempty"`
	// Model, when set, says why this decision is left to the executor
	// model: replay stops here.
	Model string `json:"model,omitempty"`
	// Optional marks a step a later run added between the routine's
	// steps (dismissing a pop-up the app showed that time): a replay
	// skips it when the screen it was recorded on is not there and the
	// next required step's is (docs/design.md §8).
	Optional bool `json:"optional,omitempty"`
}

// Target is the element a tap aimed at.
type Target struct {
	Class string `json:"class,omitempty"`
	Label string `json:"label"` // abstracted ("{1} Chen"), or substituted in a ReplayStep
	// Values are the parameter values the label must show, filled in a
	// ReplayStep.
	Values []string `json:"values,omitempty"`
	// Checked is the state of a switch or box when it was tapped: a tap on
	// one in the other state would do the opposite, so replay stops there.
	Checked *bool `json:"checked,omitempty"`
}

// Routine is a learned action trace for a key.
type Routine struct {
	// Version is the package's Version when the routine was learned: older
	// routines are not matched (docs/design.md §8).
	Version int       `json:"version,omitempty"`
	ID      string    `json:"id"`
	Key     Key       `json:"key"`
	Example string    `json:"example"` // the todo it was last recorded from
	Params  []Param   `json:"params,omitempty"`
	Steps   []Step    `json:"steps"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Successes and Runs count the todos that recorded or used the routine;
	// Failures counts the failed runs since the last success.
	Successes   int    `json:"successes"`
	Failures    int    `json:"failures"`
	Runs        int    `json:"runs"`
	LastFailure string `json:"last_failure,omitempty"`
}

// Name is the routine as people see it: its template and ID.
func (r Routine) Name() string { return fmt.Sprintf("%q (%s)", r.Key.Template, r.ID) }

// Observed is one decision of a finished todo, as the recorder gets it:
// the screen it was made on and the action.
type Observed struct {
	AppPackage string           `json:"app_package,omitempty"`
	Elems      []uitree.Element `json:"-"`
	ImageHash  string           `json:"image_hash,omitempty"`
	Width      int              `json:"width"`
	Height     int              `json:"height"`
	Action     autoglm.Action   `json:"action"`
}

// Build turns a todo's decisions into routine steps for its task:
// parameters abstracted, taps on parameter-labelled elements turned into
// targets, and decisions that carry information of their own (text typed
// or reported from the screen) left to the model.
func Build(task Task, obs []Observed) []Step {
	steps := make([]Step, 0, len(obs))
	for _, o := range obs {
		s := Step{Screen: Fingerprint(o.AppPackage, o.Elems, o.Width, o.Height, o.ImageHash), Action: o.Action}
		a := &s.Action
		switch a.Name {
		case autoglm.ActionType, autoglm.ActionTypeName:
			if a.Sealed != "" {
				// A secret is never kept: the model types it again
				// (docs/design.md#secrets-typed-by-the-executor).
				a.Text, a.Sealed, a.Chars = "", "", 0
				s.Model = "the text typed is a secret, which a routine does not keep"
				break
			}
			a.Text = Abstract(a.Text, task.Params)
			if !Typable(a.Text, task.Template) {
				s.Model = "the text typed is not a parameter of the todo"
			}
		case autoglm.ActionFinish:
			a.Message = Abstract(a.Message, task.Params)
			if Literal(a.Message, task.Template) {
				s.Model = "the finish reports what the screen showed"
			}
		case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
			if a.Element != nil && len(o.Elems) > 0 {
				x, y := autoglm.ToPixel(*a.Element, o.Width, o.Height)
				if e, ok := ElementAt(o.Elems, x, y); ok {
					for _, label := range shownLabels(o.Elems, e) {
						if l := Abstract(label, task.Params); HasPlaceholder(l) {
							s.Target = &Target{Class: e.ShortClass(), Label: l}
							if e.Checkable {
								checked := e.Checked
								s.Target.Checked = &checked
							}
							break
						}
					}
				}
			}
			a.Message = Abstract(a.Message, task.Params)
		default:
			a.App = Abstract(a.App, task.Params)
			a.Message = Abstract(a.Message, task.Params)
		}
		if s.Screen == "" && s.Model == "" {
			s.Model = "the screen could not be read"
		}
		steps = append(steps, s)
	}
	return steps
}

// ReplayStep is one step of a routine made concrete for a todo: the
// parameters filled in. It travels in workflow history, so it stays small.
type ReplayStep struct {
	Routine string         `json:"routine"`
	Index   int            `json:"index"` // 1-based
	Total   int            `json:"total"`
	Screen  string         `json:"screen"`
	Action  autoglm.Action `json:"action"`
	Target  *Target        `json:"target,omitempty"`
	Model   string         `json:"model,omitempty"`
	// Optional is the step's Optional; Skip, on an optional step, is the
	// next required step, replayed instead when its screen is the one
	// in front.
	Optional bool        `json:"optional,omitempty"`
	Skip     *ReplayStep `json:"skip,omitempty"`
}

// Plan fills a routine's steps with a todo's parameters. A step whose
// placeholders the todo cannot fill is left to the model.
func Plan(r Routine, task Task) []ReplayStep {
	out := make([]ReplayStep, 0, len(r.Steps))
	for i, s := range r.Steps {
		p := ReplayStep{Routine: r.ID, Index: i + 1, Total: len(r.Steps), Screen: s.Screen, Action: s.Action, Model: s.Model, Optional: s.Optional}
		a := &p.Action
		ok := true
		fill := func(v *string) {
			out, good := Substitute(*v, task.Params)
			*v, ok = out, ok && good
		}
		fill(&a.Text)
		fill(&a.Message)
		fill(&a.App)
		if t := s.Target; t != nil {
			nt := &Target{Class: t.Class, Label: t.Label, Checked: t.Checked}
			fill(&nt.Label)
			for _, m := range placeholderRe.FindAllString(t.Label, -1) {
				v, good := Substitute(m, task.Params)
				ok = ok && good
				nt.Values = append(nt.Values, v)
			}
			p.Target = nt
		}
		if !ok && p.Model == "" {
			p.Model = "the todo lacks a parameter the routine needs"
		}
		out = append(out, p)
	}
	return out
}

// Resolve makes a replay step's action concrete on the current screen: a
// tap with a target goes to the one element that shows the target's
// values. It returns why not when no element, or more than one, does.
func (p ReplayStep) Resolve(elems []uitree.Element, width, height int) (autoglm.Action, string) {
	a := p.Action
	t := p.Target
	if t == nil {
		return a, ""
	}
	var hits []uitree.Element
	shows := func(i int, exact bool) bool {
		labels := labelOf(elems[i])
		if len(labels) == 0 {
			labels = innerLabels(elems, i)
		}
		for _, l := range labels {
			if exact && strings.EqualFold(l, t.Label) {
				return true
			}
			all := !exact
			for _, v := range t.Values {
				all = all && containsWord(l, v)
			}
			if all {
				return true
			}
		}
		return false
	}
	var at []int
	for i, e := range elems {
		if !e.Clickable || (t.Class != "" && e.ShortClass() != t.Class) {
			continue
		}
		if shows(i, false) {
			hits, at = append(hits, e), append(at, i)
		}
	}
	if len(hits) > 1 {
		for k, e := range hits {
			if shows(at[k], true) {
				hits = []uitree.Element{e}
				break
			}
		}
	}
	if len(hits) == 1 && t.Checked != nil && hits[0].Checkable && hits[0].Checked != *t.Checked {
		return a, fmt.Sprintf("%q is %s, the recorded tap was on one %s", strings.Join(t.Values, " "), onOff(hits[0].Checked), onOff(*t.Checked))
	}
	switch len(hits) {
	case 0:
		return a, fmt.Sprintf("no element on the screen shows %q", strings.Join(t.Values, " "))
	case 1:
	default:
		return a, fmt.Sprintf("%d elements show %q", len(hits), strings.Join(t.Values, " "))
	}
	cx, cy := hits[0].Bounds.Center()
	a.Element = &autoglm.Point{uitree.Relative(cx, width), uitree.Relative(cy, height)}
	return a, ""
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// containsWord reports whether label shows v at word boundaries, ignoring
// case ("Bob Li" shows "Bob", "Bobby" does not).
func containsWord(label, v string) bool {
	return len(occurrences(label, v, false)) > 0
}
