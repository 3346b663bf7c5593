package modelserver

import (
	"regexp"
	"strings"
)

// The verifier persona reads what the executor was told a todo left out:
// the request's task ends with each question the executor asked and the
// answer it got, "Send Alice Chen a message (asked: What should the
// message to Alice Chen say? answered: on my way)"
// (docs/design.md#executor-questions). An answer to what a message says
// is the text the final screen must show sent; an answer to whom it goes
// names the person the conversation must be with. Nothing else an answer
// says is taken as shown.

// told is one answered question of a task.
type told struct{ question, answer string }

// vdAnsweredRe is the last answered question of a task; the question and
// the answer may hold one level of parentheses.
var vdAnsweredRe = regexp.MustCompile(`\s*\(asked: ((?:[^()]|\([^()]*\))*?) answered: ((?:[^()]|\([^()]*\))*)\)\s*$`)

var (
	vdAskedTextRe = regexp.MustCompile(`(?i)\bwhat\b.*\b(?:say|text|words|write)\b|说什么|内容`)
	vdAskedToRe   = regexp.MustCompile(`(?i)^who\b|\bwhom\b|\bwho (?:should|do|does|is)\b|发给谁|给谁`)
)

// splitAnswered cuts the answered questions off the end of a task.
func splitAnswered(task string) (string, []told) {
	var out []told
	for {
		m := vdAnsweredRe.FindStringSubmatchIndex(task)
		if m == nil {
			return strings.TrimSpace(task), out
		}
		out = append([]told{{question: task[m[2]:m[3]], answer: task[m[4]:m[5]]}}, out...)
		task = task[:m[0]]
	}
}

// withAnswered writes a task with its answered questions again.
func withAnswered(task string, ts []told) string {
	for _, t := range ts {
		task += " (asked: " + t.question + " answered: " + t.answer + ")"
	}
	return task
}

// toldMessage is what the answers say of a message the task leaves out:
// its words and its recipient. A question that asked both at once is
// not read (its answer does not say which part is which).
func toldMessage(ts []told) (text, to string) {
	for _, t := range ts {
		a := strings.Trim(strings.TrimSpace(t.answer), `"'“”.。`)
		asksText, asksTo := vdAskedTextRe.MatchString(t.question), vdAskedToRe.MatchString(t.question)
		switch {
		case a == "" || asksText == asksTo:
		case asksText:
			text = a
		default:
			to = a
		}
	}
	return text, to
}
