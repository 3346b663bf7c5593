package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/planner"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// correctionRequest is a correction request as internal/planner builds it.
func correctionRequest(task, app string, recent []string, elems ...uitree.Listed) []message {
	text := screen(task, app, "", "", elems...)
	var r strings.Builder
	r.WriteString("Stuck: the screen did not change after 3 actions\nRecent actions:\n")
	for _, a := range recent {
		r.WriteString("- " + a + " → ok\n")
	}
	text = strings.Replace(text, "\nCurrent app:", "\n"+r.String()+"Current app:", 1)
	return []message{{Role: "system", Text: planner.CorrectionSystem}, {Role: "user", Text: text}}
}

func TestCorrectorSaysWhatToTryInstead(t *testing.T) {
	missed := `do(action="Tap", element=[500,600])`
	for _, c := range []struct {
		name string
		msgs []message
		want []string
	}{
		{"a missed switch", correctionRequest("Turn on Bluetooth", "Settings", []string{missed, missed}, settingsList...),
			[]string{missed + " had no effect", `Try do(action="Tap", element=[500,217]) instead`}},
		{"the wrong app", correctionRequest("Turn on Bluetooth", "Launcher", []string{missed}, launcher...),
			[]string{`Try do(action="Launch", app="Settings") instead`}},
		{"the right tap had no effect", correctionRequest("Turn on Bluetooth", "Settings",
			[]string{`do(action="Tap", element=[500,217])`}, settingsList...),
			[]string{`Go back with do(action="Back")`}},
		{"an impossible todo", correctionRequest("Book a train in the travel app", "Launcher", []string{missed}, launcher...),
			[]string{"Stop retrying", "finish(message=", "travel"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Config{})
			if r := roleFor(PlannerModel, c.msgs); r != roleCorrector {
				t.Fatalf("role = %s, want corrector", r)
			}
			ans := s.correctAnswer(c.msgs, faults{})
			got, err := planner.ParseCorrection(ans)
			if err != nil {
				t.Fatalf("answer %q breaks the contract: %v", ans, err)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("correction %q lacks %q", got, w)
				}
			}
		})
	}
}

// An executor told it is stuck takes the action the correction proposes
// instead of the one that had no effect.
func TestExecutorFollowsTheCorrection(t *testing.T) {
	tapped := `do(action="Tap", element=[500,217])`
	text := screen("Turn on Bluetooth", "Settings", tapped, "ok", settingsList...)
	text = strings.Replace(text, "\nScreen:", "\nNotes:\n- You seem stuck: the screen did not change or you repeated the same action. "+
		tapped+` had no effect and what the task needs is not on this screen. Scroll with do(action="Swipe", start=[500,750], end=[500,250]) to look for it.`+"\nScreen:", 1)
	msgs := []message{{Role: "user", Text: "Task: earlier"}, {Role: "assistant", Text: "<answer>" + tapped + "</answer>"}, {Role: "user", Text: text}}
	if st := decide(msgs, false); st.action != `do(action="Swipe", start=[500,750], end=[500,250])` {
		t.Fatalf("executor = %s, want the proposed Swipe (without a proposal it goes Back)", st.action)
	}
}

// A question naming the contact with a possessive names that contact, so
// an honest failure says who is missing.
func TestPossessiveQuestionNamesTheContact(t *testing.T) {
	for _, q := range []string{"What is Dave's phone number?", "what's Dave's number", "Read Dave's phone number"} {
		if in := parseIntent(q); in.Kind != kindRead || in.Contact != "Dave" {
			t.Errorf("%q: intent = %+v, want reading Dave's number", q, in)
		}
	}
}
