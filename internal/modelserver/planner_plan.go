package modelserver

import (
	"regexp"
	"strconv"
	"strings"
)

// planGoal answers a plan request with the documented rules (see doc.go):
// the planner's own reading of the goal (reader.go), with a question when
// something needed is missing and the user has not answered it yet.
func planGoal(pc planContext) planAnswer {
	goal, marks := namedPhones(pc.Goal, pc.Phones)
	todos := readGoal(goal)
	for _, m := range pc.UserMessages {
		todos = append(todos, readGoal(m)...)
	}
	if len(todos) == 0 {
		return planAnswer{Status: "ask_user", Question: "What would you like me to do on the phone?"}
	}
	var items []planItem
	at := 0
	for _, t := range todos {
		var phone string
		phone, at = phoneOfClause(goal, t.Clause, at, marks)
		t = remembered(answered(t, pc.Answers), pc.Memory)
		if t.Ask != "" {
			return planAnswer{Status: "ask_user", Question: t.Ask}
		}
		items = append(items, planItem{Todo: t.Todo, Expect: t.Expect, Phone: phone})
	}
	return planAnswer{Status: "planned", Plan: items, TaskType: taskType(texts(items))}
}

// answered reads a todo again with the user's answer to its question; an
// answer the reading still cannot place goes to the executor with the
// clause, as the user wrote it, without postconditions.
func answered(t planned, answers []answerPair) planned {
	if t.Ask == "" {
		return t
	}
	if len(answers) == 0 {
		return t
	}
	// The answer to this question, else the latest answer.
	a := answers[len(answers)-1]
	for _, x := range answers {
		if x.Question == t.Ask {
			a = x
		}
	}
	// The answer after the clause, or as the words after a colon ("Send
	// a message to Bob" answered "see you at 8").
	for _, sep := range []string{" ", ": "} {
		again := readClause(strings.TrimSpace(t.Clause+sep+a.Answer), planned{})
		if len(again) > 0 && again[0].Ask == "" {
			return again[0]
		}
	}
	return planned{Todo: capitalise(strings.TrimSpace(t.Clause + ": " + a.Answer))}
}

// asksMoreThanWho is a question that asks, besides who, what, which,
// when or how (outside a quoted message text).
var asksMoreThanWho = regexp.MustCompile(`(?i)^[^"]*(?:"[^"]*"[^"]*)*\b(?:what|which|when|how)\b`)

// rememberedRe is a remembered answer (memory.FromAnswer's text).
var rememberedRe = regexp.MustCompile(`^Answer to ("(?:[^"\\]|\\.)*"): ("(?:[^"\\]|\\.)*")$`)

// remembered answers a question about who someone is ("Who should I send
// the message "hi" to?", "Whose phone number should I read?") from the
// person's answer to the same question in an earlier goal, as memory
// shows it: the person is not asked again what they already said. Other
// questions (what to write, which time) are asked again: last time's
// answer need not fit this goal. So is a who question that also asks
// anything else ("Who should I send the message to, and what should it
// say?"): the answer holds the earlier goal's words, which sent again
// would repeat its message under a goal that named none.
func remembered(t planned, memory []string) planned {
	if t.Ask == "" || !(strings.HasPrefix(t.Ask, "Who ") || strings.HasPrefix(t.Ask, "Whose ")) || asksMoreThanWho.MatchString(t.Ask) {
		return t
	}
	for _, m := range memory {
		g := rememberedRe.FindStringSubmatch(m)
		if g == nil {
			continue
		}
		q, err1 := strconv.Unquote(g[1])
		a, err2 := strconv.Unquote(g[2])
		if err1 == nil && err2 == nil && q == t.Ask {
			return answered(t, []answerPair{{Question: q, Answer: a}})
		}
	}
	return t
}

