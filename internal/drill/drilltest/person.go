package drilltest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// Person answers the questions message goals ask, as their owner would:
// by looking at the phone (is the message in the conversation?) and
// answering through the clarify update `starter clarify` sends. The
// journal asks when it cannot tell whether a Send reached the phone
// (docs/design.md §4); a drill whose goals would otherwise wait for a
// person until their answer deadline plays that person.
type Person struct {
	mu       sync.Mutex
	answered []Answer
	stop     func()
	done     chan struct{}
}

// Answer is one question a Person answered.
type Answer struct {
	Goal, Question, Answer string
	At                     time.Time
}

// AnswerQuestions starts a Person for the goals ids, goal i running on
// phone phones[i] and sending texts[i] to Alice Chen. Stop it with Stop.
func AnswerQuestions(t *testing.T, s *drill.Stack, ids []string, phones []*phonesim.Phone, texts []string) *Person {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &Person{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		seen := map[string]string{} // goal → the question last answered (text and deadline)
		for {
			for i, id := range ids {
				qctx, qcancel := context.WithTimeout(ctx, 10*time.Second)
				st, err := s.Goals.Status(qctx, id)
				qcancel()
				if err != nil || st.PendingQuestion == "" {
					continue
				}
				key := st.PendingQuestion + "|" + st.AnswerBy.String()
				if seen[id] == key {
					continue
				}
				ans := LookAndAnswer(phones[i], texts[i])
				actx, acancel := context.WithTimeout(ctx, 30*time.Second)
				err = s.Goals.Clarify(actx, id, ans, false)
				acancel()
				if err != nil {
					if ctx.Err() == nil {
						t.Logf("person: the answer to %s's question was not taken (asked again if still pending): %v", id, err)
					}
					continue
				}
				seen[id] = key
				p.mu.Lock()
				p.answered = append(p.answered, Answer{Goal: id, Question: st.PendingQuestion, Answer: ans, At: time.Now()})
				p.mu.Unlock()
				t.Logf("person: %s asked %q; answered %q", id, st.PendingQuestion, ans)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(2 * time.Second):
			}
		}
	}()
	return p
}

// LookAndAnswer is what the phone's owner answers after looking at the
// conversation with Alice Chen for the message text.
func LookAndAnswer(p *phonesim.Phone, text string) string {
	n := 0
	for _, m := range p.State().MessagesSent {
		if m.To == "Alice Chen" && m.Text == text {
			n++
		}
	}
	switch n {
	case 0:
		return fmt.Sprintf("No, it did not happen: the conversation with Alice Chen does not show %q; it was not sent.", text)
	case 1:
		return fmt.Sprintf("Yes, it happened: %q shows once in the conversation with Alice Chen; it was sent, do not send it again.", text)
	}
	return fmt.Sprintf("Yes: %q shows %d times in the conversation with Alice Chen; do not send it again.", text, n)
}

// Stop stops the Person and returns the questions it answered.
func (p *Person) Stop() []Answer {
	p.stop()
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Answer(nil), p.answered...)
}
