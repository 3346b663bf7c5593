package realscreens

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// file is one dump's JSON: where it came from and what a person reads.
type file struct {
	Source struct {
		Repo   string `json:"repo"`
		Commit string `json:"commit"`
		Path   string `json:"path"`
		Note   string `json:"note"`
	} `json:"source"`
	Vendor   string    `json:"vendor"`
	Android  string    `json:"android"`
	Lang     string    `json:"lang"`
	App      string    `json:"app"`
	Shows    string    `json:"shows"`
	Readings []reading `json:"readings"`
}

// reading is one thing a person reads on the screen: exactly one of
// check, title, commit, not_commit, field (with value) or last_outgoing.
type reading struct {
	Check        json.RawMessage `json:"check"`
	Holds        *bool           `json:"holds"`
	Answer       string          `json:"answer"`
	Title        *string         `json:"title"`
	Commit       *string         `json:"commit"`
	NotCommit    *string         `json:"not_commit"`
	Enabled      *bool           `json:"enabled"`
	Field        *string         `json:"field"`
	Value        *string         `json:"value"`
	LastOutgoing *string         `json:"last_outgoing"`
	Why          string          `json:"why"`
}

func (r reading) String() string {
	switch {
	case r.Check != nil:
		return "check " + string(r.Check)
	case r.Title != nil:
		return fmt.Sprintf("title %q", *r.Title)
	case r.Commit != nil:
		return fmt.Sprintf("commit %q", *r.Commit)
	case r.NotCommit != nil:
		return fmt.Sprintf("not_commit %q", *r.NotCommit)
	case r.Field != nil:
		return fmt.Sprintf("field %q", *r.Field)
	case r.LastOutgoing != nil:
		return fmt.Sprintf("last_outgoing %q", *r.LastOutgoing)
	}
	return "empty reading"
}

func (r reading) kinds() int {
	n := 0
	for _, set := range []bool{r.Check != nil, r.Title != nil, r.Commit != nil, r.NotCommit != nil, r.Field != nil, r.LastOutgoing != nil} {
		if set {
			n++
		}
	}
	return n
}

// dump is one file of the corpus, parsed.
type dump struct {
	name  string
	meta  file
	elems []uitree.Element
}

// load reads every testdata/*.xml with its .json, however many there are.
func load(t *testing.T) []dump {
	t.Helper()
	xmls, err := filepath.Glob(filepath.Join("testdata", "*.xml"))
	if err != nil || len(xmls) == 0 {
		t.Fatalf("no dumps in testdata: %v", err)
	}
	var out []dump
	for _, x := range xmls {
		name := strings.TrimSuffix(filepath.Base(x), ".xml")
		data, err := os.ReadFile(x)
		if err != nil {
			t.Fatal(err)
		}
		es, err := uitree.ParseXML(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		raw, err := os.ReadFile(strings.TrimSuffix(x, ".xml") + ".json")
		if err != nil {
			t.Errorf("%s: no readings beside the dump: %v", name, err)
			continue
		}
		var f file
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			t.Errorf("%s.json: %v", name, err)
			continue
		}
		out = append(out, dump{name: name, meta: f, elems: es})
	}
	return out
}

func screen(d dump) postcond.Screen {
	return postcond.Screen{App: d.meta.App, AppPackage: d.meta.App, Elements: d.elems}
}

// TestReadings: every reading of every file comes out as the person reads
// it, by the product's own code.
func TestReadings(t *testing.T) {
	for _, d := range load(t) {
		t.Run(d.name, func(t *testing.T) {
			m := d.meta
			if m.Source.Repo == "" || m.Source.Commit == "" || m.Source.Path == "" || m.Vendor == "" || m.Lang == "" || m.App == "" || m.Shows == "" {
				t.Errorf("source, vendor, lang, app and shows are required: %+v", m)
			}
			if len(m.Readings) == 0 {
				t.Error("no readings")
			}
			for _, r := range m.Readings {
				if r.kinds() != 1 || r.Why == "" {
					t.Errorf("%s: a reading has exactly one kind and a why", r)
					continue
				}
				if why := judge(d, r); why != "" {
					t.Errorf("%s (%s): %s", r, r.Why, why)
				}
			}
		})
	}
}

