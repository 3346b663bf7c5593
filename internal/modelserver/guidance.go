package modelserver

import (
	"encoding/json"
	"strings"
)

// roleGuidance answers the planner's guidance rewrite requests
// (docs/design.md §2 Guards): the system prompt starts with "You are the
// guidance writer".
const roleGuidance roleName = "guidance"

// Guidance lines the offline writer derives from the reasons of failed
// runs. The offline executor heeds tapCheckLine: a naive persona told to
// check each tap repairs its missed taps as the default persona does.
const (
	tapCheckLine = "After each tap, look at the new screen and check that it did what you meant; if it did not, go back and tap the right element before you finish."
	noRepeatLine = "Never repeat an action that had no effect: go Back, scroll or pick another element instead."
	sendLine     = "Before you send or save, check that the recipient and the text on screen are exactly the ones the todo names."
	finishLine   = "Finish as soon as the screen shows the todo done, and say what it shows."
)

// isGuidanceWriter reports whether a request is a guidance rewrite request.
func isGuidanceWriter(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" && strings.HasPrefix(strings.ToLower(msgs[0].Text), "you are the guidance writer")
}

// guidanceAnswer rewrites the guidance from what the request carries: the
// lines in force are kept, and each kind of failure among the recent runs
// adds the line that prevents it (a wrong or missed tap, a loop that
// changed nothing, a refused send); runs that all succeeded add the line
// to finish as soon as the screen shows it done. The same request always
// gets the same answer.
func (s *Server) guidanceAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return [...]string{`{"advice":"check taps"}`, `Check your taps.`, `{"guidance":""}`}[f.variant%3]
	}
	var text string
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, "Todo type:") {
			text = msgs[i].Text
			break
		}
	}
	current, runs := readGuidanceRequest(text)
	lines := append([]string(nil), current...)
	add := func(l string) {
		for _, x := range lines {
			if x == l {
				return
			}
		}
		lines = append(lines, l)
	}
	failed := false
	for _, r := range runs {
		if r.success {
			continue
		}
		failed = true
		why := strings.ToLower(r.reason)
		switch {
		case containsAny(why, "refused", "wrong target", "wrong recipient"):
			add(sendLine)
		case containsAny(why, "stuck", "no effect", "did not change", "same action", "repeated", "step cap"):
			add(noRepeatLine)
		default:
			// Not done while the executor said done: a tap that missed.
			add(tapCheckLine)
		}
	}
	if !failed && len(runs) > 0 {
		add(finishLine)
	}
	b, _ := json.Marshal(map[string]string{"guidance": strings.Join(lines, "\n")})
	return string(b)
}

type guidanceRun struct {
	success bool
	reason  string
}

// readGuidanceRequest reads the guidance in force (its lines) and the
// recent runs of a guidance request.
func readGuidanceRequest(text string) ([]string, []guidanceRun) {
	var current []string
	var runs []guidanceRun
	part := ""
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "Guidance in force"):
			part = "current"
			continue
		case strings.HasPrefix(t, "Recent verified runs"):
			part = "runs"
			continue
		case strings.HasPrefix(t, "Answer {"):
			part = ""
			continue
		}
		switch part {
		case "current":
			if t != "" && t != "(none)" {
				current = append(current, t)
			}
		case "runs":
			rest, ok := strings.CutPrefix(t, "- v")
			if !ok {
				continue
			}
			_, rest, _ = strings.Cut(rest, " ")
			r := guidanceRun{success: strings.HasPrefix(rest, "done:")}
			if _, why, ok := strings.Cut(rest, " — "); ok {
				r.reason = why
			}
			runs = append(runs, r)
		}
	}
	return current, runs
}

// heedsTapCheck reports whether the executor's system prompt tells it to
// check each tap (the guidance in force carries tapCheckLine's advice).
func heedsTapCheck(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" && strings.Contains(strings.ToLower(msgs[0].Text), "after each tap, look at the new screen")
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
