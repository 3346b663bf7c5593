package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// act is one earlier executor action, read back from an assistant turn.
type act struct {
	Name    string
	App     string
	Text    string
	Message string
	Point   *[2]int
	Raw     string
}

var (
	actNameRe  = regexp.MustCompile(`do\(\s*action\s*=\s*"([^"]+)"`)
	actPointRe = regexp.MustCompile(`element\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]`)
	finishRe   = regexp.MustCompile(`finish\(\s*message\s*=`)
)

var fieldRes = map[string]*regexp.Regexp{}

func init() {
	for _, name := range []string{"app", "text", "message"} {
		fieldRes[name] = regexp.MustCompile(name + `\s*=\s*"((?:[^"\\]|\\.)*)"`)
	}
}

// strField reads a quoted argument (app, text or message) of an action.
func strField(s, name string) string {
	m := fieldRes[name].FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	if v, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
		return v
	}
	return m[1]
}

// parseAct reads the action of an answer or of a "Previous action" line.
func parseAct(s string) (act, bool) {
	if i := strings.Index(s, "<answer>"); i >= 0 {
		s = s[i+len("<answer>"):]
	}
	a := act{Raw: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "</answer>"))}
	if m := actNameRe.FindStringSubmatch(s); m != nil {
		a.Name = m[1]
	} else if finishRe.MatchString(s) {
		a.Name = "finish"
	} else {
		return a, false
	}
	a.App, a.Text, a.Message = strField(s, "app"), strField(s, "text"), strField(s, "message")
	if m := actPointRe.FindStringSubmatch(s); m != nil {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		a.Point = &[2]int{x, y}
	}
	return a, true
}

// history returns the actions of the assistant turns before the last user
// message.
func history(msgs []message) []act {
	var out []act
	for _, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		if a, ok := parseAct(m.Text); ok {
			out = append(out, a)
		}
	}
	return out
}

// step is one decision of the persona.
type step struct {
	think  string
	action string
	finish bool   // the action is finish(...)
	result string // the finish message
}

func q(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func launch(app, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Launch", app=%s)`, q(app))}
}

func tapAt(l uitree.Listed, why string) step {
	a := fmt.Sprintf(`do(action="Tap", element=[%d,%d]`, l.At[0], l.At[1])
	if msg := sensitiveReason(l); msg != "" {
		a += ", message=" + q(msg)
	}
	return step{think: why, action: a + ")"}
}

// longPress presses and holds l, as a person selects a row.
func longPress(l uitree.Listed, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Long Press", element=[%d,%d])`, l.At[0], l.At[1])}
}

func typeText(text, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Type", text=%s)`, q(text))}
}

func finish(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`finish(message=%s)`, q(msg)), finish: true, result: msg}
}

func waitFor(d time.Duration) step {
	return step{think: "The task says to wait " + d.String() + " first.", action: fmt.Sprintf(`do(action="Wait", duration=%s)`, q(d.String()))}
}

func back(why string) step { return step{think: why, action: `do(action="Back")`} }
func home(why string) step { return step{think: why, action: `do(action="Home")`} }

func note(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Note", message=%s)`, q(msg))}
}

func takeOver(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Take_over", message=%s)`, q(msg))}
}

// Swipes on the 0-999 grid: "up" drags the content up to reveal what is
// below; "down" scrolls back towards the top.
func swipe(up bool, why string) step {
	if up {
		return step{think: why, action: `do(action="Swipe", start=[500,750], end=[500,250])`}
	}
	return step{think: why, action: `do(action="Swipe", start=[500,300], end=[500,800])`}
}
