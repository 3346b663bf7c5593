package modelserver

import (
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/waits"
)

// What follows a quoted message in its clause (docs/design.md §9): the
// quote holds the words, so the words after it are read for what they
// are, never sent and never checked as part of the message.
//
//   - a time the send waits for ("… “on my way” at 7pm", "… in 10
//     minutes"): a wait todo before the send;
//   - words that only ask for it to be done, or done soon ("tonight",
//     "when you can", "as soon as possible", "before I forget", "please",
//     "谢谢", "马上"): nothing to do, left out;
//   - a recipient ("… to Bob") or a clause of its own ("… and tell her
//     I'm late"): read as they are by the usual rules.
//
// Anything else stays in the clause, and the coverage check asks what it
// means: a tail this reader cannot place is never sent, and never dropped
// silently.

// quoteFillerRe is a tail that asks for no action of its own.
var quoteFillerRe = regexp.MustCompile(`(?i)^(?:[\s,，.。!！]*(?:tonight|today|this\s+(?:morning|afternoon|evening)|now|right\s+now|right\s+away|straight\s+away|immediately|asap|quickly|as\s+soon\s+as\s+(?:possible|you\s+can)|when(?:ever)?\s+you\s+(?:can|get\s+(?:a|the)\s+(?:chance|moment|minute|sec(?:ond)?))|if\s+you\s+can|before\s+i\s+(?:forget|leave|go|head\s+out)|for\s+me|please|pls|kindly|thanks|thank\s+you|thx|ok|okay|谢谢(?:你|啦|了)?|多谢|麻烦(?:你|了)?|拜托(?:了|你了)?|好吗|好不好|可以吗|行吗|吧|一下|马上|立刻|立即|赶紧|赶快|现在|尽快|快点|帮我|今晚|今天))+[\s,，.。!！]*$`)

// quotedToken reports whether c holds a message token whose words came
// from a quote, and returns where the token ends.
func quotedToken(c string) (int, bool) {
	loc := tokRe.FindStringIndex(c)
	if loc == nil {
		return 0, false
	}
	words := strings.TrimSpace(reveal(c[loc[0]:loc[1]]))
	q, ok := findQuoted(words)
	return loc[1], ok && q.start == 0 && q.end == len(words)
}

// quoteTail reads the words after a clause's quoted message: the wait
// they name, if any, and the clause without the tail when the tail is a
// time or asks for nothing. ok is false when the clause keeps its tail.
func quoteTail(c string) (w waits.Wait, head string, ok bool) {
	end, quoted := quotedToken(c)
	if !quoted {
		return waits.Wait{}, c, false
	}
	tail := strings.TrimSpace(c[end:])
	if tail == "" {
		return waits.Wait{}, c, false
	}
	head = strings.TrimRight(c[:end], " ")
	if quoteFillerRe.MatchString(tail) {
		return waits.Wait{}, head, true
	}
	// A time of its own: "at 7pm", "in 10 minutes", "晚上7点", perhaps
	// with words that ask for nothing after it.
	if lw, rest, found := waits.Lead(strings.TrimLeft(tail, ",， ") + " " + msgPlaceholder); found {
		if r := strings.TrimSpace(strings.TrimSuffix(rest, msgPlaceholder)); r == "" || quoteFillerRe.MatchString(r) {
			return lw, head, true
		}
	}
	return waits.Wait{}, c, false
}
