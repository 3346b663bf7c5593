package modelserver

import (
	"fmt"
	"regexp"
	"strings"
)

// faults is what one completion request draws from the server's random
// source. Every request takes the same number of draws whatever the
// configuration, so the sequence of faults for a seed depends only on the
// order of requests.
type faults struct {
	seq       int64
	fault429  bool
	fault500  bool
	malformed bool
	variant   int    // which malformed answer to give
	wrongTap  bool   // replace the executor's tap point
	tap       [2]int // the wrong point (0-999 grid)
}

func (s *Server) draw() faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	r429, r500, rMal, rTap := s.rng.Float64(), s.rng.Float64(), s.rng.Float64(), s.rng.Float64()
	f := faults{
		seq:     s.seq,
		variant: s.rng.Intn(3),
		tap:     [2]int{50 + s.rng.Intn(900), 100 + s.rng.Intn(850)},
	}
	switch {
	case r429 < s.cfg.RateLimit429:
		f.fault429 = true
	case r500 < s.cfg.Rate500:
		f.fault500 = true
	case rMal < s.cfg.RateMalformed:
		f.malformed = true
	case rTap < s.cfg.RateWrongTap:
		f.wrongTap = true
	}
	return f
}

// RoleName is the part a request is answered in.
type RoleName string

// The two roles the server plays.
const (
	RolePlanner  RoleName = "planner"
	RoleExecutor RoleName = "executor"
)

// Role picks the role for a request: "planner" in the model id means the
// planner, "executor" the executor; for other ids a request with an image
// part is an executor request, and one whose system prompt introduces the
// planner or replanner (or whose last message holds a JSON context with a
// "goal") is a planner request. Everything else goes to the executor.
func Role(model string, msgs []message) RoleName {
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "planner"):
		return RolePlanner
	case strings.Contains(m, "executor"):
		return RoleExecutor
	}
	for _, msg := range msgs {
		if msg.Images > 0 {
			return RoleExecutor
		}
	}
	if len(msgs) > 0 {
		if first := strings.ToLower(msgs[0].Text); msgs[0].Role == "system" &&
			(strings.HasPrefix(first, "you are the planner") || strings.HasPrefix(first, "you are the replanner")) {
			return RolePlanner
		}
		if _, ok := jsonContext(msgs[len(msgs)-1].Text); ok && strings.Contains(msgs[len(msgs)-1].Text, `"goal"`) {
			return RolePlanner
		}
	}
	return RoleExecutor
}

// malformedExecutor returns an executor answer the protocol parser must
// reject: no action, an unknown action, or a truncated do(...).
func malformedExecutor(variant int) string {
	switch variant {
	case 0:
		return "<think>The screen is loading, I am not sure what to do next.</think><answer>I would probably tap somewhere near the top.</answer>"
	case 1:
		return `<think>I will fly to the settings.</think><answer>do(action="Teleport", app="Settings")</answer>`
	default:
		return `<think>Tap the first row.</think><answer>do(action="Tap", element=[50`
	}
}

// malformedPlanner returns a planner answer the contract validation must
// reject: broken JSON, "planned" without a plan, or an unknown status.
func malformedPlanner(variant int) string {
	switch variant {
	case 0:
		return `{"status":"planned","plan":["Open Settings",`
	case 1:
		return `{"status":"planned","task_type":"general"}`
	default:
		return `Sure! {"status":"maybe","thoughts":"I could do it later"}`
	}
}

var tapRe = regexp.MustCompile(`do\(action="Tap", element=\[\d+,\d+\]`)

// wrongTap moves the point of a Tap answer to p, keeping everything else.
func wrongTap(answer string, p [2]int) (string, bool) {
	loc := tapRe.FindStringIndex(answer)
	if loc == nil {
		return answer, false
	}
	repl := fmt.Sprintf(`do(action="Tap", element=[%d,%d]`, p[0], p[1])
	return answer[:loc[0]] + repl + answer[loc[1]:], true
}
