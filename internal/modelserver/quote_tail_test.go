package modelserver

import (
	"reflect"
	"testing"
)

// TestWordsAfterAQuote: what follows a quoted message is read for what it
// is, and the message sent is the quote, checked as sent: a time becomes a
// wait before the send, words that ask for nothing are left out, a clause
// to "her"/"him"/"她" sends to the person the todo before sent to, and a
// tail nothing explains is asked about, never sent or dropped.
func TestWordsAfterAQuote(t *testing.T) {
	for _, c := range []struct {
		goal string
		want []string // todos; nil: the planner asks
	}{
		{"Ping Carol ‘parking is full’ right away", []string{"Send Carol a message: parking is full"}},
		{"Text Dana \"the door code is 4411\" whenever you get a chance, thanks", []string{"Send Dana a message: the door code is 4411"}},
		{"Send Bob Li a message saying “lunch is ready” immediately please", []string{"Send Bob Li a message: lunch is ready"}},
		{"Message Alice «bring an umbrella» this evening", []string{"Send Alice a message: bring an umbrella"}},
		{"Text Alice “on my way” at 7:45pm", []string{"Wait until 19:45", "Send Alice a message: on my way"}},
		{"Tell Bob 'the taxi is here' in 5 minutes please", []string{"Wait 5 minutes", "Send Bob a message: the taxi is here"}},
		{"Text Alice “on my way” and tell her I'm late", []string{"Send Alice a message: on my way", "Send Alice a message: I'm late"}},
		{"Message Bob “hi” and let him know the meeting moved", []string{"Send Bob a message: hi", "Send Bob a message: the meeting moved"}},
		{"给王五发消息「我在楼下」，麻烦了", []string{"Send 王五 a message: 我在楼下"}},
		{"给李四发消息“开会改到三点”马上", []string{"Send 李四 a message: 开会改到三点"}},
		{"给李四发消息「我到了」晚上8点", []string{"Wait until 20:00", "Send 李四 a message: 我到了"}},
		{"给李四发消息「我到了」，告诉她我会晚点", []string{"Send 李四 a message: 我到了", "Send 李四 a message: 我会晚点"}},
		// Tails nothing here explains: asked about.
		{"Text Alice “on my way”, I'm late", nil},
		{"Text Alice “on my way” before 5pm", nil},
		{"Text Alice “on my way” later", nil},
		{"Text Alice “on my way” and Bob “hello”", nil},
		{"Turn on Wi-Fi and tell her “hi”", nil},
	} {
		pa := planGoal(planContext{Goal: c.goal})
		if c.want == nil {
			if pa.Status != "ask_user" {
				t.Errorf("%q: plan %q, want a question", c.goal, texts(pa.Plan))
			}
			continue
		}
		if got := texts(pa.Plan); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: plan %q (question %q), want %q", c.goal, got, pa.Question, c.want)
			continue
		}
		// What is sent is what is checked.
		for _, p := range pa.Plan {
			for _, e := range p.Expect {
				if e.Contains != "" && p.Todo[len(p.Todo)-len(e.Contains):] != e.Contains {
					t.Errorf("%q: todo %q is checked for %q", c.goal, p.Todo, e.Contains)
				}
			}
		}
	}
}
