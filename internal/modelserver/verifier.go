package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/verify"
)

// roleVerifier answers verification requests (docs/design.md §9): the
// system prompt starts with "You are the verifier".
const roleVerifier roleName = "verifier"

// isVerifier reports whether a request is a verification request.
func isVerifier(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" && strings.HasPrefix(strings.ToLower(msgs[0].Text), "you are the verifier")
}

var execMsgRe = regexp.MustCompile(`(?m)^Executor message:[ \t]*(.*)$`)

// verifyAnswer judges a finished todo from what the request shows: the
// task, the executor's message, the app in front and the element list of
// the final screen (the same screen understanding the executor persona
// uses). It never looks at the simulator itself.
func (s *Server) verifyAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return [...]string{`{"status":"probably","evidence":"looks fine"}`, `the todo looks done`, `{"status":"done"}`}[f.variant%3]
	}
	var last string
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.Contains(msgs[i].Text, "Task:") {
			last = msgs[i].Text
			break
		}
	}
	obs := parseObservation(last)
	msg := ""
	if m := execMsgRe.FindStringSubmatch(last); m != nil {
		msg = strings.TrimSpace(m[1])
	}
	v := judge(obs, msg)
	b, _ := json.Marshal(map[string]string{"status": v.Status, "evidence": v.Evidence})
	return string(b)
}

func done(format string, args ...any) verify.Verdict {
	return verify.Verdict{Status: verify.Done, Evidence: fmt.Sprintf(format, args...)}
}

func failed(format string, args ...any) verify.Verdict {
	return verify.Verdict{Status: verify.Failed, Evidence: fmt.Sprintf(format, args...)}
}

// judge decides one verification. A task of several clauses (single-loop
// mode) needs a result for every clause in the message, and its last
// clause is judged on the screen.
func judge(obs observation, msg string) verify.Verdict {
	if obs.Task == "" {
		return failed("the request names no task")
	}
	if p, ok := verify.Admits(msg); ok {
		return failed("the executor says it was not done (%q): %s", p, msg)
	}
	base, told := splitAnswered(obs.Task)
	clauses := SplitGoal(base)
	if len(clauses) > 1 {
		parts := strings.Split(msg, "; ")
		if len(parts) < len(clauses) {
			return failed("the message reports %d results for %d parts of the task: %s", len(parts), len(clauses), msg)
		}
		last := clauses[len(clauses)-1]
		if hasPlaceholder(last) {
			last = substitute(last, parts[len(parts)-2])
		}
		last = withAnswered(last, told)
		v := judgeOne(obs, last, parts[len(parts)-1])
		if v.Status == verify.Done {
			v.Evidence = fmt.Sprintf("all %d parts report a result; last part: %s", len(clauses), v.Evidence)
		}
		return v
	}
	return judgeOne(obs, obs.Task, msg)
}

// judgeOne judges one clause on the final screen with the verifier's own
// reading of it (verdict.go), never the executor persona's parse.
func judgeOne(obs observation, task, msg string) verify.Verdict {
	return judgeClaim(obs, task, msg)
}

// simApps are the simulator's apps, named in failure evidence.
var simApps = []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"}

// missingApp returns the name of an app a task asks for that the phone does
// not have, or "".
func missingApp(app string) string {
	if app == "" {
		return ""
	}
	if _, ok := packages[app]; ok {
		return ""
	}
	return app
}
