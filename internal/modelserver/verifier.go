package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// roleVerifier answers verification requests (docs/design.md §13): the
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
	clauses := SplitGoal(obs.Task)
	if len(clauses) > 1 {
		parts := strings.Split(msg, "; ")
		if len(parts) < len(clauses) {
			return failed("the message reports %d results for %d parts of the task: %s", len(parts), len(clauses), msg)
		}
		last := clauses[len(clauses)-1]
		if hasPlaceholder(last) {
			last = substitute(last, parts[len(parts)-2])
		}
		v := judgeOne(obs, last, parts[len(parts)-1])
		if v.Status == verify.Done {
			v.Evidence = fmt.Sprintf("all %d parts report a result; last part: %s", len(clauses), v.Evidence)
		}
		return v
	}
	return judgeOne(obs, obs.Task, msg)
}

// judgeOne judges one clause on the final screen.
func judgeOne(obs observation, task, msg string) verify.Verdict {
	c := &solver{obs: obs}
	in := parseIntent(task)
	front := obs.App
	if front == "" {
		front = "an unknown app"
	}
	switch in.Kind {
	case kindOpen:
		if missing := missingApp(in.App); missing != "" {
			return failed("there is no %s app on this phone", missing)
		}
		if c.inApp(in.App) {
			return done("%s is in front", in.App)
		}
		return failed("%s is not in front; %s is", in.App, front)
	case kindToggle:
		sw := c.settingsSwitch(in.Setting)
		if sw == nil {
			return failed("the %s switch is not on the final screen (%s)", in.Setting, front)
		}
		if sw.Checked != in.On {
			return failed("the %s switch is %s, not %s", in.Setting, onOff(sw.Checked), onOff(in.On))
		}
		return done("the %s switch is %s", in.Setting, onOff(sw.Checked))
	case kindBrightness:
		val := c.byID("brightness_value")
		if val == nil {
			return failed("the brightness value is not on the final screen (%s)", front)
		}
		m := pctRe.FindStringSubmatch(val.Text)
		if m == nil {
			return failed("the brightness row %q shows no percentage", val.Text)
		}
		if in.Target >= 0 && m[1] != fmt.Sprint(in.Target) {
			return failed("brightness is %s%%, not %d%%", m[1], in.Target)
		}
		if in.Target < 0 && !strings.Contains(msg, m[1]+"%") {
			return failed("the screen shows brightness %s%%, the executor reported %q", m[1], msg)
		}
		return done("the brightness row shows %s", val.Text)
	case kindMessage:
		if in.To == "" || in.Text == "" {
			return failed("the task does not say who to message or what to say")
		}
		if c.byID("compose_message_text") == nil || c.person(in.To, false) == nil {
			return failed("the conversation with %s is not on the final screen (%s)", in.To, front)
		}
		for _, l := range obs.Elems {
			if l.Desc == "Sent" && l.Text == in.Text {
				return done("the conversation with %s shows the sent message %q", in.To, in.Text)
			}
		}
		return failed("no sent message %q in the conversation with %s", in.Text, in.To)
	case kindAlarm:
		if in.Time == "" {
			return failed("the task gives no alarm time")
		}
		if r := c.alarmRow(in.Time, in.Label); r != nil {
			return done("the alarm list shows %q", r.Text)
		}
		return failed("no alarm at %s%s is listed on the final screen (%s)", in.Time, map[bool]string{true: " labelled " + in.Label}[in.Label != ""], front)
	case kindNote:
		if t, b := c.byID("note_title"), c.byID("note_body"); t != nil && b != nil {
			if strings.EqualFold(value(t), in.Title) && (in.Body == "" || strings.Contains(value(b), in.Body)) {
				return done("the editor shows the note %q with the asked text", in.Title)
			}
			return failed("the editor shows %q, not the asked note %q", value(t), in.Title)
		}
		if in.Title != "" && c.byText(in.Title) != nil && c.byText("New note") != nil {
			return done("the notes list shows %q", in.Title)
		}
		return failed("the note %q is not listed on the final screen (%s)", in.Title, front)
	case kindRead:
		return judgeRead(c, in, msg, front)
	case kindBank:
		if c.inApp("Bank") {
			return done("the Bank app is in front after the hand-over: %s", msg)
		}
		return failed("the Bank app is not in front")
	case kindTap:
		if strings.HasPrefix(msg, "Tapped ") {
			return done("the executor tapped %q", in.TapTarget)
		}
		return failed("the tap on %q is not confirmed", in.TapTarget)
	}
	if missing := missingApp(in.App); missing != "" {
		return failed("there is no %s app on this phone", missing)
	}
	return failed("nothing on the final screen (%s) shows %q was done: no app on this phone (%s) does it", front, task, strings.Join(simApps, ", "))
}

func judgeRead(c *solver, in intent, msg, front string) verify.Verdict {
	if strings.TrimSpace(msg) == "" {
		return failed("the executor reported no value")
	}
	switch in.What {
	case "Wi-Fi", "Bluetooth", "Airplane mode":
		sw := c.settingsSwitch(in.What)
		if sw == nil {
			return failed("the %s switch is not on the final screen (%s)", in.What, front)
		}
		if !strings.Contains(strings.ToLower(msg), onOff(sw.Checked)) {
			return failed("the %s switch is %s, the executor reported %q", in.What, onOff(sw.Checked), msg)
		}
		return done("the %s switch is %s", in.What, onOff(sw.Checked))
	case "phone":
		if in.Contact == "" || c.person(in.Contact, false) == nil {
			return failed("the contact %s is not on the final screen (%s)", firstNonEmpty(in.Contact, "named in the task"), front)
		}
	}
	lm := strings.ToLower(strings.TrimSpace(msg))
	for _, l := range c.obs.Elems {
		t := strings.ToLower(strings.TrimSpace(l.Text))
		if t == "" {
			continue
		}
		if t == lm || strings.Contains(t, lm) && len(lm) >= 2 || strings.Contains(lm, t) && len(t) > 3 && !isLabel(l) {
			return done("the screen shows %q", l.Text)
		}
	}
	return failed("the value %q is not on the final screen (%s)", msg, front)
}

// isLabel reports a clickable control (a button or row label) rather than
// a value shown on the screen.
func isLabel(l uitree.Listed) bool { return l.Class == "Button" }

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
