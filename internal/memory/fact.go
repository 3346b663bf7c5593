package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Sources of facts.
const (
	SourceVerified = "verified todo" // a todo the verification showed done
	SourceAnswer   = "answer"        // the person's answer to a question
)

// Fact is one thing a later goal's planner is told.
type Fact struct {
	ID     string `json:"id"`
	Scope  string `json:"scope"`
	Text   string `json:"text"`
	Source string `json:"source"`
	// Question and Answer are set for a fact from an answer.
	Question string `json:"question,omitempty"`
	Answer   string `json:"answer,omitempty"`
	// Goal is the goal that taught it last; Learned when; Seen how often.
	Goal    string    `json:"goal,omitempty"`
	Learned time.Time `json:"learned"`
	Seen    int       `json:"seen"`
}

// PhoneScope is the scope of facts about one phone.
func PhoneScope(serial string) string { return "phone:" + serial }

// UserScope is the scope of facts about one person, whatever the phone.
func UserScope(user string) string { return "user:" + user }

// Limits of a fact's text.
const (
	maxQuestion = 160
	maxAnswer   = 160
	maxTodo     = 200
	maxEvidence = 200
)

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func idOf(scope, text string) string {
	sum := sha256.Sum256([]byte(scope + "\x00" + text))
	return "m-" + hex.EncodeToString(sum[:6])
}

// FromAnswer is the fact a question and the person's answer teach, or
// false when there is none to keep. An answer to a question that asked for
// a message's words (Dictated) is never kept: it is that message's text,
// not a fact. An answer that may be a secret is
// never kept: a question that asked the person to sign in or verify
// becomes "needs the person" without the answer, any other is dropped.
func FromAnswer(scope, question, answer string) (Fact, bool) {
	question, answer = strings.TrimSpace(question), strings.TrimSpace(answer)
	question = strings.TrimSpace(strings.TrimPrefix(question, "executor asked:"))
	if question == "" || answer == "" {
		return Fact{}, false
	}
	if Secret(question, answer) {
		if needsPersonRe.MatchString(question) {
			text := fmt.Sprintf("Needs the person: %q (a person answered it on the phone; never guess it)", clip(question, maxQuestion))
			return Fact{ID: idOf(scope, text), Scope: scope, Text: text, Source: SourceAnswer}, true
		}
		return Fact{}, false
	}
	if Dictated(question) {
		// The words of one message are not a fact about anyone.
		return Fact{}, false
	}
	q, a := clip(question, maxQuestion), clip(answer, maxAnswer)
	text := fmt.Sprintf("Answer to %q: %q", q, a)
	// One fact per question: a newer answer replaces the older one.
	return Fact{ID: idOf(scope, "answer\x00"+q), Scope: scope, Text: text, Source: SourceAnswer, Question: q, Answer: a}, true
}

// FromVerified is the fact a todo verified done teaches: that it can be
// done on this phone, and what showed it. A todo or evidence that may
// hold a secret teaches nothing.
func FromVerified(scope, todo, evidence string) (Fact, bool) {
	todo, evidence = strings.TrimSpace(todo), strings.TrimSpace(evidence)
	if todo == "" || Secret(todo, "") || Secret(evidence, "") {
		return Fact{}, false
	}
	text := fmt.Sprintf("Done before on this phone: %q", clip(todo, maxTodo))
	if evidence != "" {
		text += " (verified: " + clip(evidence, maxEvidence) + ")"
	}
	return Fact{ID: idOf(scope, "verified\x00"+clip(todo, maxTodo)), Scope: scope, Text: text, Source: SourceVerified}, true
}
