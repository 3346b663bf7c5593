package memory

import "testing"

// TestDictatedAnswersAreNotFacts: an answer to a question that asked for
// a message's, a reply's or a note's words is that text, never a fact; an
// answer to who, which or when is kept. The phrasings are the class, not
// the offline planner's own questions.
func TestDictatedAnswersAreNotFacts(t *testing.T) {
	scope := PhoneScope("emulator-5554")
	for _, c := range []struct{ q, a string }{
		{"What should the message to Alice Chen say?", "running 10 minutes late"},
		{"What should it say?", "see you at the station"},
		{"What do you want to tell Bob?", "the keys are under the mat"},
		{"What would you like me to write to Grandma?", "Happy birthday!"},
		{"What should I reply to Priya?", "Sounds good, thanks"},
		{"executor asked: What text should I type in the message box?", "on my way"},
		{"What message should I send to the team group?", "Standup moved to 10"},
		{"What's the text of the SMS?", "Call me back"},
		{"Please give me the message content.", "Dinner at 8"},
		{"Whom should I message, and what should the message say?", "Mum: landed safely"},
		{"What should the note say?", "buy oat milk"},
		{"What should the reply be?", "No thanks"},
		{"What should I text Omar?", "are you up?"},
		{"What's the message?", "hi"},
		{"消息内容是什么？", "我到了"},
		{"要给妈妈发什么？", "晚上回家吃饭"},
		{"回复什么？", "好的"},
	} {
		if !Dictated(c.q) {
			t.Errorf("Dictated(%q) = false, want true", c.q)
		}
		if f, ok := FromAnswer(scope, c.q, c.a); ok {
			t.Errorf("FromAnswer(%q, %q) kept the message text as a fact: %q", c.q, c.a, f.Text)
		}
	}
	for _, c := range []struct{ q, a string }{
		{"Who should I send the message to?", "Mom"},
		{"Which contact is Mom?", "Maria Lopez"},
		{"What is the name of the contact to send it to?", "Sam Patel"},
		{"What number should I text?", "+44 20 7946 0000"},
		{"What should I send it to?", "the family group"},
		{"What time should the alarm ring?", "07:30"},
		{"Which conversation do you mean?", "the one with Lena"},
		{"When should I send it?", "tonight at 9"},
		{"要发给谁？", "李四"},
	} {
		if Dictated(c.q) {
			t.Errorf("Dictated(%q) = true, want false", c.q)
		}
		if _, ok := FromAnswer(scope, c.q, c.a); !ok {
			t.Errorf("FromAnswer(%q, %q) kept nothing, want the fact", c.q, c.a)
		}
	}
}

// TestRecallHidesDictatedAnswersKeptBefore: a message's words stored as
// an answer fact by an older version are not shown to the planner.
func TestRecallHidesDictatedAnswersKeptBefore(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	scope := PhoneScope("A")
	old := Fact{ID: idOf(scope, "answer\x00What should it say?"), Scope: scope, Source: SourceAnswer,
		Text: `Answer to "What should it say?": "running late"`, Question: "What should it say?", Answer: "running late"}
	who, _ := FromAnswer(scope, "Who is Mom?", "Maria Lopez")
	for _, f := range []Fact{old, who} {
		if err := s.Learn(f, "g"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Recall(20, scope)
	if err != nil || len(got) != 1 || got[0] != who.Text {
		t.Fatalf("Recall = %q, %v; want only %q", got, err, who.Text)
	}
}
