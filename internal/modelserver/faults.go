package modelserver

import (
	"fmt"
	"regexp"
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
