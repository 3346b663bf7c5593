// Package drilltest holds the helpers the drills' test packages share:
// starting a drill stack from a test, starting goals and waiting for them,
// and the checks every drill makes (the goal ended done; the phone sent its
// one message once). It is imported only from tests.
package drilltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// StartStack starts a stack for one drill and stops it at the end. It
// skips without adb unless PHONEFLOW_REQUIRE_ADB=1. The phones wear
// o.Skin, or when it is unset the look PHONEFLOW_DRILL_SKIN names (the
// default configuration's when that is unset too).
func StartStack(t *testing.T, o drill.Options, variant string) *drill.Stack {
	t.Helper()
	if o.Skin == "" {
		o.Skin = Skin(t)
	}
	t.Logf("the %s drill's phones wear the %s look", variant, o.Skin)
	if o.DataDir == "" {
		o.DataDir = t.TempDir()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := drill.Start(ctx, o)
	if errors.Is(err, drill.ErrNoADB) {
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			t.Fatalf("%v, but PHONEFLOW_REQUIRE_ADB=1 requires it", err)
		}
		t.Skipf("skipping the %s drill: %v", variant, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Skin is the look PHONEFLOW_DRILL_SKIN names for the drills' phones, or
// the default configuration's when it is unset; a drill that starts its
// own stack sets it as the config's sim.skin.
func Skin(t *testing.T) phonesim.Skin {
	t.Helper()
	return stacktest.SkinFromEnv(t, "PHONEFLOW_DRILL_SKIN")
}

// Config is the default configuration with the drills' look (Skin) as
// its sim.skin, for a drill that starts its own stack.
func Config(t *testing.T) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.Sim.Skin = string(Skin(t))
	return &cfg
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// MessageGoal is a goal whose one countable effect is a message with a
// text unique to n.
func MessageGoal(n int) (goal, text string) {
	text = fmt.Sprintf("drill %d", n)
	return fmt.Sprintf("Send %q to Alice Chen in Messages", text), text
}

// StartGoal starts a goal and returns its ID.
func StartGoal(t *testing.T, s *drill.Stack, goal, device string) string {
	t.Helper()
	id, _, err := s.Goals.Start(context.Background(), goalctl.StartRequest{Goal: goal, Device: device})
	if err != nil {
		t.Fatalf("start %q: %v", goal, err)
	}
	return id
}

// WaitResult waits up to d for a goal's result.
func WaitResult(t *testing.T, s *drill.Stack, id string, d time.Duration) workflows.GoalResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := s.Goals.Result(ctx, id)
	if err != nil {
		t.Fatalf("goal %s has no result after %s: %v", id, d, err)
	}
	return res
}

// WaitStatus polls the goal's status query until ok accepts it, for up to
// d; it returns the last status and whether ok accepted it.
func WaitStatus(s *drill.Stack, id string, d time.Duration, ok func(workflows.Status) bool) (workflows.Status, bool) {
	return stacktest.PollStatus(s.Goals, id, d, ok)
}

// CheckDone fails unless the goal ended done.
func CheckDone(t *testing.T, id string, res workflows.GoalResult) {
	t.Helper()
	if res.Status != workflows.GoalDone {
		t.Errorf("goal %s ended %s: %s (next step: %s)", id, res.Status, res.Reason, res.NextStep)
	}
}

// CheckOneMessage fails unless the phone sent exactly one message, text to
// Alice Chen, with one Send tap after the last text entry, and reports
// whether it did not fail.
func CheckOneMessage(t *testing.T, p *phonesim.Phone, text string) bool {
	t.Helper()
	st := p.State()
	var got []phonesim.SentMessage
	for _, m := range st.MessagesSent {
		if m.Text == text {
			got = append(got, m)
		}
	}
	if len(got) != 1 || len(st.MessagesSent) != 1 || got[0].To != "Alice Chen" {
		t.Errorf("phone %s: messages sent = %+v, want exactly one %q to Alice Chen; input log:\n%s", st.Serial, st.MessagesSent, text, InputLog(st))
		return false
	}
	if n := drill.SendTaps(st, got[0]); n != 1 {
		t.Errorf("phone %s: %d Send taps after the last text entry, want 1; input log:\n%s", st.Serial, n, InputLog(st))
		return false
	}
	return true
}

// Pending describes what a goal and its running children wait on: Pending
// activities with their attempt and state, for failure messages.
func Pending(s *drill.Stack, id string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var b strings.Builder
	ids := []string{id}
	for i := 0; i < len(ids); i++ {
		d, err := s.Client.DescribeWorkflowExecution(ctx, ids[i], "")
		if err != nil {
			fmt.Fprintf(&b, "  %s: describe: %v\n", ids[i], err)
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", ids[i], d.GetWorkflowExecutionInfo().GetStatus())
		if wt := d.GetPendingWorkflowTask(); wt != nil {
			fmt.Fprintf(&b, "    workflow task %s attempt %d, scheduled %s, started %s\n", wt.GetState(), wt.GetAttempt(),
				clock(wt.GetScheduledTime().AsTime()), clock(wt.GetStartedTime().AsTime()))
		}
		for _, a := range d.GetPendingActivities() {
			fmt.Fprintf(&b, "    activity %s %s attempt %d, scheduled %s, last started %s, last heartbeat %s, last failure %q\n",
				a.GetActivityType().GetName(), a.GetState(), a.GetAttempt(), clock(a.GetScheduledTime().AsTime()),
				clock(a.GetLastStartedTime().AsTime()), clock(a.GetLastHeartbeatTime().AsTime()), a.GetLastFailure().GetMessage())
		}
		if evs, err := drill.History(ctx, s.Client, ids[i]); err == nil {
			from := max(0, len(evs)-4)
			for _, ev := range evs[from:] {
				fmt.Fprintf(&b, "    event %d %s at %s\n", ev.GetEventId(), ev.GetEventType(), clock(ev.GetEventTime().AsTime()))
			}
		}
		for _, c := range d.GetPendingChildren() {
			ids = append(ids, c.GetWorkflowId())
		}
	}
	return b.String()
}

// clock is t's time of day in UTC, or "-" for the zero time.
func clock(t time.Time) string {
	if t.IsZero() || t.Unix() == 0 {
		return "-"
	}
	return t.UTC().Format("15:04:05.000")
}

// InputLog formats a phone's input log one event a line.
func InputLog(st phonesim.State) string {
	var b strings.Builder
	for _, e := range st.InputLog {
		fmt.Fprintf(&b, "  %d %s %v on %s/%s\n", e.Seq, e.Kind, e.Args, e.App, e.Page)
	}
	return b.String()
}

// StepTrail formats the Step activities of a workflow: scheduled summary,
// attempt, and outcome, for failure messages.
func StepTrail(s *drill.Stack, id string) string {
	evs, err := drill.History(context.Background(), s.Client, id)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	summaries := map[int64]string{}
	for _, ev := range evs {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			summaries[ev.GetEventId()] = string(ev.GetUserMetadata().GetSummary().GetData())
		}
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			fmt.Fprintf(&b, "  %s attempt %d", summaries[a.GetScheduledEventId()], a.GetAttempt())
			if f := a.GetLastFailure(); f != nil {
				fmt.Fprintf(&b, " (previous attempt failed: %s)", f.GetMessage())
			}
			b.WriteString("\n")
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil {
			for _, p := range a.GetResult().GetPayloads() {
				var r activities.StepResult
				if err := json.Unmarshal(p.GetData(), &r); err != nil {
					continue
				}
				b.WriteString("    ->")
				if r.Act != nil {
					fmt.Fprintf(&b, " act %q;", r.Act.Result)
				}
				fmt.Fprintf(&b, " screen %s %s", r.Screen.App, r.Screen.Hash)
				if r.Think != nil {
					fmt.Fprintf(&b, "; next %q", r.Think.Action)
					if r.Think.ParseError != "" {
						fmt.Fprintf(&b, "; parse error %q", r.Think.ParseError)
					}
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// CheckClaims holds a goal's reports against its phone's input log: no
// action reported applied that the log lacks, none in the log more often
// than the todos decided it (docs/design.md §4).
func CheckClaims(t *testing.T, s *drill.Stack, id string, res workflows.GoalResult, p *phonesim.Phone) {
	t.Helper()
	CheckClaimsResent(t, s, id, res, p, nil)
}

// CheckClaimsResent is CheckClaims where the worker's journal judged some
// actions not applied after a crash and sent them again (resent, by action
// ID: Resends): the phone's input log holds each of those once more, the
// first without effect (docs/design.md §4), so each counts as decided once
// more.
func CheckClaimsResent(t *testing.T, s *drill.Stack, id string, res workflows.GoalResult, p *phonesim.Phone, resent map[string]int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	acts, err := drill.ReportedActions(ctx, s.Client, id, res)
	if err != nil {
		t.Errorf("%s: %v", id, err)
		return
	}
	st := p.State()
	bad := drill.AppliedButNotSent(acts, st)
	decided := acts
	for _, a := range acts {
		for range resent[a.In.ActionID] {
			decided = append(decided, a)
		}
	}
	twice := drill.SentTwice(decided, st)
	if len(bad)+len(twice) == 0 {
		return
	}
	var b strings.Builder
	for _, a := range acts {
		r := "no result"
		if a.Result != nil {
			r = fmt.Sprintf("%q recovered=%q uncertain=%q", a.Result.Result, a.Result.Recovered, a.Result.Uncertain)
		}
		fmt.Fprintf(&b, "  %s %s: %s\n", a.In.ActionID, autoglm.FormatAction(*a.In.Act), r)
	}
	t.Errorf("phone %s, goal %s:\napplied but not in the input log: %q\nin the input log more often than decided: %q\nactions:\n%sinput log:\n%s",
		st.Serial, id, bad, twice, b.String(), InputLog(st))
}

// Life is what the drills' phones do by themselves: a message about
// every 15 s, a system dialog about every minute, the screen off after
// 20 s without input (so kills and outages meet a locked phone).
func Life(seed uint64) phonesim.Life {
	return phonesim.Life{Seed: seed, Messages: 15 * time.Second, Dialogs: time.Minute, ScreenTimeout: 20 * time.Second}
}

// LifeSummary counts what the phones did by themselves.
func LifeSummary(phones []*phonesim.Phone) map[string]int {
	n := map[string]int{}
	for _, p := range phones {
		for _, e := range p.LifeEvents() {
			n[e.Kind]++
		}
	}
	return n
}

// Resends counts, by action ID, the actions a worker's log says its
// journal judged not applied after a crash and sent again: the lines
// "action journal: … decided from its own evidence" with verdict "not
// applied".
func Resends(log string) map[string]int {
	n := map[string]int{}
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "decided from its own evidence") || !strings.Contains(line, `verdict="not applied"`) {
			continue
		}
		for _, f := range strings.Fields(line) {
			if id, ok := strings.CutPrefix(f, "id="); ok {
				n[strings.Trim(id, `"`)]++
			}
		}
	}
	return n
}
