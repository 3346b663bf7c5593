package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// readPlan renders the planner persona's reading of a goal as
// "todo ⟨checks⟩ | …", with "ask" for a question.
func readPlan(t *testing.T, goal string) string {
	t.Helper()
	var got []string
	for _, p := range readGoal(goal) {
		if p.Ask != "" {
			got = append(got, "ask")
			continue
		}
		var cs []string
		for _, x := range p.Expect {
			cs = append(cs, x.String())
		}
		got = append(got, p.Todo+" ⟨"+strings.Join(cs, ", ")+"⟩")
		if probs := postcond.Valid(p.Expect); len(probs) > 0 {
			t.Errorf("%q: invalid checks %v", goal, probs)
		}
	}
	return strings.Join(got, " | ")
}

func checkPlans(t *testing.T, cases []struct{ goal, want string }) {
	t.Helper()
	for _, c := range cases {
		if g := readPlan(t, c.goal); g != c.want {
			t.Errorf("readGoal(%q)\n got %s\nwant %s", c.goal, g, c.want)
		}
	}
}

// A condition on a switch's state is not an action: "If Wi-Fi is off, turn
// it on" once planned "Turn off Wi-Fi" and then an unchecked "Turn it on".
// When the action sets the very switch the condition is about, the action
// alone is right whatever the switch shows (its check holds either way);
// a condition on something else is asked about, never guessed.
func TestConditionalOnASwitchIsNotAnAction(t *testing.T) {
	checkPlans(t, []struct{ goal, want string }{
		{"If Wi-Fi is off, turn it on", `Turn on Wi-Fi ⟨switch "Wi-Fi" is on⟩`},
		{"If Bluetooth is on, turn it off", `Turn off Bluetooth ⟨switch "Bluetooth" is off⟩`},
		{"if airplane mode is on, switch it off please", `Turn off Airplane mode ⟨switch "Airplane mode" is off⟩`},
		{"Turn Bluetooth on if it's off", `Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"In case wifi is disabled, enable it", `Turn on Wi-Fi ⟨switch "Wi-Fi" is on⟩`},
		{"If Wi-Fi is on, turn on Bluetooth", "ask"},
		{"Tell Bob Li I'll come if it rains", `Send Bob Li a message: I'll come if it rains ⟨last message sent to "Bob Li" contains "I'll come if it rains"⟩`},
	})
}

// "it" after a clause about a switch is that switch: "Check Bluetooth and
// turn it on" once planned an unchecked "Turn it on".
func TestSwitchPronounIsTheSwitchBefore(t *testing.T) {
	checkPlans(t, []struct{ goal, want string }{
		{"Check whether Bluetooth is on and turn it on", `Read the state of the Bluetooth switch ⟨⟩ | Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"Open Settings, then switch it off", "Open Settings ⟨Settings is in front⟩ | ask"},
	})
}

// Words said to the phone's user before the request ("Hey,", "Hi there,",
// "OK so") are not part of it: "Hey, can you let Mom know I landed
// safely?" once went to the executor whole, with no check.
func TestGreetingBeforeTheRequest(t *testing.T) {
	checkPlans(t, []struct{ goal, want string }{
		{"Hey, can you let Mom know I landed safely?", `Send Mom a message: I landed safely ⟨last message sent to "Mom" contains "I landed safely"⟩`},
		{"hi there, please turn on bluetooth", `Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"OK so, turn off Wi-Fi", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩`},
	})
}

// Politeness around a message's words is the request's, not the message's;
// a closing "thanks" after "with" or "saying" is the message. `text Bob Li
// saying "see you at 5", thanks` once sent `"see you at 5", thanks` and
// ended done; "Can you let Mom know I landed?" sent "I landed?".
func TestPolitenessAroundTheWords(t *testing.T) {
	checkPlans(t, []struct{ goal, want string }{
		{`Please text Bob Li saying "see you at 5", thanks`, `Send Bob Li a message: see you at 5 ⟨last message sent to "Bob Li" contains "see you at 5"⟩`},
		{"Text Mom saying thank you", `Send Mom a message: thank you ⟨last message sent to "Mom" contains "thank you"⟩`},
		{"Can you let Mom know I landed safely?", `Send Mom a message: I landed safely ⟨last message sent to "Mom" contains "I landed safely"⟩`},
		{"Can you text Bob: are you there?", `Send Bob a message: are you there? ⟨last message sent to "Bob" contains "are you there?"⟩`},
		{"text Alice saying “你好”，我到了", `Send Alice a message: “你好”，我到了 ⟨last message sent to "Alice" contains "“你好”，我到了"⟩`},
	})
}
