package fleet

import (
	"fmt"
	"strings"
)

// Selector says which phones a goal may run on: any phone, the phones
// with a label, one serial, or the phone the planner chooses from the
// fleet (`starter run --on …`).
type Selector struct {
	Any    bool   `json:"any,omitempty"`
	Label  string `json:"label,omitempty"`
	Serial string `json:"serial,omitempty"`
	// Planner: the goal's planner chooses one phone of the whole fleet
	// from the goal and the phones' facts (docs/design.md#phone-fleet).
	Planner bool `json:"planner,omitempty"`
}

// ParseSelector reads "any", "planner", "label=L" or "serial=S".
func ParseSelector(s string) (Selector, error) {
	s = strings.TrimSpace(s)
	k, v, ok := strings.Cut(s, "=")
	v = strings.TrimSpace(v)
	switch {
	case s == "any":
		return Selector{Any: true}, nil
	case s == "planner":
		return Selector{Planner: true}, nil
	case ok && strings.TrimSpace(k) == "label" && v != "":
		return Selector{Label: v}, nil
	case ok && strings.TrimSpace(k) == "serial" && v != "":
		return Selector{Serial: v}, nil
	}
	return Selector{}, fmt.Errorf("--on %q: want `any`, `planner`, `label=LABEL` (a label of adb.labels) or `serial=SERIAL`", s)
}

// IsZero reports whether the selector selects nothing (no --on).
func (s Selector) IsZero() bool { return s == Selector{} }

// Matches reports whether p is a phone the selector allows; the planner
// may choose any phone.
func (s Selector) Matches(p Phone) bool {
	switch {
	case s.Any, s.Planner:
		return true
	case s.Label != "":
		return p.HasLabel(s.Label)
	case s.Serial != "":
		return p.Serial == s.Serial
	}
	return false
}

// Select returns the phones s matches, in the order given.
func (s Selector) Select(phones []Phone) []Phone {
	var out []Phone
	for _, p := range phones {
		if s.Matches(p) {
			out = append(out, p)
		}
	}
	return out
}

// String is the selector as --on takes it.
func (s Selector) String() string {
	switch {
	case s.Any:
		return "any"
	case s.Planner:
		return "planner"
	case s.Label != "":
		return "label=" + s.Label
	case s.Serial != "":
		return "serial=" + s.Serial
	}
	return ""
}

// Kind says in words what the selector waits for: "a phone labelled
// shop", "any phone", "phone X", "a phone the planner chooses".
func (s Selector) Kind() string {
	switch {
	case s.Planner:
		return "a phone the planner chooses"
	case s.Label != "":
		return "a phone labelled " + s.Label
	case s.Serial != "":
		return "phone " + s.Serial
	}
	return "any phone"
}

// QueueSafe is a serial as it appears in the name of its phone's task
// queue: ':', '/' and ' ' made '_'.
func QueueSafe(serial string) string {
	return strings.NewReplacer(":", "_", "/", "_", " ", "_").Replace(serial)
}
