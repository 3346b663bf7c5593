package modelserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// verifyRequest is a verifier request as internal/verify builds it.
func verifyRequest(task, msg, app string, elems ...uitree.Listed) []message {
	text := strings.Replace(screen(task, app, "", "", elems...), "\nScreen:", "\nExecutor message: "+msg+"\nScreen:", 1)
	return []message{{Role: "system", Text: verify.SystemPrompt}, {Role: "user", Text: text, Images: 1}}
}

func TestVerifierJudgesTheScreen(t *testing.T) {
	convo := []uitree.Listed{
		el("TextView", "Bob Li", 500, 60),
		el("TextView", "Sent you the slides.", 400, 150, "desc=Received"),
		el("TextView", "Hi, I'm late, sorry", 600, 210, "desc=Sent"),
		el("EditText", "", 400, 800, "clickable", "id=compose_message_text"),
		el("Button", "Send", 880, 800, "clickable", "id=send_button"),
	}
	for _, c := range []struct {
		name     string
		msgs     []message
		want     string
		evidence string
	}{
		{"toggle shown", verifyRequest("Turn off Wi-Fi", "Wi-Fi is off", "Settings", settingsList...), verify.Failed, "Wi-Fi switch is on"},
		{"brightness target", verifyRequest("Set brightness to 50%", "Brightness is 50%", "Settings", settingsList...), verify.Done, "Brightness 50%"},
		{"brightness max not reached", verifyRequest("Set the brightness to its maximum", "Done", "Settings", settingsList...), verify.Failed, "not 100%"},
		{"message sent", verifyRequest(`Send Bob a message saying "Hi, I'm late, sorry"`, "Sent", "Messages", convo...), verify.Done, "sent message"},
		{"message not sent", verifyRequest("Send Bob a message saying see you", "Sent", "Messages", convo...), verify.Failed, "no sent message"},
		{"admission", verifyRequest("Book a train", "I do not know how", "Launcher", launcher...), verify.Failed, "not done"},
		{"no such app", verifyRequest("Book a train in the travel app", "Done", "Launcher", launcher...), verify.Failed, "no app on this phone"},
		{"home", verifyRequest("Go back to the home screen", "Home", "Launcher", launcher...), verify.Done, "Launcher is in front"},
		{"read shown", verifyRequest("Read the brightness", "Brightness 50%", "Settings", settingsList...), verify.Done, "Brightness 50%"},
		{"read not shown", verifyRequest("Read the brightness", "Brightness 70%", "Settings", settingsList...), verify.Failed, "not on the final screen"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Config{})
			var v verify.Verdict
			ans := s.verifyAnswer(c.msgs, faults{})
			if err := json.Unmarshal([]byte(ans), &v); err != nil {
				t.Fatalf("answer %q is not JSON: %v", ans, err)
			}
			if _, err := verify.Parse(ans); err != nil {
				t.Fatalf("answer %q breaks the contract: %v", ans, err)
			}
			if v.Status != c.want || !strings.Contains(v.Evidence, c.evidence) {
				t.Errorf("verdict = %+v, want %s with evidence containing %q", v, c.want, c.evidence)
			}
		})
	}
	if r := roleFor(ExecutorModel, verifyRequest("x", "y", "Settings")); r != roleVerifier {
		t.Errorf("role = %s, want verifier even under the executor's model id", r)
	}
}

// The naive persona trusts its taps: after a tap it reports done instead
// of going back; the default persona goes back.
func TestNaivePersonaDoesNotRepair(t *testing.T) {
	text := screen("Turn on Bluetooth", "Settings", `do(action="Tap", element=[500,442])`, "ok",
		el("TextView", "Display", 500, 60), el("TextView", "Nothing to change here.", 500, 200))
	msgs := []message{{Role: "user", Text: text}, {Role: "assistant", Text: `<answer>do(action="Tap", element=[500,442])</answer>`}, {Role: "user", Text: text}}
	if st := decide(msgs, false); st.finish {
		t.Errorf("default persona finished: %s", st.action)
	}
	if st := decide(msgs, true); !st.finish || !strings.Contains(st.result, "Done") {
		t.Errorf("naive persona = %s, want a finish claiming done", st.action)
	}
}
