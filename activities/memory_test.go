package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/memory"
)

// TestMemoryCarriesToTheNextGoal: what one goal's replan learns (a todo
// verified done, an ordinary answer) is in the next goal's plan request and
// in its recorded decision; a secret answer and an unverified todo are not.
func TestMemoryCarriesToTheNextGoal(t *testing.T) {
	a, _, m := newActivities(t,
		`{"status":"done","response":"sent"}`,
		`{"status":"planned","plan":["Send \"hi\" to Mom in Messages"],"task_type":"messaging"}`,
	)
	store, err := memory.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a.Memory = store
	ctx := context.Background()
	_, err = a.Replan(ctx, ReplanInput{Goal: "text mom hi", Device: "emulator-5554",
		Done: []DoneTodo{
			{Todo: `Send "hi" to Mom in Messages`, Status: "done", Verified: true, Evidence: `the chat with "Mom" shows "hi"`},
			{Todo: "Open the Bank app", Status: "done", Verified: false},
		},
		Answers: []QA{
			{Question: "Which contact is Mom?", Answer: `the contact called "Mom" in Contacts`},
			{Question: "executor asked: Enter the PIN to unlock the phone", Answer: "4821"},
			{Question: "executor asked: Please sign in to Mail and answer when done", Answer: "s3cretPass!"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.PlanOnce(ctx, PlanInput{Goal: "call mom", Device: "emulator-5554"})
	if err != nil {
		t.Fatal(err)
	}
	req := m.last()[1].Text
	for _, want := range []string{`the contact called`, `Done before on this phone`, `Needs the person`} {
		if !strings.Contains(req, want) {
			t.Errorf("goal 2's plan request lacks %q:\n%s", want, req)
		}
	}
	for _, never := range []string{"4821", "s3cretPass", "Bank"} {
		if strings.Contains(req, never) {
			t.Errorf("goal 2's plan request holds %q", never)
		}
	}
	if len(d.Memory) != 3 {
		t.Errorf("the decision records %d facts shown, want 3: %q", len(d.Memory), d.Memory)
	}
	all, _ := store.List("")
	for _, f := range all {
		if strings.Contains(f.Text+f.Answer, "4821") || strings.Contains(f.Text+f.Answer, "s3cretPass") {
			t.Errorf("the store holds a secret: %+v", f)
		}
	}
	// Another phone's goals see none of it.
	m.answers = append(m.answers, `{"status":"planned","plan":["Call Mom"]}`)
	if _, err := a.PlanOnce(ctx, PlanInput{Goal: "call mom", Device: "other"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.last()[1].Text, `"memory"`) {
		t.Errorf("another phone's plan request shows this phone's memory: %s", m.last()[1].Text)
	}
}

// TestMemoryPerUser: with memory.user set, what a goal on one phone learns
// is shown to the same person's goals on another.
func TestMemoryPerUser(t *testing.T) {
	a, _, m := newActivities(t, `{"status":"done","response":"ok"}`, `{"status":"planned","plan":["Call Mom"]}`)
	store, err := memory.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a.Memory, a.MemoryUser = store, "ana"
	ctx := context.Background()
	if _, err := a.Replan(ctx, ReplanInput{Goal: "g", Device: "phone-a",
		Answers: []QA{{Question: "Who is Mom in Contacts?", Answer: "Mama Li"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.PlanOnce(ctx, PlanInput{Goal: "call mom", Device: "phone-b"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.last()[1].Text, "Mama Li") {
		t.Errorf("the same person's goal on another phone was not shown the answer:\n%s", m.last()[1].Text)
	}
	if fs, _ := store.List(memory.UserScope("ana")); len(fs) != 1 {
		t.Errorf("facts under user:ana = %d, want 1", len(fs))
	}
}
