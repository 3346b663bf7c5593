package modelserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
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
		{"message sent", verifyRequest(`Send Bob Li a message saying "Hi, I'm late, sorry"`, "Sent", "Messages", convo...), verify.Done, "sent message"},
		{"message to someone else", verifyRequest(`Send Bob a message saying "Hi, I'm late, sorry"`, "Sent", "Messages", convo...), verify.Failed, "not with anyone the task names"},
		{"message not sent", verifyRequest("Send Bob Li a message saying see you", "Sent", "Messages", convo...), verify.Failed, "no sent message"},
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

// The verifier reads the todo itself (verdict.go): a done names elements
// the final screen shows, so Verify's quote check can hold it, and a task
// it cannot read into anything a screen shows is failed, whatever the
// executor says.
func TestVerifierDoneQuotesTheFinalScreen(t *testing.T) {
	convo := []uitree.Listed{
		el("TextView", "Alice Chen", 500, 60),
		el("TextView", "see you at 6", 600, 210, "desc=Sent"),
		el("EditText", "", 400, 800, "clickable", "id=compose_message_text"),
	}
	alarms := []uitree.Listed{el("TextView", "Clock", 500, 60), el("TextView", "07:30 Wake up", 500, 200, "on")}
	for _, c := range []struct {
		name, task, msg, app string
		elems                []uitree.Listed
		want                 string
	}{
		{"sent to the person named", `Send Alice Chen a message saying "see you at 6"`, "Sent", "Messages", convo, verify.Done},
		{"sent to another person", `Send Bob Li a message saying "see you at 6"`, "Sent", "Messages", convo, verify.Failed},
		{"wrong text", `Text Alice Chen: see you at 7`, "Sent", "Messages", convo, verify.Failed},
		{"switch on", "Please enable Bluetooth", "Bluetooth is on", "Settings", settingsList, verify.Failed},
		{"switch off", "Disable bluetooth", "done", "Settings", settingsList, verify.Done},
		{"alarm shown", "Create an alarm at 7:30 am", "Created", "Clock", alarms, verify.Done},
		{"alarm not shown", "Create an alarm at 7:45 am", "Created", "Clock", alarms, verify.Failed},
		{"nothing to check", "Make the phone nicer", "Done, it is nicer", "Settings", settingsList, verify.Failed},
		{"answer is the app's name", "Read the name of the second contact", "Clock", "Clock", alarms, verify.Failed},
		{"state answer says both", "Is Wi-Fi on or off?", "Wi-Fi is on, not off", "Settings", settingsList, verify.Failed},
		{"state answer", "Is Wi-Fi on or off?", "Wi-Fi is on", "Settings", settingsList, verify.Done},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v verify.Verdict
			if err := json.Unmarshal([]byte(New(Config{}).verifyAnswer(verifyRequest(c.task, c.msg, c.app, c.elems...), faults{})), &v); err != nil {
				t.Fatal(err)
			}
			if v.Status != c.want {
				t.Fatalf("verdict = %+v, want %s", v, c.want)
			}
			if v.Status != verify.Done {
				return
			}
			var es []uitree.Element
			for _, l := range c.elems {
				es = append(es, uitree.Element{Class: l.Class, Text: l.Text, Desc: l.Desc})
			}
			if q, ok := postcond.Quotes(v.Evidence, es); !ok {
				t.Errorf("done evidence %q quotes nothing on the final screen", v.Evidence)
			} else {
				t.Logf("quotes %q", q)
			}
		})
	}
}
