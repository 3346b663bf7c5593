package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// roleQuestion answers the requests in which the planner hears an
// executor's question (docs/design.md#executor-questions): the system
// prompt starts with "You are the planner, and the executor".
const roleQuestion roleName = "question"

// isQuestionDesk reports whether a request is an executor question put
// to the planner.
func isQuestionDesk(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" &&
		strings.HasPrefix(strings.ToLower(msgs[0].Text), "you are the planner, and the executor")
}

// questionRequest is what a question request carries, read from its
// lines as a model reads them.
type questionRequest struct {
	Goal, Todo, Kind, Question string
	Answers                    []string // "question → answer"
}

var asksLineRe = regexp.MustCompile(`^Executor asks \(([^)]*)\): (.*)$`)

func readQuestionRequest(text string) questionRequest {
	var r questionRequest
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if rest, ok := strings.CutPrefix(line, "- "); ok && section != "" {
			if section == "The person answered earlier" {
				r.Answers = append(r.Answers, rest)
			}
			continue
		}
		section = ""
		switch {
		case strings.HasPrefix(line, "Goal: "):
			r.Goal = strings.TrimPrefix(line, "Goal: ")
		case strings.HasPrefix(line, "Todo: "):
			r.Todo = strings.TrimPrefix(line, "Todo: ")
		case asksLineRe.MatchString(line):
			m := asksLineRe.FindStringSubmatch(line)
			r.Kind, r.Question = m[1], m[2]
		case strings.HasSuffix(line, ":"):
			section = strings.TrimSuffix(line, ":")
		}
	}
	return r
}

// The kinds of question the offline planner tells apart.
var (
	asksTextRe = regexp.MustCompile(`(?i)\bwhat\b.*\b(?:say|text|words|write|message)\b|说什么|内容`)
	asksToRe   = regexp.MustCompile(`(?i)\bwho(?:m)?\b|\bwhich (?:contact|person|conversation|one)\b|\bto whom\b|发给谁|给谁`)
	cannotRe   = regexp.MustCompile(`(?i)\b(?:there is no|there's no|cannot find|can't find|could not find|not installed|does not exist|doesn't exist|no such)\b|找不到|没有这个`)
)

// questionAnswer decides on an executor's question from the goal alone:
// a message's text or recipient the goal states once and plainly is
// answered; a todo whose app or element does not exist is replanned;
// everything else, and every hand-over (Take_over), is the person's.
func (s *Server) questionAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return [...]string{`{"choice":"answer"}`, `Ask the user.`, `{"choice":"maybe","reason":"unsure"}`}[f.variant%3]
	}
	var text string
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, "Executor asks") {
			text = msgs[i].Text
			break
		}
	}
	choice, answer, reason := decideQuestion(readQuestionRequest(text))
	out := map[string]string{"choice": choice, "reason": reason}
	if answer != "" {
		out["answer"] = answer
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func decideQuestion(r questionRequest) (choice, answer, reason string) {
	if strings.EqualFold(r.Kind, "Take_over") {
		return "ask_user", "", "the executor needs the person's hands on the phone"
	}
	q := r.Question
	switch {
	case cannotRe.MatchString(q):
		return "replan", "", "the todo cannot be done as written: " + q
	case asksTextRe.MatchString(q):
		if t, ok := goalMessage(r.Goal, r.Todo, func(in intent) string { return in.Text }); ok {
			return "answer", t, fmt.Sprintf("the goal states the message: %q", t)
		}
		return "ask_user", "", "the goal does not say the message's words"
	case asksToRe.MatchString(q):
		if t, ok := goalMessage(r.Goal, r.Todo, func(in intent) string { return in.To }); ok {
			return "answer", t, fmt.Sprintf("the goal names the recipient: %s", t)
		}
		return "ask_user", "", "the goal does not name one recipient"
	}
	return "ask_user", "", "only the person can answer this"
}

// goalMessage returns the one value field gives among the goal's message
// clauses that fit the todo (same recipient when the todo names one). Two
// different values, or none, is not an answer.
func goalMessage(goal, todo string, field func(intent) string) (string, bool) {
	want := parseIntent(todo)
	if articles[strings.ToLower(want.To)] {
		want.To = "" // "Send the message …" names no one
	}
	var found string
	for _, c := range SplitGoal(goal) {
		in := parseIntent(c)
		if in.Kind != kindMessage {
			continue
		}
		if want.Kind == kindMessage && want.To != "" && in.To != "" && !sameName(want.To, in.To) {
			continue
		}
		v := strings.TrimSpace(field(in))
		if v == "" {
			continue
		}
		if found != "" && found != v {
			return "", false
		}
		found = v
	}
	return found, found != ""
}

// sameName reports whether two ways of writing a person fit each other
// ("Bob" and "Bob Li").
func sameName(a, b string) bool {
	a, b = strings.ToLower(strings.TrimSpace(a)), strings.ToLower(strings.TrimSpace(b))
	return a == b || strings.HasPrefix(a, b+" ") || strings.HasPrefix(b, a+" ")
}

var articles = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true, "my": true}
