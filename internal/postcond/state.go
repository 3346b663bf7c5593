package postcond

import (
	"fmt"
	"regexp"
	"strings"
)

// A read of whether something is on (docs/design.md §9): the answer
// says on or off, one of the two, and a screen the todo observed showed
// the switch it is about in that state. The switch is the one whose text
// or description holds the check's label ("08:30", "Gym"), or the n-th
// switch of a screen; a check with neither is not valid for a state,
// since any switch would do.

var (
	stateOnRe  = regexp.MustCompile(`(?i)\b(?:on|enabled|active|turned on|switched on)\b|开着|已开启|开启|打开|开了`)
	stateOffRe = regexp.MustCompile(`(?i)\b(?:off|disabled|inactive|turned off|switched off)\b|关着|已关闭|关闭|关了`)
)

func stateString(c Check) string {
	switch {
	case c.Label != "":
		return fmt.Sprintf("the answer is the on/off state of %q seen on a screen", c.Label)
	case c.Ordinal == Last:
		return "the answer is the on/off state of the last switch seen on a screen"
	}
	return fmt.Sprintf("the answer is the on/off state of switch #%d seen on a screen", c.Ordinal)
}

// answerState evaluates an AnswerSeen check of TypeState.
func answerState(c Check, o Observed) (bool, string) {
	ans := withoutQuestion(strings.TrimSpace(o.Answer), o.Question)
	if ans == "" {
		return false, "the executor gave no answer"
	}
	if c.Label == "" && c.Ordinal == 0 {
		return false, "a state check names no switch (label or ordinal)"
	}
	on, off := stateOnRe.MatchString(ans), stateOffRe.MatchString(ans)
	if on == off {
		return false, fmt.Sprintf("the answer %q does not say on or off, one of the two", clip(ans, 120))
	}
	for _, s := range append(append([]Screen(nil), o.Seen...), o.Final) {
		l := newLayout(s.Elements)
		var picked []int
		if c.Label != "" {
			for _, m := range l.switchesLabelled(c.Label) {
				picked = append(picked, m.i)
			}
		} else {
			var sws []int
			for i := range s.Elements {
				if l.isSwitch(i) {
					sws = append(sws, i)
				}
			}
			switch {
			case c.Ordinal > 0 && c.Ordinal <= len(sws):
				picked = sws[c.Ordinal-1 : c.Ordinal]
			case c.Ordinal == Last && len(sws) > 0:
				picked = sws[len(sws)-1:]
			}
		}
		if len(picked) == 0 {
			continue
		}
		e := s.Elements[picked[0]]
		name := firstNonEmpty(c.Label, firstNonEmpty(e.Desc, e.Text))
		shown, _ := l.switchState(picked[0])
		for _, i := range picked {
			st, sure := l.switchState(i)
			if !sure || st != shown {
				return false, fmt.Sprintf("the switch %q does not show one sure state on its screen", name)
			}
		}
		if shown != on {
			return false, fmt.Sprintf("the answer says %s, but the switch %q showed %s", onOff(on), name, onOff(shown))
		}
		return true, fmt.Sprintf("the switch %q showed %s, as the answer says", name, onOff(on))
	}
	return false, "no screen of the todo showed the switch the answer is about"
}
