package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of a condition on the phone's state
// (docs/design.md §9): "If Wi-Fi is off, turn it on", "Turn Bluetooth on
// if it's off". A plan is a list of todos with no branches, so a condition
// is never a todo of its own (read from its words it would do the
// opposite of what was asked). When the action sets the very switch the
// condition is about, the action alone is right whatever the phone shows:
// its check holds either way. Any other condition is asked about.

var (
	// rdIfLeadRe is a clause that is only a condition: "if Wi-Fi is off",
	// "in case wifi is disabled"; the action is the next clause.
	rdIfLeadRe = regexp.MustCompile(`(?i)^(?:only\s+)?(?:if|in\s+case|provided(?:\s+that)?|assuming|should)\s+(.+)$`)
	// rdIfTailRe is an action followed by its condition: "Turn Bluetooth
	// on if it's off".
	rdIfTailRe = regexp.MustCompile(`(?i)^(.+?)\s*,?\s+(?:but\s+)?(?:only\s+)?(?:if|in\s+case|provided(?:\s+that)?)\s+(.+)$`)
	// rdItRe is a pronoun that stands for what the clause before named.
	rdItRe = regexp.MustCompile(`(?i)\b(?:it|that|this)\b`)
)

// condition is a clause's condition as the goal words it.
type condition struct {
	text  string
	about string // the switch it is about, or ""
}

// conditionLead reads a clause that is only a condition; ok is false for
// any other clause. A condition with its action in the same clause ("if
// Wi-Fi is off turn it on") comes back with the action as rest.
func conditionLead(c string) (cond condition, rest string, ok bool) {
	m := rdIfLeadRe.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil {
		return condition{}, "", false
	}
	body := m[1]
	words := strings.Fields(body)
	for i := 1; i < len(words); i++ {
		if tail := strings.Join(words[i:], " "); rdVerbRe.MatchString(tail) {
			body, rest = strings.Join(words[:i], " "), tail
			break
		}
	}
	return condition{text: body, about: switchName(body)}, rest, true
}

// conditionTail splits "Turn Bluetooth on if it's off" into its action and
// its condition; ok is false for a clause with no such condition.
func conditionTail(c string) (action string, cond condition, ok bool) {
	m := rdIfTailRe.FindStringSubmatch(strings.TrimSpace(c))
	// In a message "if" is the message's ("Tell Bob I'll come if it
	// rains").
	if m == nil || !rdVerbRe.MatchString(m[1]) || rdSendRe.MatchString(m[1]) || rdQuotedFirst.MatchString(c) || messageColon(c) >= 0 {
		return "", condition{}, false
	}
	return m[1], condition{text: m[2], about: switchName(m[2])}, true
}

// conditional plans an action under a condition: the action alone when it
// sets the switch the condition is about, else a question.
func conditional(cond condition, action string, prev planned) planned {
	action = strings.TrimSpace(action)
	if action == "" {
		return planned{Ask: fmt.Sprintf("What should I do if %s?", cond.text)}
	}
	if cond.about != "" {
		name := switchName(action)
		if name == "" && rdItRe.MatchString(action) {
			name = cond.about
			action = rdItRe.ReplaceAllString(action, name)
		}
		if name == cond.about {
			if p := switchTodo(action, prev); p.Ask == "" && len(p.Expect) == 1 {
				return p
			}
		}
	}
	return planned{Ask: fmt.Sprintf("I cannot check whether %s before I act. Should I %s anyway, or leave it?", cond.text, action)}
}

// pronounSwitch reads "turn it on" after a clause about a switch as that
// switch; ok is false for a clause with no such pronoun. With no switch
// before it, the clause is asked about rather than sent to the executor
// with no check.
func pronounSwitch(c string, prev planned) (planned, bool) {
	if switchName(c) != "" || !rdSwitchVerbRe.MatchString(c) || !rdItRe.MatchString(c) || !(rdOnRe.MatchString(c) || rdOffRe.MatchString(c)) {
		return planned{}, false
	}
	if strings.Contains(strings.ToLower(c), "alarm") {
		return planned{}, false
	}
	name := ""
	switch {
	case len(prev.Expect) == 1 && prev.Expect[0].Kind == postcond.Switch:
		name = prev.Expect[0].Label
	case rdStateSwitchTodoRe.MatchString(prev.Todo):
		name = rdStateSwitchTodoRe.FindStringSubmatch(prev.Todo)[1]
	}
	if name == "" {
		return planned{Ask: fmt.Sprintf("What should I %s?", strings.ToLower(c))}, true
	}
	return switchTodo(rdItRe.ReplaceAllString(c, name), prev), true
}

// rdStateSwitchTodoRe is the todo that reads a Settings switch.
var rdStateSwitchTodoRe = regexp.MustCompile(`^Read the state of the (.+) switch$`)

// conditionTailOK reports whether a clause ends with its condition.
func conditionTailOK(c string) bool {
	_, _, ok := conditionTail(c)
	return ok
}

// conditionalClause plans a clause under the condition of the clause
// before (pending), or under its own trailing one, whose "it" is the
// action's switch ("Turn Bluetooth on if it's off").
func conditionalClause(c string, pending *condition, prev planned) planned {
	if pending != nil {
		return conditional(*pending, c, prev)
	}
	action, cond, _ := conditionTail(c)
	if cond.about == "" && rdItRe.MatchString(cond.text) {
		cond.about = switchName(action)
	}
	return conditional(cond, action, prev)
}
