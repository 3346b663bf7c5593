package dialect

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// realAnswer is one line of testdata/real-answers.jsonl: an answer a model
// gave, where it was published, and what it must be read as.
type realAnswer struct {
	Source     string          `json:"source"`
	Model      string          `json:"model"`
	Provenance string          `json:"provenance"`
	Family     string          `json:"family"` // the grammar it is written in; "none" when it has no action
	As         string          `json:"as"`     // the executor.model the test configures
	Screen     [2]int          `json:"screen"` // the screen, when coordinates depend on it
	Raw        string          `json:"raw"`
	Want       *autoglm.Action `json:"want"`
	Refuse     string          `json:"refuse"` // part of the refusal's reason, when Want is nil
	Meaning    string          `json:"meaning"`
	Note       string          `json:"note"`
}

func readRealAnswers(t *testing.T) []realAnswer {
	t.Helper()
	f, err := os.Open("testdata/real-answers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []realAnswer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var a realAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if a.Source == "" || a.Model == "" || a.Raw == "" || a.As == "" || (a.Want == nil) == (a.Refuse == "") {
			t.Fatalf("line %d: needs source, model, raw, as, and exactly one of want and refuse", n)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// execConfig is the request shape the executor profile of model gives,
// as the worker derives it.
func execConfig(model string) autoglm.Config {
	e := config.Executor{Endpoint: config.Endpoint{Model: model}}
	c := autoglm.DefaultConfig()
	c.MaxPixels = autoglm.FullSize
	c.Protocol = e.EffectiveProtocol()
	c.Coordinates = e.EffectiveCoordinates()
	return c
}

// TestRealAnswers reads every real answer under the protocol its model's
// name selects: each parses to its meaning, or is refused.
func TestRealAnswers(t *testing.T) {
	answers := readRealAnswers(t)
	if len(answers) < 25 {
		t.Fatalf("%d answers, want at least 25", len(answers))
	}
	for _, a := range answers {
		t.Run(a.Source, func(t *testing.T) {
			cfg := execConfig(a.As)
			got, err := Parse(cfg.Protocol, a.Raw, Frame(cfg, a.Screen[0], a.Screen[1]))
			if a.Want == nil {
				var pe *autoglm.ParseError
				if !errors.As(err, &pe) || !strings.Contains(pe.Reason, a.Refuse) {
					t.Fatalf("got %s, %v; want a refusal mentioning %q", autoglm.FormatAction(got.Action), err, a.Refuse)
				}
				return
			}
			if err != nil {
				t.Fatalf("protocol %s: %v", cfg.Protocol, err)
			}
			if g, w := autoglm.FormatAction(got.Action), autoglm.FormatAction(*a.Want); g != w {
				t.Fatalf("protocol %s: %s, want %s (%s)", cfg.Protocol, g, w, a.Meaning)
			}
		})
	}
}

// TestRealAnswersWrongProtocol reads every real answer that has an action
// under each protocol that does not read its family: each is refused at
// once with its family named and the setting that reads it.
func TestRealAnswersWrongProtocol(t *testing.T) {
	for _, a := range readRealAnswers(t) {
		if a.Family == "none" {
			continue
		}
		for _, p := range []string{autoglm.ProtocolAutoGLM, autoglm.ProtocolPhoneflow, autoglm.ProtocolUITARS, autoglm.ProtocolMobileUse} {
			if reads(p, a.Family) {
				continue
			}
			cfg := execConfig(a.As)
			cfg.Protocol = p
			_, err := Parse(p, a.Raw, Frame(cfg, a.Screen[0], a.Screen[1]))
			var wf *WrongFamilyError
			if !errors.As(err, &wf) || wf.Family != a.Family || !strings.Contains(err.Error(), Setting(a.Family)) {
				t.Errorf("%s under %s: %v; want the %s family named with its setting", a.Source, p, err, a.Family)
			}
		}
	}
}
