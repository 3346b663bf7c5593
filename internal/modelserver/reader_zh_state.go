package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Chinese questions about a switch's state, and goals that switch on a
// condition (docs/design.md §9). "现在Wi-Fi是开着的吗？" loses its 吗 and
// ？ when the clause is tidied, and "开" in it then reads as a command to
// turn Wi-Fi on; "如果蓝牙是关的就打开它" read the 关 of its condition as
// the command. A question reads the state, checked against the switch a
// screen showed; a condition is followed only where the end state is the
// same whichever way it turns out, else the person is asked.

var (
	// rdZhAskStateRe is a question about a state whose 吗 tidying took off:
	// "是开着的", "是不是关着", "有没有打开", "是开的".
	rdZhAskStateRe = regexp.MustCompile(`是不是|有没有|(?:开着|关着)(?:的|呢|没有?)?$|是(?:打开|关闭|开启|关掉|开|关)(?:着)?的(?:状态)?$|(?:打开|关闭|开启)(?:着|了)?(?:没有?|的)$`)
	// rdZhIfRe is a goal that acts on a condition: "如果X(的话)，就Y".
	rdZhIfRe = regexp.MustCompile(`^(?:如果|要是|假如|若是?|万一)\s*(.+?)(?:的话)?\s*[,，]?\s*(?:那么?就?|就|则)\s*(.+)$`)
	// rdZhItRe is "它" or "它们" standing for the thing the condition names.
	rdZhItRe = regexp.MustCompile(`它们?`)
)

// zhStateQuestion reports a clause that asks whether a switch is on.
func zhStateQuestion(c string) bool {
	return switchName(c) != "" && rdZhAskStateRe.MatchString(c)
}

// zhConditional reads a goal that acts on a condition about a switch. ok
// is false for a goal that states no condition.
func zhConditional(goal string) ([]planned, bool) {
	m := rdZhIfRe.FindStringSubmatch(tidy(goal))
	if m == nil {
		return nil, false
	}
	cond, act := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	ask := []planned{{Clause: goal, Ask: fmt.Sprintf("I cannot check %q before I act; should I do %q whatever it shows, or not at all?", cond, act)}}
	name := switchName(cond)
	if name == "" {
		return ask, true
	}
	was := !rdOffRe.MatchString(cond)
	if !rdOffRe.MatchString(cond) && !rdOnRe.MatchString(cond) {
		return ask, true
	}
	if switchName(act) == "" {
		act = rdZhItRe.ReplaceAllString(act, name)
		if switchName(act) == "" {
			act = strings.TrimSpace(act + name)
		}
	}
	ps := readGoal(act)
	// Acting on the condition ends in the same state as acting at once
	// only when the action sets the switch the condition names to the
	// other state ("if it is off, turn it on").
	if len(ps) != 1 || len(ps[0].Expect) != 1 || ps[0].Expect[0].Kind != postcond.Switch ||
		ps[0].Expect[0].Label != name || *ps[0].Expect[0].On == was {
		return ask, true
	}
	ps[0].Clause = goal
	return ps, true
}