// replanGoal answers a replan request with the documented rules (see doc.go).
func replanGoal(pc planContext) planAnswer {
	var remaining []string
	for _, r := range pc.Remaining {
		if r = strings.TrimSpace(r); r != "" {
			remaining = append(remaining, r)
		}
	}
	known := map[string]bool{}
	for _, d := range pc.Done {
		known[d.Todo] = true
	}
	for _, r := range remaining {
		known[r] = true
	}
	for _, m := range pc.UserMessages {
		for _, c := range SplitGoal(m) {
			if !known[c] {
				remaining = append(remaining, c)
				known[c] = true
			}
		}
	}

	if n := len(pc.Done); n > 0 && pc.Done[n-1].Status == "failed" && strings.TrimSpace(pc.Done[n-1].Todo) != "" && len(pc.Done[n-1].Committed) == 0 {
		// A todo that committed something (a message sent) is not run
		// again: the summary says what it did.
		last := pc.Done[n-1]
		tries := 0
		for _, d := range pc.Done {
			if d.Todo == last.Todo && d.Status == "failed" {
				tries++
			}
		}
		if tries < maxTodoTries && !impossible(last) && last.Repeated == "" {
			remaining = append([]string{strings.TrimSpace(last.Todo)}, remaining...)
			return planAnswer{Status: "replanned", Plan: withExpect(remaining)}
		}
		// Tried enough, failed the same way twice, or it cannot be done on
		// this phone: skip it and go on; the summary says what is missing,
		// and the goal is not done.
	}

	if len(remaining) == 0 {
		return planAnswer{Status: "done", Response: summarise(pc.Done) + committedLine(pc.Done)}
	}

	prev := placeholderValue(pc.Done)
	var keep []string
	// A reading todo or a wait for the phone still to run reads the value
	// a placeholder after it stands for: it stays a placeholder until then.
	readAhead := false
	for _, r := range remaining {
		if reads(r) {
			readAhead = true
		}
		if hasPlaceholder(r) && !readAhead {
			if prev == "" {
				// What it needs was never read: it cannot run, and its
				// placeholder must never be sent as content.
				continue
			}
			r = substitute(r, prev)
		}
		keep = append(keep, r)
	}
	if len(keep) == 0 {
		return planAnswer{Status: "done", Response: summarise(pc.Done) + notRun(remaining, keep)}
	}
	items := withExpect(keep)
	for i, r := range keep {
		if hasPlaceholder(r) {
			continue // written once the value it sends is read
		}
		t := remembered(answered(readOne(r), pc.Answers), pc.Memory)
		if t.Ask != "" {
			return planAnswer{Status: "ask_user", Question: t.Ask}
		}
		if t.Todo != "" && len(t.Expect) > 0 {
			items[i] = planItem{Todo: r, Expect: t.Expect}
			if t.Rewrite {
				items[i].Todo = t.Todo
			}
		}
	}
	return planAnswer{Status: "replanned", Plan: items}
}

// notRun names the todos a replan left out because what they needed was
// never read.
func notRun(remaining, kept []string) string {
	if len(remaining) == len(kept) {
		return ""
	}
	var out []string
	for _, r := range remaining {
		if hasPlaceholder(r) {
			out = append(out, r)
		}
	}
	return " Not done: " + strings.Join(out, "; ") + " (the value it needs was never read)."
}

// taskType names the prompt-memory task type of a plan from its first
// clause that is not general.
func taskType(clauses []string) string {
	for _, c := range clauses {
		in := parseIntent(c)
		switch in.Kind {
		case kindToggle, kindBrightness:
			return "settings"
		case kindMessage:
			return "messaging"
		case kindAlarm:
			return "alarm"
		case kindNote:
			return "notes"
		case kindRead:
			if in.What == "phone" {
				return "contacts"
			}
			return "reading"
		case kindOpen:
			switch in.App {
			case "Settings":
				return "settings"
			case "Messages":
				return "messaging"
			case "Clock":
				return "alarm"
			case "Notes":
				return "notes"
			case "Contacts":
				return "contacts"
			}
		}
	}
	return "general"
}
