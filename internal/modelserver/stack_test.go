package modelserver

import (
	"context"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/dialect"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// runWithStack is runGoal built from the project's own pieces: requests
// from autoglm.BuildMessages (real screenshot, element list, history),
// the llm client streaming over HTTP, and autoglm.Parse. It returns the
// last action (finish or a hand-over) and the steps taken.
func runWithStack(t *testing.T, protocol string, c *llm.Client, p *phonesim.Phone, a *adbShell, task string, maxSteps int) (autoglm.Action, int) {
	t.Helper()
	cfg := autoglm.DefaultConfig()
	cfg.Protocol = protocol
	return runWithConfig(t, cfg, c, p, a, task, maxSteps)
}

// runWithConfig is runWithStack for requests built with cfg in any
// protocol (dialect.BuildMessages) and answers read by its parser.
func runWithConfig(t *testing.T, cfg autoglm.Config, c *llm.Client, p *phonesim.Phone, a *adbShell, task string, maxSteps int) (autoglm.Action, int) {
	t.Helper()
	protocol := cfg.Protocol
	var hist []autoglm.Turn
	in := autoglm.StepInput{Task: task, Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight}
	focus := regexp.MustCompile(`mCurrentFocus=Window\{\S+ \S+ ([\w.]+)/`)
	for step := 1; step <= maxSteps; step++ {
		in.AppPackage, in.AppName = "", ""
		if m := focus.FindStringSubmatch(a.shell("dumpsys window")); m != nil {
			in.AppPackage = m[1]
			for n, ps := range packages {
				if slices.Contains(ps, m[1]) {
					in.AppName = n
				}
			}
		}
		elems, err := uitree.ParseXML([]byte(a.shell("uiautomator dump /dev/tty")))
		if err != nil {
			t.Fatal(err)
		}
		in.Elements = elems
		png, ok, err := p.Screenshot()
		if err != nil {
			t.Fatal(err)
		}
		in.Screenshot, in.Sensitive = png, !ok
		in.History = hist
		msgs, err := dialect.BuildMessages(cfg, in, time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		ans, err := c.Chat(context.Background(), msgs)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		resp, err := dialect.Parse(protocol, ans.Text, dialect.Frame(cfg, in.Width, in.Height))
		if err != nil {
			t.Fatalf("step %d: %v\n%s", step, err, ans.Text)
		}
		var earlier []string
		for _, h := range hist {
			earlier = append(earlier, h.Assistant)
		}
		resp = dialect.Concluded(protocol, resp, earlier)
		t.Logf("step %d: %s", step, autoglm.FormatAction(resp.Action))
		if resp.Action.Name == autoglm.ActionFinish || resp.Action.NeedsHuman() {
			return resp.Action, step
		}
		turn := autoglm.Turn{User: autoglm.StepText(cfg, in), Assistant: ans.Text}
		if protocol == autoglm.ProtocolAutoGLM {
			noElems := cfg
			noElems.IncludeElements = false
			turn.Info = autoglm.ScreenInfo(noElems, in)
		}
		hist = append(hist, turn)
		in.PreviousResult = apply(t, a, resp.Action)
		in.PreviousAction = autoglm.FormatAction(resp.Action)
	}
	t.Fatalf("%q: no finish within %d steps", task, maxSteps)
	return autoglm.Action{}, 0
}

// TestProjectStackOnSimulator: with only the offline server running, the
// project's request builder (in each executor layout), client and parser
// complete the showcase goals.
func TestProjectStackOnSimulator(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and encodes a screenshot per step (about 20 s per layout on a busy machine); run without -short")
	}
	for _, protocol := range []string{autoglm.ProtocolPhoneflow, autoglm.ProtocolAutoGLM} {
		t.Run(protocol, func(t *testing.T) { projectStackOnSimulator(t, protocol) })
	}
}

func projectStackOnSimulator(t *testing.T, protocol string) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	cfg := llm.ExecutorDefaults(srv.URL+"/v1", "", "autoglm-phone-9b")
	cfg.Timeout = 30 * time.Second
	c := llm.New(cfg)
	p, a := startPhone(t)
	for _, g := range []struct {
		task, want string
	}{
		{"Turn on Bluetooth", "Bluetooth is on"},
		{"Send Alice a message saying hi", `Sent "hi" to Alice`},
		{"Create an alarm at 07:30 labelled Gym", "Alarm set for 07:30 (Gym)"},
		{"Read the Android version", "Android version: 14"},
	} {
		act, steps := runWithStack(t, protocol, c, p, a, g.task, 15)
		if act.Name != autoglm.ActionFinish || act.Message != g.want {
			t.Errorf("%q ended with %+v after %d steps, want finish %q", g.task, act, steps, g.want)
		}
	}
	st := p.State()
	if !st.Toggles.Bluetooth || len(st.MessagesSent) != 1 || st.MessagesSent[0].Text != "hi" || st.Alarms[len(st.Alarms)-1].Label != "Gym" {
		t.Fatalf("phone state: %s", stateJSON(p))
	}

	// The Bank screen cannot be captured: the request goes without an image
	// and the persona hands over to the user.
	act, _ := runWithStack(t, protocol, c, p, a, "Sign in to the bank", 5)
	if act.Name != autoglm.ActionTakeOver || !strings.Contains(act.Message, "sign in") {
		t.Fatalf("bank: %+v", act)
	}
}
