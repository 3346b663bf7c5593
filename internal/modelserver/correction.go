package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// roleCorrector answers the planner's correction requests for a stuck
// executor (docs/design.md §2): the system prompt starts with "You are
// the correction writer".
const roleCorrector roleName = "corrector"

// isCorrector reports whether a request is a correction request.
func isCorrector(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" && strings.HasPrefix(strings.ToLower(msgs[0].Text), "you are the correction writer")
}

// correctAnswer writes a correction from what the request carries: the
// task, the recent actions and the current screen, read with the executor
// persona's screen understanding. It works out what a fresh look at the
// screen would do and says so, unless that is the action that had no
// effect, in which case it proposes a way out (scroll or Back). It never
// looks at the simulator.
func (s *Server) correctAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return [...]string{`{"fix":"go back"}`, `Try going back and tapping the right element.`, `{"correction":""}`}[f.variant%3]
	}
	var last string
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, "Task:") {
			last = msgs[i].Text
			break
		}
	}
	b, _ := json.Marshal(map[string]string{"correction": correction(parseObservation(last), recentActions(last))})
	return string(b)
}

// recentActions reads the "Recent actions:" list of a correction request:
// the action text of each line, oldest first.
func recentActions(text string) []act {
	var out []act
	in := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "Recent actions:" {
			in = true
			continue
		}
		if !in {
			continue
		}
		rest, ok := strings.CutPrefix(line, "- ")
		if !ok {
			break
		}
		action, _, _ := strings.Cut(rest, " → ")
		if a, ok := parseAct(action); ok {
			out = append(out, a)
		}
	}
	return out
}

// correction decides what the stuck executor should try instead.
func correction(obs observation, recent []act) string {
	if obs.Task == "" {
		return "Look at the screen again and pick a different element; do not repeat the last action."
	}
	task := obs.Task
	if clauses := SplitGoal(task); len(clauses) > 1 {
		// Single-loop mode: the clause in progress is not known here; the
		// first one still names the app to start from.
		task = clauses[0]
	}
	lastText := ""
	if n := len(recent); n > 0 {
		lastText = recent[n-1].Raw
	}
	c := &solver{obs: obs}
	st := c.solve(task)
	switch {
	case st.finish:
		return fmt.Sprintf("Stop retrying: %s. Finish with finish(message=%s) so the planner can decide.", strings.TrimSuffix(st.think, "."), q(st.result))
	case st.action != "" && st.action != lastText:
		if lastText == "" {
			return fmt.Sprintf("Try %s: %s", st.action, st.think)
		}
		return fmt.Sprintf("%s had no effect. Try %s instead: %s", lastText, st.action, st.think)
	case !c.allListed() && !strings.Contains(lastText, `"Swipe"`):
		return fmt.Sprintf("%s had no effect and what the task needs is not on this screen. Scroll with %s to look for it.",
			firstNonEmpty(lastText, "The last action"), swipe(true, "").action)
	}
	return fmt.Sprintf("%s had no effect. Go back with do(action=\"Back\") and take another way to the task.", firstNonEmpty(lastText, "The last action"))
}

// suggestedRe finds the action a correction note proposes.
var suggestedRe = regexp.MustCompile(`(?:Try|with) (do\(action="[^"]+"(?:, [a-z_]+=(?:"(?:[^"\\]|\\.)*"|\[\d+,\s*\d+\]))*\))`)

// suggested returns the action a planner-written correction among the
// notes proposes, if any.
func (c *solver) suggested() (string, bool) {
	for i := len(c.obs.Notes) - 1; i >= 0; i-- {
		n := c.obs.Notes[i]
		if !strings.Contains(strings.ToLower(n), "stuck") {
			continue
		}
		if m := suggestedRe.FindStringSubmatch(n); m != nil {
			return m[1], true
		}
	}
	return "", false
}
