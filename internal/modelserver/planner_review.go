package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// roleReview answers the planner's look in on a running todo
// (docs/design.md#planner-review): the system prompt starts with "You
// are the planner, looking in".
const roleReview roleName = "review"

// isReviewer reports whether a request is a review request.
func isReviewer(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" &&
		strings.HasPrefix(strings.ToLower(msgs[0].Text), "you are the planner, looking in")
}

type reviewRequest struct {
	Todo            string
	Steps, MaxSteps int
	Recent          []string // "action → result"
	Wrong, Hints    []string
	Next            string
}

var stepsLineRe = regexp.MustCompile(`^Steps: (\d+)(?: of at most (\d+))?$`)

func readReviewRequest(text string) reviewRequest {
	var r reviewRequest
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if rest, ok := strings.CutPrefix(line, "- "); ok && section != "" {
			if rest == "(none)" {
				continue
			}
			switch section {
			case "Recent actions":
				r.Recent = append(r.Recent, rest)
			case "Went wrong":
				r.Wrong = append(r.Wrong, rest)
			case "Your earlier hints":
				r.Hints = append(r.Hints, rest)
			}
			continue
		}
		section = ""
		switch {
		case strings.HasPrefix(line, "Todo: "):
			r.Todo = strings.TrimPrefix(line, "Todo: ")
		case strings.HasPrefix(line, "Next: "):
			r.Next = strings.TrimPrefix(line, "Next: ")
		case stepsLineRe.MatchString(line):
			m := stepsLineRe.FindStringSubmatch(line)
			r.Steps, _ = strconv.Atoi(m[1])
			r.MaxSteps, _ = strconv.Atoi(m[2])
		case strings.HasSuffix(line, ":"):
			section = strings.TrimSuffix(line, ":")
		}
	}
	return r
}

// reviewAnswer decides on a running todo from its recent actions, as a
// planner that cannot see the screen can: text typed that is not the
// todo's words stops it for a replan before it is sent; actions that keep
// failing get a hint; a todo that used most of its steps while stuck is
// replanned; everything else continues.
func (s *Server) reviewAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return [...]string{`{"decision":"hint"}`, `Keep going.`, `{"decision":"stop"}`}[f.variant%3]
	}
	var text string
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, "Recent actions:") {
			text = msgs[i].Text
			break
		}
	}
	decision, hint, reason := decideReview(readReviewRequest(text))
	out := map[string]string{"decision": decision, "reason": reason}
	if hint != "" {
		out["hint"] = hint
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func decideReview(r reviewRequest) (decision, hint, reason string) {
	want := parseIntent(r.Todo)
	var acts []act
	failed := 0
	for _, line := range r.Recent {
		action, result, _ := strings.Cut(line, " → ")
		if a, ok := parseAct(action); ok {
			acts = append(acts, a)
		}
		if res := strings.TrimSpace(result); res != "" && res != "ok" {
			failed++
		}
	}
	if want.Kind == kindMessage && want.Text != "" {
		for _, a := range acts {
			// A search for the recipient is not the message; a clipped
			// action line is not read.
			typed := strings.TrimSpace(a.Text)
			if a.Name == "Type" && typed != "" && !strings.HasSuffix(a.Raw, "…") && !strings.EqualFold(typed, want.Text) &&
				!(want.To != "" && (sameName(typed, want.To) || strings.Contains(strings.ToLower(want.To), strings.ToLower(typed)))) {
				return "replan", "", fmt.Sprintf("the executor typed %q but the todo's words are %q", typed, want.Text)
			}
		}
	}
	stuck := false
	for _, w := range r.Wrong {
		stuck = stuck || strings.HasPrefix(w, "stuck") || strings.HasPrefix(w, "when stuck")
	}
	if stuck && r.MaxSteps > 0 && r.Steps*4 >= r.MaxSteps*3 {
		return "replan", "", fmt.Sprintf("%d of %d steps went by and the executor is still stuck", r.Steps, r.MaxSteps)
	}
	// Stuck, with steps left and no hint yet: one hint to let the screen
	// settle before the next action, rather than the same action again.
	if stuck && len(r.Hints) == 0 {
		return "hint", "The screen did not change after an action of yours. Wait for it to settle and look again before you act; do not repeat an action that had no effect.",
			"the executor was stuck: " + firstStuck(r.Wrong)
	}
	if failed >= 2 && len(r.Hints) == 0 {
		last := r.Recent[len(r.Recent)-1]
		return "hint", fmt.Sprintf("Your recent actions failed (last: %s). Look at the screen again and take another way: go Back or pick another element; do not repeat an action that failed.", last),
			fmt.Sprintf("%d of the last %d actions failed", failed, len(r.Recent))
	}
	return "continue", "", "the actions move towards the todo"
}

// firstStuck is the first lesson of a review request that says the
// executor was stuck.
func firstStuck(wrong []string) string {
	for _, w := range wrong {
		if strings.HasPrefix(w, "stuck") || strings.HasPrefix(w, "when stuck") {
			return w
		}
	}
	return ""
}
