package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// The executor's questions go to the planner first
// (docs/design.md#executor-questions). Each goal below is given its plan,
// a message todo that leaves out what the goal (or only the person)
// knows, so the offline executor opens the conversation and asks.

// TestPlannerAnswersFromTheGoal: the goal states the words, the planner
// answers with them, the person is never asked, the phone shows the
// message, and the todo is verified done with the answer.
func TestPlannerAnswersFromTheGoal(t *testing.T) {
	env, g := questionStack(t)
	id := startPlanned(t, g, env.Serial, "Tell Alice Chen: on my way", "Send Alice Chen a message")
	res := waitResult(t, g, id, 5*time.Minute)
	doneWithTheAnswer(t, res, "on my way")
	sent := env.Phone.State().MessagesSent
	if len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != "on my way" {
		t.Fatalf("messages sent = %+v, want exactly one \"on my way\" to Alice Chen", sent)
	}
	d := plannerDecisions(t, env.Client, id, res)
	if len(d) != 1 || d[0].Choice != "answer" || d[0].Answer != "on my way" || !strings.Contains(d[0].Reason, "on my way") {
		t.Fatalf("planner decisions = %+v, want one answer \"on my way\" with the goal as its reason", d)
	}
	if res.Usage.Planner.Calls < 2 {
		t.Errorf("planner usage = %+v: the question's call is not counted", res.Usage.Planner)
	}
	recordHistories(t, "planner-answers", histories(t, env.Client, id, res.Todos), id)
}

// TestPlannerReplansAQuestion: the todo names a person not on the phone
// and no words; the planner stops it for a replan, the next todo of the
// new plan runs, and the goal ends failed (not every todo was done) with
// nothing sent.
func TestPlannerReplansAQuestion(t *testing.T) {
	env, g := questionStack(t)
	id := startPlanned(t, g, env.Serial, "Message Carol, then turn on Bluetooth", "Send a message to Carol", "Turn on Bluetooth")
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalFailed || !strings.Contains(res.Reason, "not every todo was done") {
		t.Fatalf("goal ended %s: %s (%s), want failed: not every todo was done", res.Status, res.Reason, res.Response)
	}
	if len(res.Todos) < 2 || res.Todos[0].Status != workflows.TodoFailed ||
		!strings.Contains(res.Todos[0].Result, "stopped by the planner to replan") || !strings.Contains(res.Todos[0].Result, "Carol") {
		t.Fatalf("todos = %+v, want the first stopped by the planner naming Carol", res.Todos)
	}
	if last := res.Todos[len(res.Todos)-1]; last.Status != workflows.TodoDone || !strings.Contains(last.Text, "Bluetooth") {
		t.Fatalf("last todo = %+v, want the Bluetooth todo done", last)
	}
	st := env.Phone.State()
	if !st.Toggles.Bluetooth || len(st.MessagesSent) != 0 {
		t.Fatalf("phone: Bluetooth %t, messages sent %+v; want Bluetooth on and nothing sent", st.Toggles.Bluetooth, st.MessagesSent)
	}
	d := plannerDecisions(t, env.Client, id, res)
	if len(d) != 1 || d[0].Choice != "replan" || !strings.Contains(d[0].Reason, "no contact named Carol") {
		t.Fatalf("planner decisions = %+v, want one replan naming the missing contact", d)
	}
	recordHistories(t, "planner-replans", histories(t, env.Client, id, res.Todos), id)
}

