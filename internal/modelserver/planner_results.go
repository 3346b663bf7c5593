package modelserver

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/waits"
)

// maxTodoTries is how often the replanner runs a todo whose verification
// failed before it gives the goal up.
const maxTodoTries = 3

var impossibleRe = regexp.MustCompile(`(?i)there is no|no app on this phone|no contact named|not found|could not open|is not installed|does not exist|the task does not say|gives no|cannot do`)

// impossible reports a failed todo whose result or evidence says the phone
// lacks what it needs (an app, a contact): trying again cannot help.
func impossible(d doneTodo) bool {
	return impossibleRe.MatchString(d.Result) || impossibleRe.MatchString(d.Evidence)
}

// placeholderValue is what a {result} placeholder stands for: the result
// of the latest reading todo that succeeded, or "" when none has. A
// pronoun ("send it", "the result", "它") names a value read, never what
// another todo did: "turn off Bluetooth, then read the alarm and send it"
// sends the time, and never "Bluetooth is off" (docs/design.md §9).
func placeholderValue(done []doneTodo) string {
	for i := len(done) - 1; i >= 0; i-- {
		d := done[i]
		if d.Status != "done" || d.Result == "" {
			continue
		}
		if reads(d.Todo) {
			return d.Result
		}
	}
	return ""
}

// reads reports whether a todo reads a value for the todos after it: a
// reading todo, or a wait for the phone, which reads what arrived
// (docs/design.md §7).
func reads(todo string) bool {
	_, waited := waits.PhoneTodo(todo)
	// The planner's own reading todos begin "Read the …" ("Read the name
	// of the second conversation in Messages"), which the clause reader
	// does not take for a read of a value.
	return waited || readOne(todo).Reads || strings.HasPrefix(strings.ToLower(strings.TrimSpace(todo)), "read the ")
}

// summarise writes the final response: each todo with its result, and the
// failures.
func summarise(done []doneTodo) string {
	var ok, failed []string
	seenFail := map[string]bool{}
	succeeded := map[string]bool{}
	for _, d := range done {
		if d.Status == "done" {
			succeeded[d.Todo] = true
		}
	}
	for _, d := range done {
		switch d.Status {
		case "done":
			if d.Result != "" {
				ok = append(ok, fmt.Sprintf("%s → %s", d.Todo, d.Result))
			} else {
				ok = append(ok, d.Todo)
			}
		case "failed", "skipped":
			if !succeeded[d.Todo] && !seenFail[d.Todo] {
				seenFail[d.Todo] = true
				why := d.Status
				if r := firstNonEmpty(d.Evidence, d.Result); r != "" {
					why += " (" + r + ")"
				}
				failed = append(failed, fmt.Sprintf("%s %s", d.Todo, why))
			}
		}
	}
	// What was not done comes first: a goal that failed part of its work
	// must not read as done at a glance.
	var b strings.Builder
	if len(failed) > 0 {
		b.WriteString("Not done: " + strings.Join(failed, "; ") + ".")
	}
	if len(ok) > 0 {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("Done: " + strings.Join(ok, "; ") + ".")
	}
	if b.Len() == 0 {
		b.WriteString("Nothing was left to do.")
	}
	return b.String()
}

var placeholderRe = regexp.MustCompile(`(?i)\{result\}|the time read|what was read`)

func hasPlaceholder(todo string) bool { return placeholderRe.MatchString(todo) }

// substitute puts the previous todo's result into a todo's placeholder:
// "Send Alice a message with what was read" → "Send Alice a message: 07:00".
func substitute(todo, result string) string {
	if loc := withPlaceholderRe.FindStringIndex(todo); loc != nil {
		return todo[:loc[0]] + ": " + quoteValue(result) + todo[loc[1]:]
	}
	return placeholderRe.ReplaceAllLiteralString(todo, result)
}

// quoteValue quotes a read value that ends in punctuation ("Sent you the
// slides."), which an unquoted message text would lose as the end of the
// todo's sentence; other values go in as they are.
func quoteValue(v string) string {
	if r, _ := utf8.DecodeLastRuneInString(v); !strings.ContainsRune(".!?。！？…", r) {
		return v
	}
	if strings.Contains(v, `"`) {
		return "“" + v + "”"
	}
	return `"` + v + `"`
}

var withPlaceholderRe = regexp.MustCompile(`(?i) with (\{result\}|the time read|what was read)`)

// complete fills a todo's missing details from the user's answers, or
// returns the question to ask when something needed is still missing.
func complete(todo string, answers []answerPair) (string, string) {
	in := parseIntent(todo)
	switch in.Kind {
	case kindMessage:
		if in.To != "" && in.Text != "" {
			return todo, ""
		}
		to, text := in.To, in.Text
		for _, a := range answers {
			ato, atext := messageFromAnswer(a.Answer)
			if to == "" {
				to = ato
			}
			if text == "" {
				text = atext
			}
		}
		switch {
		case to == "" && text == "":
			return todo, "Who should I send the message to, and what should it say?"
		case to == "":
			return todo, fmt.Sprintf("Who should I send the message %q to?", text)
		case text == "":
			return todo, fmt.Sprintf("What should the message to %s say?", to)
		}
		return fmt.Sprintf("Send %s a message: %s", to, text), ""
	case kindAlarm:
		if in.Time != "" {
			return todo, ""
		}
		for _, a := range answers {
			if t, _ := parseAlarm("at " + a.Answer); t != "" {
				out := "Create an alarm at " + t
				if in.Label != "" {
					out += " labelled " + in.Label
				}
				return out, ""
			}
		}
		return todo, "What time should the alarm ring?"
	}
	return todo, ""
}

// messageFromAnswer reads a recipient and text from an answer such as
// "to Alice: hello", "Alice: hello", "Alice, hello" or "hello to Alice".
func messageFromAnswer(ans string) (to, text string) {
	ans = strings.TrimSpace(ans)
	if !strings.HasPrefix(strings.ToLower(ans), "to ") {
		if i := strings.Index(ans, ", "); i > 0 && !strings.Contains(ans[:i], ":") {
			ans = ans[:i] + ": " + ans[i+2:]
		}
		if strings.ContainsAny(ans, ":：") || answerSaysRe.MatchString(ans) {
			ans = "to " + ans
		}
	}
	return parseMessage("Send a message " + ans)
}