// judge returns why a reading did not come out as the file says, or "".
func judge(d dump, r reading) string {
	es := d.elems
	switch {
	case r.Check != nil:
		if r.Holds == nil {
			return "a check reading needs holds"
		}
		cs, probs := postcond.Parse(json.RawMessage("[" + string(r.Check) + "]"))
		if len(probs) > 0 {
			return "not a valid check: " + strings.Join(probs, "; ")
		}
		s := screen(d)
		res := postcond.Eval(cs, postcond.Observed{Final: s, Seen: []postcond.Screen{s}, Answer: r.Answer})[0]
		if res.Held != *r.Holds {
			return fmt.Sprintf("held %v, want %v: %s", res.Held, *r.Holds, res.Evidence)
		}
		if res.Evidence == "" {
			return "no evidence"
		}
	case r.Title != nil:
		if got := postcond.Title(es); norm(got) != norm(*r.Title) {
			return fmt.Sprintf("title %q", got)
		}
	case r.Commit != nil, r.NotCommit != nil:
		want := r.Commit != nil
		lab := *firstSet(r.Commit, r.NotCommit)
		i := control(es, lab)
		if i < 0 {
			return "no control shows that label"
		}
		c := es[i]
		c.Desc = postcond.ControlLabel(es, i)
		if got := postcond.IsCommit(c, postcond.DefaultCommitLabels); got != want {
			return fmt.Sprintf("IsCommit = %v", got)
		}
		if r.Enabled != nil && uitree.Disabled(es, es[i]) == *r.Enabled {
			return fmt.Sprintf("enabled = %v", !uitree.Disabled(es, es[i]))
		}
		if want && r.Enabled != nil && !*r.Enabled {
			t := postcond.Target{Control: c, Elements: es}
			if why := postcond.WrongTarget(t); !strings.Contains(why, "disabled") {
				return fmt.Sprintf("a tap on the disabled control is not refused as disabled: %q", why)
			}
		}
	case r.Field != nil:
		if r.Value == nil {
			return "a field reading needs value"
		}
		e, v := postcond.FieldValue(es, *r.Field)
		if e == nil || !e.IsField() {
			return fmt.Sprintf("no input field found (got %+v)", e)
		}
		if v != *r.Value {
			return fmt.Sprintf("the field holds %q", v)
		}
	case r.LastOutgoing != nil:
		got := postcond.LastOutgoing(es)
		if *r.LastOutgoing == "" && got != "" || *r.LastOutgoing != "" && !postcond.SameMessage(got, *r.LastOutgoing) {
			return fmt.Sprintf("the last outgoing message is %q", got)
		}
	}
	return ""
}

func firstSet(a, b *string) *string {
	if a != nil {
		return a
	}
	return b
}

func norm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// control finds the control a person names by its label: the element that
// shows the label (its text or description), or the clickable element
// around it; -1 when none shows it.
func control(es []uitree.Element, label string) int {
	parents := uitree.Parents(es)
	for i, e := range es {
		if norm(e.Text) != norm(label) && norm(e.Desc) != norm(label) {
			continue
		}
		for j := i; j >= 0; j = parents[j] {
			if es[j].Clickable {
				return j
			}
		}
		return i
	}
	return -1
}