// TestPlannerLeavesTheQuestionToThePerson: nothing the planner knows says
// the words, so the person is asked, answers through clarify, and the
// phone shows the person's words.
func TestPlannerLeavesTheQuestionToThePerson(t *testing.T) {
	env, g := questionStack(t)
	id := startPlanned(t, g, env.Serial, "Message Bob Li", "Send a message to Bob Li")
	st := waitStatus(t, g, id, 3*time.Minute, func(s workflows.Status) bool { return s.PendingQuestion != "" })
	if !strings.Contains(st.PendingQuestion, "What should the message to Bob Li say?") {
		t.Fatalf("pending question = %q", st.PendingQuestion)
	}
	if err := g.Clarify(context.Background(), id, "see you at 8", false); err != nil {
		t.Fatalf("clarify: %v", err)
	}
	res := waitResult(t, g, id, 5*time.Minute)
	doneWithTheAnswer(t, res, "see you at 8")
	sent := env.Phone.State().MessagesSent
	if len(sent) != 1 || sent[0].To != "Bob Li" || sent[0].Text != "see you at 8" {
		t.Fatalf("messages sent = %+v, want exactly one \"see you at 8\" to Bob Li", sent)
	}
	d := plannerDecisions(t, env.Client, id, res)
	if len(d) != 1 || d[0].Choice != "ask_user" || !strings.Contains(d[0].Reason, "does not say") {
		t.Fatalf("planner decisions = %+v, want one ask_user saying the goal does not say the words", d)
	}
}

func startPlanned(t *testing.T, g *goalctl.Client, serial, goal string, plan ...string) string {
	t.Helper()
	id, _, err := g.Start(context.Background(), goalctl.StartRequest{Goal: goal, Device: serial,
		Options: workflows.GoalOptions{Plan: plan}})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// plannerDecisions reads, from the goal's todo histories, the results of
// every AskPlanner activity: the planner's choice and its reason as the
// history keeps them.
func plannerDecisions(t *testing.T, c client.Client, goalID string, res workflows.GoalResult) []activities.AskPlannerResult {
	t.Helper()
	var out []activities.AskPlannerResult
	for _, id := range drill.GoalWorkflowIDs(goalID, res) {
		if id == goalID {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		evs, err := drill.History(ctx, c, id)
		cancel()
		if err != nil {
			continue // a restart suffix that was never used
		}
		asks := map[int64]bool{}
		for _, ev := range evs {
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameAskPlanner {
				asks[ev.EventId] = true
			}
			if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && asks[a.GetScheduledEventId()] {
				var r activities.AskPlannerResult
				if p := a.GetResult().GetPayloads(); len(p) > 0 {
					if err := json.Unmarshal(p[0].GetData(), &r); err != nil {
						t.Fatalf("%s: AskPlanner result: %v", id, err)
					}
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// questionStack is stack in the phoneflow layout, on the built-in adb
// server (our own ADB wire server) when adb is not installed, so these
// paths run on every machine.
func questionStack(t *testing.T) (*demo.Env, *goalctl.Client) {
	t.Helper()
	if _, err := exec.LookPath("adb"); err == nil {
		return stack(t, config.ProtocolPhoneflow)
	}
	cfg := config.Default()
	cfg.Executor.Protocol = config.ProtocolPhoneflow
	cfg.Executor.UIElements = "true"
	cfg.Temporal.Embedded.Port = devserver.AnyPort
	logger := stacktest.Logger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{Config: cfg, DataDir: t.TempDir(), Logger: logger,
		Dial: app.Dialer(logger), Worker: app.WorkerRunner(logger), BuiltinADB: true})
	if err != nil {
		t.Fatalf("start the stack: %v", err)
	}
	t.Cleanup(env.Stop)
	return env, goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace, UIAddress: env.Server.UIURL()})
}

// doneWithTheAnswer requires the goal done, its one todo verified with
// the answer to the executor's question: the todo keeps the answer, and
// the verifier's evidence quotes the bubble with the answer's words
// (docs/design.md#executor-questions).
func doneWithTheAnswer(t *testing.T, res workflows.GoalResult, answer string) {
	t.Helper()
	if res.Status != workflows.GoalDone || len(res.Todos) != 1 {
		t.Fatalf("goal ended %s: %s (%s) with todos %+v, want done with one todo", res.Status, res.Reason, res.Response, res.Todos)
	}
	td := res.Todos[0]
	if td.Status != workflows.TodoDone || !td.Verified || !strings.Contains(td.Evidence, answer) {
		t.Fatalf("todo = %+v, want done, verified with evidence naming %q", td, answer)
	}
	if len(td.Answered) != 1 || td.Answered[0].Answer != answer {
		t.Fatalf("todo answered = %+v, want the one question answered %q", td.Answered, answer)
	}
}
