package eval

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// The shipped set: at least 40 goals, every simulator app, both languages,
// impossible goals, a fast subset.
func TestDefaultSet(t *testing.T) {
	cs := Default()
	if len(cs) < 40 {
		t.Errorf("%d goals, want at least 40", len(cs))
	}
	apps, langs := map[string]bool{}, map[string]bool{}
	impossible, fast := 0, 0
	for _, c := range cs {
		apps[c.App], langs[c.Lang] = true, true
		if c.Expect == workflows.GoalFailed {
			impossible++
			if len(c.Check.Reason) == 0 {
				t.Errorf("%s: an impossible goal must check that the reason names what is missing", c.ID)
			}
		}
		if c.Fast {
			fast++
		}
	}
	for _, a := range []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank", "Launcher", "none"} {
		if !apps[a] {
			t.Errorf("no goal exercises %s", a)
		}
	}
	if !langs["en"] || !langs["zh"] {
		t.Errorf("languages = %v, want en and zh", langs)
	}
	if impossible < 4 || fast < 4 {
		t.Errorf("%d impossible and %d fast goals, want at least 4 of each", impossible, fast)
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	for in, want := range map[string]string{
		`{"id":"a","goal":"x","lang":"en","expect":"maybe"}`:                                                             `:1: expect is "maybe"`,
		`{"id":"a","goal":"x","lang":"fr","expect":"done"}`:                                                              `:1: lang is "fr"`,
		"# c\n" + `{"id":"a","goal":"x","lang":"en","expect":"done","chek":{}}`:                                          `:2: json: unknown field "chek"`,
		`{"id":"a","goal":"x","lang":"en","expect":"done"}` + "\n" + `{"id":"a","goal":"y","lang":"en","expect":"done"}`: `id "a" already used on line 1`,
		`{"id":"a","goal":"x","lang":"en","expect":"done","check":{"toggles":{"nfc":true}}}`:                             `toggle "nfc"`,
		"": "no goals",
	} {
		_, err := Parse(strings.NewReader(in), "set.jsonl")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) err = %v, want it to contain %q", in, err, want)
		}
	}
}

func TestCheckHolds(t *testing.T) {
	st := phonesim.State{Toggles: phonesim.Toggles{Bluetooth: true}, Brightness: 80,
		MessagesSent: []phonesim.SentMessage{{To: "Bob Li", Text: "hi, there"}},
		Screen:       phonesim.Screen{App: "Launcher"}}
	eighty, fifty := 80, 50
	r := workflows.GoalResult{Response: "Android version: 14", Reason: "there is no Travel app"}
	for _, tc := range []struct {
		c    Check
		want bool
	}{
		{Check{Toggles: map[string]bool{"bluetooth": true, "wifi": false}}, true},
		{Check{Toggles: map[string]bool{"wifi": true}}, false},
		{Check{Brightness: &eighty, Screen: "Launcher"}, true},
		{Check{Brightness: &fifty}, false},
		{Check{Sent: &phonesim.SentMessage{To: "Bob Li", Text: "hi, there"}}, true},
		{Check{Sent: &phonesim.SentMessage{To: "Bob Li", Text: "hi"}}, false},
		{Check{NothingSent: true}, false},
		{Check{Answer: []string{"14"}, Reason: []string{"travel"}}, true},
		{Check{Reason: []string{"wechat"}}, false},
	} {
		if got, why := tc.c.Holds(st, r); got != tc.want {
			t.Errorf("%+v: holds = %v (%s), want %v", tc.c, got, why, tc.want)
		}
	}
}

// TestFastSubset runs the goals marked fast on the embedded stack in
// layered mode: each must be achieved and none may end done falsely. It
// needs adb (skips without it unless PHONEFLOW_REQUIRE_ADB=1) and is
// skipped with -short.
func TestFastSubset(t *testing.T) {
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	var cases []Case
	for _, c := range Default() {
		if c.Fast {
			cases = append(cases, c)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := StartStack(ctx, "", log)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	// Each executor request layout runs the same subset; the offline
	// server answers uitars and mobile_use requests in their grammars and
	// tools requests with native tool calls.
	// The two default layouts run the whole subset; the other three run
	// the goals whose answers their grammars say differently (a tap, a
	// typed message, a read value, a finish that must not be taken), so
	// the package stays within go test's time limit on two loaded cores.
	// PHONEFLOW_FAST_ALL=1 runs the whole subset in every layout.
	full := map[string]bool{config.ProtocolPhoneflow: true, config.ProtocolAutoGLM: true}
	few := []string{"bt-on", "zh-msg-lisi", "alarm-time-taken-off", "ask-first-alarm"}
	for _, protocol := range []string{config.ProtocolPhoneflow, config.ProtocolAutoGLM, config.ProtocolUITARS, config.ProtocolMobileUse, config.ProtocolTools} {
		t.Run(protocol, func(t *testing.T) {
			run := cases
			if !full[protocol] && os.Getenv("PHONEFLOW_FAST_ALL") != "1" {
				run = nil
				for _, c := range cases {
					if slices.Contains(few, c.ID) {
						run = append(run, c)
					}
				}
				if len(run) != len(few) {
					t.Fatalf("the fast subset lost some of %v", few)
				}
			}
			sum, err := Run(ctx, st, Options{Cases: run, Seed: 1, Batch: len(run), Protocol: protocol})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Render(&b, "fast subset ("+protocol+" layout)", sum); err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + b.String())
			if sum.FalseDone != 0 || sum.Achieved != sum.Goals {
				t.Fatalf("achieved %d of %d, false done %d:\n%s", sum.Achieved, sum.Goals, sum.FalseDone, b.String())
			}
			if sum.ModelCalls == 0 || sum.Steps == 0 {
				t.Errorf("model calls %d, steps %d: want some of each", sum.ModelCalls, sum.Steps)
			}
		})
	}
}
