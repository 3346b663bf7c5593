// Package eval runs a goal set on fresh simulated phones and scores the
// outcomes against the simulator's state: achieved, false done (the goal
// said done but the phone does not show it, or the goal was impossible),
// false failed (a possible goal that ended failed), steps and model calls.
// The set is a JSONL file, one Case per line; the shipped set is Default.
// The generated suite (Templates, Generate) draws tasks from parameterised
// templates instead, each with a check written from its parameters, and
// also counts commit actions on targets a task never named. `starter eval`
// prints the tables; docs/design.md §9 says what a verdict is.
package eval

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

//go:embed goals.jsonl
var defaultSet []byte

// Default returns the shipped goal set.
func Default() []Case {
	cs, err := Parse(bytes.NewReader(defaultSet), "goals.jsonl")
	if err != nil {
		panic(err) // TestDefaultSet keeps the embedded set valid
	}
	return cs
}

// Case is one goal of a set.
type Case struct {
	ID     string `json:"id"`
	Goal   string `json:"goal"`
	Lang   string `json:"lang"`   // en | zh
	App    string `json:"app"`    // the simulator app it exercises, or "none"
	Expect string `json:"expect"` // done | failed (impossible on this phone)
	Check  Check  `json:"check"`
	// Reply answers every question the goal asks (the planner's ask_user,
	// the executor's Take_over), as a person would with clarify; empty
	// means a question fails the case after a short wait.
	Reply string `json:"reply,omitempty"`
	// Fast marks the cases CI runs in `go test ./...`.
	Fast bool `json:"fast,omitempty"`
	// Before are messages the phone sent before the goal (yesterday's),
	// outgoing bubbles of their conversations that are not in the phone's
	// record of what it sent (phonesim.Phone.SentBefore).
	Before []phonesim.SentMessage `json:"before,omitempty"`
	// SendsNothing makes the executor persona not send the texts of
	// Before again: it opens the conversation and finishes there
	// (modelserver.Config.SendsNothing).
	SendsNothing bool `json:"sends_nothing,omitempty"`
}

// Check is what the phone (or the goal's answer) must show at the end.
// Every field that is set must hold.
type Check struct {
	Toggles     map[string]bool       `json:"toggles,omitempty"` // wifi | bluetooth | airplane
	Brightness  *int                  `json:"brightness,omitempty"`
	Sent        *phonesim.SentMessage `json:"sent,omitempty"` // To, Text (Seq ignored)
	Alarm       *phonesim.Alarm       `json:"alarm,omitempty"`
	Note        *phonesim.Note        `json:"note,omitempty"`
	Screen      string                `json:"screen,omitempty"` // display name of the app in front
	Answer      []string              `json:"answer,omitempty"` // substrings of the response
	Reason      []string              `json:"reason,omitempty"` // substrings of the failure reason (any case)
	NothingSent bool                  `json:"nothing_sent,omitempty"`
}

// Parse reads a JSONL goal set; blank lines and lines starting with # are
// skipped. Errors name the line.
func Parse(r io.Reader, name string) ([]Case, error) {
	var out []Case
	ids := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var c Case
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v (each line is one JSON object: id, goal, lang, app, expect, check)", name, n, err)
		}
		switch {
		case c.ID == "" || strings.TrimSpace(c.Goal) == "":
			return nil, fmt.Errorf("%s:%d: id and goal are required", name, n)
		case c.Expect != workflows.GoalDone && c.Expect != workflows.GoalFailed:
			return nil, fmt.Errorf("%s:%d: expect is %q: use \"done\" or \"failed\"", name, n, c.Expect)
		case c.Lang != "en" && c.Lang != "zh":
			return nil, fmt.Errorf("%s:%d: lang is %q: use \"en\" or \"zh\"", name, n, c.Lang)
		}
		if prev, dup := ids[c.ID]; dup {
			return nil, fmt.Errorf("%s:%d: id %q already used on line %d", name, n, c.ID, prev)
		}
		ids[c.ID] = n
		for k := range c.Check.Toggles {
			if k != "wifi" && k != "bluetooth" && k != "airplane" {
				return nil, fmt.Errorf("%s:%d: toggle %q: use wifi, bluetooth or airplane", name, n, k)
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no goals", name)
	}
	return out, nil
}

// Load reads a goal set file.
func Load(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Holds reports whether the phone's state and the result satisfy the
// check, and if not, what is missing.
func (c Check) Holds(st phonesim.State, r workflows.GoalResult) (bool, string) {
	tog := map[string]bool{"wifi": st.Toggles.WiFi, "bluetooth": st.Toggles.Bluetooth, "airplane": st.Toggles.Airplane}
	keys := make([]string, 0, len(c.Toggles))
	for k := range c.Toggles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if tog[k] != c.Toggles[k] {
			return false, fmt.Sprintf("%s is %t, want %t", k, tog[k], c.Toggles[k])
		}
	}
	if c.Brightness != nil && st.Brightness != *c.Brightness {
		return false, fmt.Sprintf("brightness is %d%%, want %d%%", st.Brightness, *c.Brightness)
	}
	if m := c.Sent; m != nil {
		ok := false
		for _, s := range st.MessagesSent {
			ok = ok || s.To == m.To && s.Text == m.Text
		}
		if !ok {
			return false, fmt.Sprintf("no message %q to %s was sent (sent: %v)", m.Text, m.To, st.MessagesSent)
		}
	}
	if c.NothingSent && len(st.MessagesSent) > 0 {
		return false, fmt.Sprintf("messages were sent: %v", st.MessagesSent)
	}
	if a := c.Alarm; a != nil {
		ok := false
		for _, x := range st.Alarms {
			// On or off as the check says: an alarm switched off does
			// not ring, and is not the one a goal creates.
			ok = ok || x.Time == a.Time && x.Label == a.Label && x.Enabled == a.Enabled
		}
		if !ok {
			return false, fmt.Sprintf("no alarm %s %q switched %s (alarms: %v)", a.Time, a.Label, onOff(a.Enabled), st.Alarms)
		}
	}
	if n := c.Note; n != nil {
		ok := false
		for _, x := range st.Notes {
			ok = ok || x.Title == n.Title && (n.Body == "" || x.Body == n.Body)
		}
		if !ok {
			return false, fmt.Sprintf("no note %q with body %q (notes: %v)", n.Title, n.Body, st.Notes)
		}
	}
	if c.Screen != "" && st.Screen.App != c.Screen {
		return false, fmt.Sprintf("%s is in front, want %s", st.Screen.App, c.Screen)
	}
	for _, s := range c.Answer {
		if !strings.Contains(r.Response, s) {
			return false, fmt.Sprintf("the answer %q lacks %q", clip(r.Response, 200), s)
		}
	}
	for _, s := range c.Reason {
		if !strings.Contains(strings.ToLower(r.Reason), strings.ToLower(s)) {
			return false, fmt.Sprintf("the reason %q does not name %q", clip(r.Reason, 200), s)
		}
	}
	return true, ""
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ErrNoADB is returned when the adb binary is missing.
var ErrNoADB = bench.ErrNoADB

// StartStack starts the shared stack (embedded Temporal server, adb
// server) the runs use.
func StartStack(ctx context.Context, adbPath string, log *slog.Logger) (*bench.Stack, error) {
	st, err := bench.StartStack(ctx, adbPath, false, log)
	if errors.Is(err, bench.ErrNoADB) {
		return nil, ErrNoADB
	}
	return st, err
}
