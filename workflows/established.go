package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// ChangeEstablishedStillHold: a goal whose replanner says done ends done
// only when no state a done todo established (a switch set, an item made
// absent) was last seen undone by a later todo's final screen; otherwise
// it fails and says which (docs/design.md §9). Before it, each todo was
// verified in its turn and the goal took the replanner's done.
const ChangeEstablishedStillHold = "established-still-hold"

// maxEstablished bounds the states a goal rechecks.
const maxEstablished = 16

// established is what a goal knows of the states its done todos set: the
// checks that set them, and the latest time a todo's final screen showed
// each one (docs/design.md §9). It adds no command: the checks travel in
// todo inputs and the verdicts come back in todo results.
type established struct {
	// States are the checks, in the order the todos that set them ended.
	States []establishedState `json:"states,omitempty"`
	// Last is the latest todo (not a look todo) that ran.
	Last int `json:"last,omitempty"`
}

// establishedState is one state a done todo set and what was last seen of it.
type establishedState struct {
	Check postcond.Check `json:"check"`
	By    int            `json:"by"` // the 1-based todo that set it
	// App is the app it lives in: the check's own, else the one the
	// todo that set it worked in (TodoResult.App); "" when neither says.
	App string `json:"app,omitempty"`
	// Undone is set when the latest final screen that showed it showed
	// the opposite, with what it showed, and UndoneBy that todo.
	Undone   string `json:"undone,omitempty"`
	UndoneBy int    `json:"undone_by,omitempty"`
	// Seen is the latest todo that set it or whose final screen showed it.
	Seen int `json:"seen,omitempty"`
}

// checks are the states later todos recheck.
func (e *established) checks() []postcond.Check {
	var out []postcond.Check
	for _, s := range e.States {
		out = append(out, s.Check)
	}
	return out
}

// took records todo i's outcome: what its final screen showed of the
// states set before it, then the states it set itself when it was done.
func (e *established) took(i int, tr TodoResult) {
	e.Last = i
	e.saw(i, tr)
	if tr.Status != TodoDone || !tr.Verified {
		return
	}
	for _, c := range tr.Checks {
		if !c.Held || (c.Check.Kind != postcond.Switch && c.Check.Kind != postcond.ElementAbsent) {
			continue
		}
		kept := e.States[:0]
		for _, s := range e.States {
			if s.Check.String() != c.Check.String() && !sameSubject(s.Check, c.Check) {
				kept = append(kept, s)
			}
		}
		app := c.Check.App
		if app == "" {
			app = tr.App
		}
		e.States = append(kept, establishedState{Check: c.Check, By: i, App: app, Seen: i})
	}
	if len(e.States) > maxEstablished {
		e.States = e.States[len(e.States)-maxEstablished:]
	}
}

// looked records look todo i: what its final screen showed of the states,
// and nothing it set (it changes nothing). A look verified done saw the
// state its postcondition names holding, also where a recheck says
// nothing (an item gone is shown by a list without it).
// A recheck of the same screen that shows a state undone wins.
func (e *established) looked(i int, tr TodoResult) {
	if tr.Status == TodoDone && tr.Verified {
		for _, c := range tr.Checks {
			for k := range e.States {
				if c.Held && e.States[k].Check.String() == c.Check.String() {
					e.States[k].Seen = i
					e.States[k].Undone, e.States[k].UndoneBy = "", 0
				}
			}
		}
	}
	e.saw(i, tr)
}

// saw takes what todo i's final screen showed of the states set before it.
func (e *established) saw(i int, tr TodoResult) {
	for _, r := range tr.Rechecked {
		for k := range e.States {
			if e.States[k].Check.String() != r.Check.String() {
				continue
			}
			e.States[k].Seen = i
			if r.Held {
				e.States[k].Undone, e.States[k].UndoneBy = "", 0
			} else {
				e.States[k].Undone, e.States[k].UndoneBy = r.Evidence, i
			}
		}
	}
}

// unseen are the states no final screen showed since a later todo ran
// and none showed undone: a later todo may have undone them unseen, so
// the goal looks again before it ends done.
func (e *established) unseen() []establishedState {
	var out []establishedState
	for _, s := range e.States {
		if s.Undone == "" && s.Seen < e.Last {
			out = append(out, s)
		}
	}
	return out
}

// sameSubject reports two checks about the same switch: the later one
// replaces the earlier (a goal that turns Wi-Fi off, then on again).
func sameSubject(a, b postcond.Check) bool {
	return a.Kind == postcond.Switch && b.Kind == postcond.Switch && strings.EqualFold(strings.TrimSpace(a.Label), strings.TrimSpace(b.Label))
}

// undone returns why the goal is not done: each state a later todo's
// final screen last showed undone.
func (e *established) undone() []string {
	var out []string
	for _, s := range e.States {
		if s.Undone != "" {
			out = append(out, fmt.Sprintf("todo %d made %s, but todo %d's final screen shows it %s", s.By, s.Check, s.UndoneBy, truncate(s.Undone, 200)))
		}
	}
	return out
}

// undoneFails reports the reason a goal the replanner called done is not,
// under ChangeEstablishedStillHold; "" when every state still holds as far
// as the todos' screens showed.
func (g *goalRun) undoneFails(ctx workflow.Context) string {
	u := g.st.Established.undone()
	if len(u) == 0 || getVersion(ctx, ChangeEstablishedStillHold, workflow.DefaultVersion, 1) < 1 {
		return ""
	}
	return "a later todo undid what an earlier one did: " + strings.Join(u, "; ")
}
