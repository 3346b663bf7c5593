package modelserver

import (
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/mobileuse"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/uitars"
)

// TestPersonaDrivesSimulatorInModelGrammars: requests built by
// internal/uitars and internal/mobileuse (with the element list, as
// executor.ui_elements: true sends it) are answered in that family's
// grammar, in its coordinate space, and read back by its parser drive the
// simulator to the goal.
func TestPersonaDrivesSimulatorInModelGrammars(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and encodes a screenshot per step; run without -short")
	}
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, c := range []struct {
		name, protocol, model, coords string
		tasks                         []string
	}{
		{"uitars-pixels", autoglm.ProtocolUITARS, "ui-tars-1.5-7b", autoglm.CoordsPixels, []string{"Turn off Wi-Fi", "Send Alice a message saying hi", "Read the Android version"}},
		{"uitars-v1-grid", autoglm.ProtocolUITARS, "ui-tars-7b-sft", autoglm.CoordsRelative, []string{"Turn off Wi-Fi"}},
		{"mobile_use-pixels", autoglm.ProtocolMobileUse, "qwen2.5-vl-7b-instruct", autoglm.CoordsPixels, []string{"Turn off Wi-Fi", "Send Alice a message saying hi", "Read the Android version"}},
		{"mobile_use-grid", autoglm.ProtocolMobileUse, "qwen3-vl-8b-instruct", autoglm.CoordsRelative, []string{"Turn off Wi-Fi"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lc := llm.ExecutorDefaults(srv.URL+"/v1", "", c.model)
			lc.Timeout = 30 * time.Second
			cl := llm.New(lc)
			p, a := startPhone(t)
			cfg := autoglm.DefaultConfig()
			cfg.Protocol, cfg.Coordinates, cfg.IncludeElements = c.protocol, c.coords, true
			cfg.Format = "png"
			for _, task := range c.tasks {
				act, steps := runWithConfig(t, cfg, cl, p, a, task, 15)
				if act.Name != autoglm.ActionFinish {
					t.Fatalf("%q ended with %+v after %d steps", task, act, steps)
				}
				// UI-TARS's finished() carries the result; mobile_use's
				// answer before its terminate does.
				if want := "Android version: 14"; strings.HasPrefix(task, "Read") && act.Message != want {
					t.Errorf("%q finished %q, want %q", task, act.Message, want)
				}
			}
			st := p.State()
			if st.Toggles.WiFi {
				t.Errorf("Wi-Fi still on: %s", stateJSON(p))
			}
			if len(c.tasks) > 1 && (len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Alice Chen" || st.MessagesSent[0].Text != "hi") {
				t.Errorf("message: %s", stateJSON(p))
			}
		})
	}
}

// TestGrammarPointsRoundTrip: a point the persona writes in a frame reads
// back, through the family's parser, as the grid point it meant.
func TestGrammarPointsRoundTrip(t *testing.T) {
	for _, g := range []grammar{
		{protocol: autoglm.ProtocolUITARS, frame: autoglm.Frame{W: 1092, H: 2408}},
		{protocol: autoglm.ProtocolUITARS, frame: autoglm.Frame{Relative: true, Scale: 1000}},
		{protocol: autoglm.ProtocolMobileUse, frame: autoglm.Frame{W: 1092, H: 2408}},
		{protocol: autoglm.ProtocolMobileUse, frame: autoglm.Frame{Relative: true, Scale: 999}},
	} {
		for _, p := range [][2]int{{0, 0}, {500, 212}, {879, 963}, {999, 999}, {1, 998}} {
			answer := `<think>Tap it.</think><answer>do(action="Tap", element=[` + strconv.Itoa(p[0]) + `,` + strconv.Itoa(p[1]) + `])</answer>`
			out, ok := g.write(answer)
			if !ok {
				t.Fatalf("%+v: %s not written", g, answer)
			}
			var resp autoglm.Response
			var err error
			if g.protocol == autoglm.ProtocolUITARS {
				resp, err = uitars.Parse(out, g.frame)
			} else {
				resp, err = mobileuse.Parse(out, g.frame)
			}
			if err != nil || resp.Action.Element == nil {
				t.Fatalf("%+v: %q: %v", g, out, err)
			}
			got := *resp.Action.Element
			if d0, d1 := got[0]-p[0], got[1]-p[1]; d0 < -1 || d0 > 1 || d1 < -1 || d1 > 1 {
				t.Errorf("%+v: %v written %q read %v", g, p, out, got)
			}
		}
	}
}

