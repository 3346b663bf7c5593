package mobileuse

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// A read task's value, given with answer before terminate, is the finish's
// result: in the turns before it or in the same answer.
func TestConcludedCarriesTheAnswer(t *testing.T) {
	rel := autoglm.Frame{Relative: true, Scale: RelativeScale}
	call := func(args ...string) string {
		s := "Thought: the first alarm is shown.\nAction: report it.\n"
		for _, a := range args {
			s += "<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": " + a + "}\n</tool_call>\n"
		}
		return s
	}
	const (
		answer  = `{"action": "answer", "text": "07:00"}`
		success = `{"action": "terminate", "status": "success"}`
		failure = `{"action": "terminate", "status": "failure"}`
		click   = `{"action": "click", "coordinate": [100, 200]}`
	)
	for _, c := range []struct {
		name    string
		earlier []string
		answer  string
		want    string
	}{
		{"answer then terminate", []string{call(click), call(answer)}, call(success), `finish(message="07:00")`},
		{"the latest answer", []string{call(`{"action": "answer", "text": "06:00"}`), call(answer), call(click)}, call(success), `finish(message="07:00")`},
		{"no answer before", []string{call(click)}, call(success), `finish(message="success")`},
		{"a failure keeps failing", []string{call(`{"action": "answer", "text": "no alarm is set"}`)}, call(failure), `finish(message="failure: the task could not be completed: no alarm is set")`},
		{"both in one answer", nil, call(answer, success), `finish(message="07:00")`},
		{"a refused earlier turn", []string{"Thought: no call"}, call(success), `finish(message="success")`},
		{"not a finish", []string{call(answer)}, call(click), `do(action="Tap", element=[100,200])`},
	} {
		r, err := Parse(c.answer, rel)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := autoglm.FormatAction(Concluded(r, c.earlier).Action); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