// TestEveryKindOnEveryFile runs every check kind on every file, with
// labels taken from the file's own texts: nothing panics, an answer that
// held says why, and the elements it was read from are in the result.
func TestEveryKindOnEveryFile(t *testing.T) {
	for _, d := range load(t) {
		var texts []string
		for _, e := range d.elems {
			for _, s := range []string{e.Text, e.Desc} {
				if s = strings.TrimSpace(s); s != "" && len([]rune(s)) <= 100 && !postcond.Unresolved(s) && !slices.Contains(texts, s) {
					texts = append(texts, s)
				}
			}
		}
		if len(texts) == 0 {
			t.Errorf("%s: no text at all", d.name)
			continue
		}
		var cs []postcond.Check
		on, off := true, false
		cs = append(cs, postcond.Check{Kind: postcond.AppInFront, App: d.meta.App})
		for i, x := range texts {
			next := texts[(i+1)%len(texts)]
			cs = append(cs,
				postcond.Check{Kind: postcond.ElementExists, Text: x},
				postcond.Check{Kind: postcond.ElementAbsent, Text: x},
				postcond.Check{Kind: postcond.Switch, Label: x, On: &on},
				postcond.Check{Kind: postcond.Switch, Label: x, On: &off},
				postcond.Check{Kind: postcond.FieldHolds, Field: x, Value: next},
				postcond.Check{Kind: postcond.RowShows, Row: x, Shows: next},
				postcond.Check{Kind: postcond.LastSent, Conversation: x, Contains: next},
				postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeState, Label: x},
			)
		}
		for _, typ := range postcond.Types {
			if typ != postcond.TypeState {
				cs = append(cs, postcond.Check{Kind: postcond.AnswerSeen, Type: typ}, postcond.Check{Kind: postcond.AnswerSeen, Type: typ, Ordinal: postcond.Last})
			}
		}
		cs = append(cs, postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeState, Ordinal: 1})
		kinds := map[string]bool{}
		s := screen(d)
		for _, c := range cs {
			kinds[c.Kind] = true
			rs := postcond.Eval([]postcond.Check{c}, postcond.Observed{Final: s, Seen: []postcond.Screen{s}, Answer: texts[len(texts)/2] + " is on"})
			r := rs[0]
			if r.Evidence == "" {
				t.Errorf("%s: %s gave no evidence", d.name, c)
			}
			if r.Held && len(r.Used) == 0 && (c.Kind == postcond.Switch || c.Kind == postcond.RowShows || c.Kind == postcond.FieldHolds || c.Kind == postcond.ElementExists) {
				t.Errorf("%s: %s held without the elements it used", d.name, c)
			}
			if r.Held && c.Kind == postcond.Switch && len(r.Used) > 0 && !r.Used[0].Checkable && !r.Used[0].Clickable && !postcond.ToggleClass(r.Used[0]) {
				t.Errorf("%s: %s held on an element that is not a switch: %+v", d.name, c, r.Used[0])
			}
		}
		for _, k := range postcond.Kinds {
			if !kinds[k] {
				t.Errorf("%s: kind %s was not run", d.name, k)
			}
		}
		// A switch is never both on and off.
		for _, x := range texts {
			r := postcond.Eval([]postcond.Check{{Kind: postcond.Switch, Label: x, On: &on}, {Kind: postcond.Switch, Label: x, On: &off}}, postcond.Observed{Final: s})
			if r[0].Held && r[1].Held {
				t.Errorf("%s: switch %q holds both on and off", d.name, x)
			}
		}
		// Every visible text (one with an area) that is not in an input
		// field is shown; on Settings, a page's name is shown by that page
		// and not by the row that leads to it (postcond's findPage), so a
		// list row titled by a page's name is left out.
		settings := d.meta.App == "com.android.settings"
		for _, e := range d.elems {
			if settings && postcond.SectionNames(e.Text) != nil {
				continue
			}
			if e.IsField() || e.Bounds.X2 <= e.Bounds.X1 || e.Bounds.Y2 <= e.Bounds.Y1 || e.Text == "" || strings.TrimSpace(e.Text) == "" || len([]rune(e.Text)) > 100 {
				continue
			}
			r := postcond.Eval([]postcond.Check{{Kind: postcond.ElementExists, Text: e.Text}}, postcond.Observed{Final: s})
			if !r[0].Held {
				t.Errorf("%s: element_exists %q did not hold: %s", d.name, e.Text, r[0].Evidence)
			}
		}
	}
}

// TestCorpusBreadth: the corpus holds at least 60 real dumps from at
// least 6 vendors (a dump whose vendor is "unknown" counts for none), in
// English and Chinese at least.
func TestCorpusBreadth(t *testing.T) {
	ds := load(t)
	vendors, langs := map[string]bool{}, map[string]bool{}
	for _, d := range ds {
		if d.meta.Vendor != "unknown" {
			vendors[d.meta.Vendor] = true
		}
		langs[d.meta.Lang] = true
	}
	if len(ds) < 60 || len(vendors) < 6 || !langs["en"] || !langs["zh"] {
		t.Errorf("the corpus has %d dumps from %d vendors in %d languages (%v): it needs at least 60 dumps from 6 vendors, English and Chinese among them",
			len(ds), len(vendors), len(langs), slices.Sorted(maps.Keys(vendors)))
	}
}
