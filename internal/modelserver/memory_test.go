package modelserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/memory"
)

// TestRememberedWhoIsNotAskedAgain: a "who" question the person answered
// in an earlier goal, as memory shows it, is not asked again; any other
// question is.
func TestRememberedWhoIsNotAskedAgain(t *testing.T) {
	goal := `Send the message "running late"`
	first := planGoal(planContext{Goal: goal})
	if first.Status != "ask_user" || !strings.HasPrefix(first.Question, "Who ") {
		t.Fatalf("without memory: %+v, want a who question", first)
	}
	f, ok := memory.FromAnswer(memory.PhoneScope("p"), first.Question, "Mom")
	if !ok {
		t.Fatal("the answer was not kept")
	}
	got := planGoal(planContext{Goal: goal, Memory: []string{"Done before on this phone: \"x\"", f.Text}})
	if got.Status != "planned" || len(got.Plan) == 0 || !strings.Contains(got.Plan[0].Todo, "Mom") {
		t.Fatalf("with memory: %+v, want a plan that messages Mom", got)
	}
	what := planGoal(planContext{Goal: "Send Mom a message"})
	if what.Status != "ask_user" {
		t.Fatalf("%+v", what)
	}
	g, _ := memory.FromAnswer(memory.PhoneScope("p"), what.Question, "hello")
	if again := planGoal(planContext{Goal: "Send Mom a message", Memory: []string{g.Text}}); again.Status != "ask_user" {
		t.Errorf("what to write was taken from memory: %+v", again)
	}
}

// A question that asks whom and what to send is asked again: the words
// an earlier goal's person gave are that goal's message, and answered from
// memory they went out a second time under a goal that named none.
func TestRememberedWhoAndWhatIsAskedAgain(t *testing.T) {
	goal := "Send a message in Messages"
	first := planGoal(planContext{Goal: goal})
	if first.Status != "ask_user" || !strings.Contains(first.Question, "what") {
		t.Fatalf("without memory: %+v, want a question for whom and what", first)
	}
	// Memory no longer keeps such an answer; one kept by an older worker
	// is in the form FromAnswer gave it, and the planner must not take it.
	if _, ok := memory.FromAnswer(memory.PhoneScope("p"), first.Question, "to Alice Chen: campaign 11-3"); ok {
		t.Error("memory kept the words of an earlier goal's message")
	}
	kept := fmt.Sprintf("Answer to %q: %q", first.Question, "to Alice Chen: campaign 11-3")
	if got := planGoal(planContext{Goal: goal, Memory: []string{kept}}); got.Status != "ask_user" {
		t.Fatalf("with the earlier goal's answer in memory: %+v, want the question asked again", got)
	}
}
