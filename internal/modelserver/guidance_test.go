package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

func guidanceRequest(c planner.GuidanceContext) []message {
	var out []message
	for _, m := range planner.BuildGuidanceMessages(c) {
		out = append(out, message{Role: string(m.Role), Text: m.Text})
	}
	return out
}

// The offline guidance writer adds the line each kind of failure asks
// for, keeps the lines in force, and answers the same request the same way.
func TestGuidanceWriterLearnsFromFailures(t *testing.T) {
	s := New(Config{})
	c := planner.GuidanceContext{TodoType: "send {1} a message saying {2}", Version: 1, Why: "3 failures in a row", Runs: []planner.GuidanceRun{
		{Version: 1, Success: true, Todo: "Send Alice a message", Reason: "sent"},
		{Version: 1, Todo: "Send Bob a message", Reason: "done, but the message is not in the thread"},
		{Version: 1, Todo: "Send Carol a message", Reason: "stuck: the screen did not change after 3 actions"},
		{Version: 1, Todo: "Send Dan a message", Reason: "refused: the send button is for another chat"},
	}}
	msgs := guidanceRequest(c)
	if r := roleFor(PlannerModel, msgs); r != roleGuidance {
		t.Fatalf("role = %s, want guidance", r)
	}
	ans := s.guidanceAnswer(msgs, faults{})
	text, err := planner.ParseGuidance(ans)
	if err != nil {
		t.Fatalf("answer %q: %v", ans, err)
	}
	for _, want := range []string{tapCheckLine, noRepeatLine, sendLine} {
		if !strings.Contains(text, want) {
			t.Errorf("guidance lacks %q:\n%s", want, text)
		}
	}
	if again := s.guidanceAnswer(msgs, faults{}); again != ans {
		t.Fatalf("same request, another answer:\n%s\n%s", ans, again)
	}
	// The lines in force stay; only successes add the finish line.
	c.Version, c.Current = 2, tapCheckLine
	c.Runs = []planner.GuidanceRun{{Version: 2, Success: true, Todo: "Send Eve a message", Reason: "sent"}}
	text, err = planner.ParseGuidance(s.guidanceAnswer(guidanceRequest(c), faults{}))
	if err != nil || !strings.HasPrefix(text, tapCheckLine) || !strings.Contains(text, finishLine) {
		t.Fatalf("guidance from successes = %q, %v", text, err)
	}
}

// A naive executor whose system prompt carries the tap check is not naive.
func TestExecutorHeedsTapCheck(t *testing.T) {
	with := []message{{Role: string(llm.RoleSystem), Text: "You operate…\n\nAdvice for this kind of task:\n" + tapCheckLine}}
	without := []message{{Role: string(llm.RoleSystem), Text: "You operate…"}}
	if !heedsTapCheck(with) || heedsTapCheck(without) {
		t.Fatal("heedsTapCheck does not follow the system prompt")
	}
}
