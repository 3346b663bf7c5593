package modelserver

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/planner"
)

// The offline planner answers an executor's question only from what the
// goal states plainly, replans a todo that cannot be done, and leaves the
// rest (hand-overs above all) to the person. Its answers keep the
// contract.
func TestOfflinePlannerHearsQuestions(t *testing.T) {
	for _, c := range []struct {
		name, goal, todo, kind, q string
		choice, answer            string
	}{
		{"the quoted words", `Tell Bob "on my way"`, "Send Bob a message", "Interact", "What should the message say?", "answer", "on my way"},
		{"words after a colon", "Send Alice Chen a message: running late", "Send Alice Chen a message", "Interact", "What should I write?", "answer", "running late"},
		{"the recipient", `Send "see you at 8" to Zhang San`, `Send the message "see you at 8"`, "Interact", "Who should I send it to?", "answer", "Zhang San"},
		{"no words in the goal", "Message Bob", "Send Bob a message", "Interact", "What should the message say?", "ask_user", ""},
		{"two recipients' words", `Tell Bob "yes" and tell Alice "no"`, "Send a message", "Interact", "What should the message say?", "ask_user", ""},
		{"another recipient's words", `Tell Alice "no"`, "Send Bob a message", "Interact", "What should the message say?", "ask_user", ""},
		{"a hand-over", "Check my bank balance", "Sign in to the bank app", "Take_over", "Please sign in to the bank app yourself", "ask_user", ""},
		{"a missing app", "Send mail to Bob", "Open the Mail app", "Interact", "There is no Mail app on this phone. Which app should I use?", "replan", ""},
		{"anything else", "Set an alarm", "Set an alarm", "Interact", "Should it repeat on weekends?", "ask_user", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs := planner.BuildQuestionMessages(planner.QuestionContext{Goal: c.goal, Todo: c.todo, Kind: c.kind, Question: c.q,
				Earlier: []string{"todo 1 done: Open Messages → opened"}})
			in := []message{{Role: "system", Text: msgs[0].Text}, {Role: "user", Text: msgs[1].Text}}
			if roleFor(PlannerModel, in) != roleQuestion {
				t.Fatalf("role = %s", roleFor(PlannerModel, in))
			}
			d, err := planner.ParseQuestionDecision(New(Config{}).questionAnswer(in, faults{}))
			if err != nil {
				t.Fatal(err)
			}
			if d.Choice != c.choice || d.Answer != c.answer {
				t.Fatalf("decision = %+v, want %s %q", d, c.choice, c.answer)
			}
		})
	}
}

// The offline review continues a todo on its way, hints when actions keep
// failing, and stops a todo whose typed words are not its own before they
// are sent.
func TestOfflinePlannerReviews(t *testing.T) {
	for _, c := range []struct {
		name     string
		rc       planner.ReviewContext
		decision string
	}{
		{"on its way", planner.ReviewContext{Todo: `Send Bob Li a message: "on my way"`, Steps: 8, MaxSteps: 30,
			Recent: []string{`do(action="Launch", app="Messages") → ok`, `do(action="Tap", element=[500,300]) → ok`, `do(action="Type", text="on my way") → ok`},
			Next:   `do(action="Tap", element=[900,900])`}, "continue"},
		{"a search for the recipient", planner.ReviewContext{Todo: `Send Bob Li a message: "on my way"`, Steps: 8, MaxSteps: 30,
			Recent: []string{`do(action="Type", text="Bob") → ok`}}, "continue"},
		{"failing actions", planner.ReviewContext{Todo: "Turn on Bluetooth", Steps: 8, MaxSteps: 30,
			Recent: []string{`do(action="Tap", element=[500,300]) → element not found`, `do(action="Tap", element=[500,320]) → element not found`}}, "hint"},
		{"the wrong words", planner.ReviewContext{Todo: `Send Bob Li a message: "on my way"`, Steps: 8, MaxSteps: 30,
			Recent: []string{`do(action="Type", text="running late") → ok`}, Next: `do(action="Tap", element=[900,900])`}, "replan"},
		{"stuck early", planner.ReviewContext{Todo: "Turn on Bluetooth", Steps: 4, MaxSteps: 30,
			Recent: []string{`do(action="Tap", element=[500,300]) → ok`}, Failures: []string{"when stuck: wait for the screen"}}, "hint"},
		{"stuck early, hinted", planner.ReviewContext{Todo: "Turn on Bluetooth", Steps: 6, MaxSteps: 30,
			Recent: []string{`do(action="Tap", element=[500,300]) → ok`}, Failures: []string{"when stuck: wait for the screen"},
			Hints: []string{"The screen did not change after an action of yours."}}, "continue"},
		{"stuck late", planner.ReviewContext{Todo: "Turn on Bluetooth", Steps: 24, MaxSteps: 30,
			Recent: []string{`do(action="Back") → ok`}, Failures: []string{"stuck: Tap had no effect"}}, "replan"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs := planner.BuildReviewMessages(c.rc)
			in := []message{{Role: "system", Text: msgs[0].Text}, {Role: "user", Text: msgs[1].Text}}
			if roleFor(PlannerModel, in) != roleReview {
				t.Fatalf("role = %s", roleFor(PlannerModel, in))
			}
			d, err := planner.ParseReviewDecision(New(Config{}).reviewAnswer(in, faults{}))
			if err != nil {
				t.Fatal(err)
			}
			if d.Decision != c.decision {
				t.Fatalf("decision = %+v, want %s", d, c.decision)
			}
		})
	}
}
