package memory

import (
	"errors"
	"strings"
	"testing"
)

func TestSecretAnswersAreNeverKept(t *testing.T) {
	scope := PhoneScope("emulator-5554")
	for _, c := range []struct{ q, a string }{
		{"What is the PIN of the phone?", "4821"},
		{"executor asked: Please sign in to the Bank app", "hunter2 is my password"},
		{"Enter the verification code sent to you", "code 339 201"},
		{"What should I type in the field?", "A7F3K9"},
		{"What's the one-time password?", "556677"},
		{"请输入验证码", "123456"},
		{"Who should I message?", "my password is swordfish"},
		{"Approve sending the payment?", "yes"},
	} {
		f, ok := FromAnswer(scope, c.q, c.a)
		if ok && (f.Answer != "" || strings.Contains(f.Text, c.a)) {
			t.Errorf("FromAnswer(%q, %q) kept the answer: %+v", c.q, c.a, f)
		}
	}
	f, ok := FromAnswer(scope, "executor asked: Please sign in to Mail, then answer done", "done, I signed in")
	if !ok || !strings.HasPrefix(f.Text, "Needs the person:") || f.Answer != "" {
		t.Errorf("a sign-in question: got %+v, %v; want a needs-the-person fact without the answer", f, ok)
	}
}

func TestStoreLearnListDelete(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := PhoneScope("A")
	f1, ok := FromAnswer(a, "Who is Mom in Contacts?", "the contact called Mom")
	if !ok {
		t.Fatal("an ordinary answer was not kept")
	}
	f2, _ := FromVerified(a, `Send "hi" to Mom in Messages`, "the chat with Mom shows hi")
	f3, _ := FromVerified(PhoneScope("B"), "Turn on Wi-Fi", "Wi-Fi switch is on")
	for i, f := range []Fact{f1, f2, f2, f3, f2} {
		goal := "g1"
		if i == 2 {
			goal = "g2" // a second goal teaches it again; the fifth is g1's own again after g2
		}
		if err := s.Learn(f, goal); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List(a)
	if err != nil || len(got) != 2 {
		t.Fatalf("List(A) = %v, %v; want 2 facts", got, err)
	}
	if g, _ := s.Get(f2.ID); g.Seen != 3 {
		t.Errorf("a fact taught by g1, g2, then g1 has Seen %d, want 3", g.Seen)
	}
	texts, _ := s.Recall(10, a)
	if !strings.Contains(strings.Join(texts, "\n"), "the contact called Mom") {
		t.Errorf("Recall(A) = %q lacks the answer", texts)
	}
	if err := s.Learn(Fact{ID: "m-000000000000", Scope: a, Text: "x", Question: "the PIN?", Answer: "1234"}, "g"); err == nil {
		t.Error("Learn kept a fact holding a PIN")
	}
	if err := s.Delete(f1.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(f1.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after Delete: %v", err)
	}
	if err := s.Delete("../etc/passwd"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete of a path: %v, want ErrNotFound", err)
	}
	if n, err := s.Clear(""); err != nil || n != 2 {
		t.Errorf("Clear = %d, %v; want 2", n, err)
	}
}

func TestOldestFactsDropPastTheCap(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxPerScope + 5 {
		f, _ := FromVerified("phone:x", strings.Repeat("a", i+1), "")
		if err := s.Learn(f, "g"); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := s.List("phone:x"); len(got) != MaxPerScope {
		t.Errorf("%d facts kept, want %d", len(got), MaxPerScope)
	}
}
