package screencheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// ErrBadInput wraps every problem with what was given (a check that does
// not parse, a dump that holds no UI tree): the caller's fix, not the
// phone's.
var ErrBadInput = errors.New("bad input")

// ParseChecks reads checks from arguments, each a JSON check object
// (`{"kind":"switch","label":"Wi-Fi","on":true}`) or a JSON list of them,
// with the planner's strict rules (postcond.Parse).
func ParseChecks(args []string) ([]postcond.Check, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf(`%w: no check given: pass one as JSON, e.g. '{"kind":"switch","label":"Wi-Fi","on":true}'`, ErrBadInput)
	}
	var out []postcond.Check
	for i, a := range args {
		raw := bytes.TrimSpace([]byte(a))
		if !json.Valid(raw) {
			return nil, fmt.Errorf(`%w: check argument %d (%s) is not JSON: write a check such as '{"kind":"switch","label":"Wi-Fi","on":true}', in single quotes for the shell`, ErrBadInput, i+1, clip(a, 80))
		}
		if raw[0] == '{' {
			raw = append(append([]byte("["), raw...), ']')
		}
		cs, probs := postcond.Parse(raw)
		if len(probs) > 0 {
			return nil, fmt.Errorf("%w: check argument %d (%s): %s", ErrBadInput, i+1, clip(a, 80), strings.Join(probs, "; "))
		}
		if len(cs) == 0 {
			return nil, fmt.Errorf("%w: check argument %d holds no check: write a JSON object such as '{\"kind\":\"element_exists\",\"text\":\"Wi-Fi\"}'", ErrBadInput, i+1)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// ParseDump reads a uiautomator dump (window_dump.xml as `uiautomator
// dump` writes it).
func ParseDump(data []byte) ([]uitree.Element, error) {
	es, err := uitree.ParseXML(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v: give a file written by `adb shell uiautomator dump` (pull /sdcard/window_dump.xml), or use --device SERIAL", ErrBadInput, err)
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("%w: the dump holds no node: dump the screen again with `adb shell uiautomator dump`", ErrBadInput)
	}
	return es, nil
}

// FrontApp is the package most of a dump's nodes belong to: the app in
// front, as far as the dump alone can say.
func FrontApp(es []uitree.Element) string {
	n := map[string]int{}
	best := ""
	for _, e := range es {
		if e.Package == "" {
			continue
		}
		n[e.Package]++
		if n[e.Package] > n[best] || n[e.Package] == n[best] && e.Package < best {
			best = e.Package
		}
	}
	return best
}

// Report is what `starter check` prints: the screen it judged and each
// check's result.
type Report struct {
	App     string            `json:"app"`      // the app in front the checks were judged with
	AppFrom string            `json:"app_from"` // "dump", "--app" or "device"
	Results []postcond.Result `json:"results"`
}

// AllHeld reports whether every check held.
func (r Report) AllHeld() bool { return postcond.AllHeld(r.Results) }

// Evaluate runs the checks on one screen; a read's answer (answer_seen)
// is judged against answer, which may be "".
func Evaluate(cs []postcond.Check, s postcond.Screen, answer string) []postcond.Result {
	return postcond.Eval(cs, postcond.Observed{Final: s, Seen: []postcond.Screen{s}, Answer: answer})
}

// Write prints a report for a person: per check held or not held, the
// check, why, and the elements it used.
func Write(w io.Writer, r Report) error {
	var b strings.Builder
	held := 0
	for _, res := range r.Results {
		verdict := "not held"
		if res.Held {
			verdict, held = "held", held+1
		}
		fmt.Fprintf(&b, "%-9s %s\n", verdict, res.Check)
		fmt.Fprintf(&b, "          why: %s\n", res.Evidence)
		for _, e := range res.Used {
			fmt.Fprintf(&b, "          used: %s\n", Describe(e))
		}
		if len(res.Used) == 0 {
			b.WriteString("          used: no element\n")
		}
	}
	fmt.Fprintf(&b, "%d of %d checks held (app in front: %s, from %s)\n", held, len(r.Results), r.App, r.AppFrom)
	_, err := io.WriteString(w, b.String())
	return err
}

// Describe writes an element the way the element list shows it: class,
// text, description, ID, state and bounds.
func Describe(e uitree.Element) string {
	var b strings.Builder
	b.WriteString(cmpOr(e.ShortClass(), "node"))
	if e.Text != "" {
		fmt.Fprintf(&b, " %q", clip(e.Text, 80))
	}
	if e.Desc != "" {
		fmt.Fprintf(&b, " desc=%q", clip(e.Desc, 80))
	}
	if id := e.ShortID(); id != "" {
		fmt.Fprintf(&b, " id=%s", id)
	}
	if e.Checkable {
		fmt.Fprintf(&b, " checked=%t", e.Checked)
	}
	if !e.Enabled {
		b.WriteString(" enabled=false")
	}
	fmt.Fprintf(&b, " %s", e.Bounds)
	return b.String()
}

// WriteJSON prints a report as one JSON object.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