// TestGrammarStringsRoundTrip: text with quotes, apostrophes, backslashes
// and newlines is typed as written in both grammars, and the mobile_use
// progress line (which drops double quotes) gives the call back.
func TestGrammarStringsRoundTrip(t *testing.T) {
	text := "He said \"it's \\ fine\"\nsee you"
	answer := `<think>Type.</think><answer>do(action="Type", text=` + q(text) + `)</answer>`
	for _, g := range []grammar{
		{protocol: autoglm.ProtocolUITARS, frame: autoglm.Frame{W: 1092, H: 2408}},
		{protocol: autoglm.ProtocolMobileUse, frame: autoglm.Frame{W: 1092, H: 2408}},
	} {
		out, ok := g.write(answer)
		if !ok {
			t.Fatal(answer)
		}
		var resp autoglm.Response
		var err error
		if g.protocol == autoglm.ProtocolUITARS {
			resp, err = uitars.Parse(out, g.frame)
		} else {
			resp, err = mobileuse.Parse(out, g.frame)
		}
		if err != nil || resp.Action.Text != text {
			t.Errorf("%s: %q read %q (%v)", g.protocol, out, resp.Action.Text, err)
		}
	}
	sq := singleQuoted(`do(action="Type", text=` + q(text) + `)`)
	if a, ok := parseAct(doubleQuoted(sq)); !ok || a.Text != text || a.Name != "Type" {
		t.Errorf("%q read back as %+v", sq, a)
	}
}

// TestPersonaDrivesPixelInModelGrammars: the uitars and mobile_use
// layouts name no app, so on phones wearing the Pixel skin the persona
// tells Settings from its homepage title and subpage toolbars, and a
// DeskClock time picker (the framework's dialog, with no DeskClock id)
// as the Clock it launched; it reaches a switch three pages deep, reads
// one, sends a message and sets an alarm, and its finishes are what the
// phone holds.
func TestPersonaDrivesPixelInModelGrammars(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and encodes a screenshot per step; run without -short")
	}
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, c := range []struct{ protocol, model, coords string }{
		{autoglm.ProtocolUITARS, "ui-tars-1.5-7b", autoglm.CoordsPixels},
		{autoglm.ProtocolMobileUse, "qwen2.5-vl-7b-instruct", autoglm.CoordsPixels},
		{autoglm.ProtocolMobileUse, "qwen3-vl-8b-instruct", autoglm.CoordsRelative},
	} {
		t.Run(c.protocol+"-"+c.coords, func(t *testing.T) {
			lc := llm.ExecutorDefaults(srv.URL+"/v1", "", c.model)
			lc.Timeout = 30 * time.Second
			cl := llm.New(lc)
			p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
			cfg := autoglm.DefaultConfig()
			cfg.Protocol, cfg.Coordinates, cfg.IncludeElements = c.protocol, c.coords, true
			cfg.Format = "png"
			for _, g := range []struct{ task, want string }{
				{"Turn on Bluetooth", "Bluetooth is on"},
				{"Read whether Wi-Fi is on", "Wi-Fi is on"},
				{"给李四发消息：晚上好，记得带伞", "Sent \"晚上好，记得带伞\" to 李四"},
				{"Create an alarm at 08:30", "Alarm set for 08:30"},
				{"Read the time of the first alarm", "07:00"},
			} {
				act, steps := runWithConfig(t, cfg, cl, p, a, g.task, 20)
				if act.Name != autoglm.ActionFinish || act.Message != g.want {
					t.Errorf("%q ended with %s %q after %d steps, want finish %q", g.task, act.Name, act.Message, steps, g.want)
				}
				a.shell("input keyevent KEYCODE_HOME")
			}
			st := p.State()
			if !st.Toggles.Bluetooth || !st.Toggles.WiFi {
				t.Errorf("toggles %+v, want Bluetooth and Wi-Fi on", st.Toggles)
			}
			if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "李四" || st.MessagesSent[0].Text != "晚上好，记得带伞" {
				t.Errorf("messages sent: %+v", st.MessagesSent)
			}
			if !slices.ContainsFunc(st.Alarms, func(al phonesim.Alarm) bool { return al.Time == "08:30" && al.Label == "" && al.Enabled }) {
				t.Errorf("no new 08:30 alarm switched on: %+v", st.Alarms)
			}
		})
	}
}

// The persona of a layout without an app line tells a screen that shows
// no app's marker by its latest Launch, and not after a Home or a Launch
// that failed.
func TestLaunchedAppOfUnmarkedScreens(t *testing.T) {
	launch, home, tap := act{Name: "Launch", App: "Clock"}, act{Name: "Home"}, act{Name: "Tap"}
	for _, c := range []struct {
		name string
		hist []act
		prev string
		want string
	}{
		{"after launch and taps", []act{launch, tap, tap}, "", "Clock"},
		{"right after launch", []act{tap, launch}, "", "Clock"},
		{"launch failed", []act{launch}, `app not found: "Clock"`, ""},
		{"home since", []act{launch, home, tap}, "", ""},
		{"no launch", []act{tap}, "", ""},
	} {
		if got := launchedApp(observation{PrevResult: c.prev}, c.hist); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
