package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// rdBrightStepRe is a change of brightness with no amount: "brighter", "a
// bit dimmer", "turn the brightness down a little".
var rdBrightStepRe = regexp.MustCompile(`(?i)\b(?:brighter|dimmer|darker|up|down|raise|lower|increase|decrease|reduce|dim)\b`)

// stepBrightness plans a change of brightness with no amount as one step
// of the control (docs/design.md §9). The planner cannot know the level
// before the phone shows it, so a todo reads it and the change is written
// again, with its check on the exact level, once it is known: a step that
// changed nothing, or went the wrong way, fails its check. ok is false for
// a clause with an amount or a level.
func stepBrightness(c string) ([]planned, bool) {
	lower := strings.ToLower(c)
	if !(strings.Contains(lower, "bright") || strings.Contains(lower, "dimmer") || strings.Contains(lower, "screen")) || !rdBrightStepRe.MatchString(c) {
		return nil, false
	}
	if rdPctRe.MatchString(c) || rdByRe.MatchString(c) || regexp.MustCompile(`\d`).MatchString(c) {
		return nil, false
	}
	if regexp.MustCompile(`(?i)\b(?:max(?:imum)?|full|highest|brightest|min(?:imum)?|lowest|darkest|half(?:way)?|all\s+the\s+way)\b`).MatchString(c) {
		return nil, false
	}
	dir := "above"
	if regexp.MustCompile(`(?i)\b(?:down|lower|decrease|reduce|dim|dimmer|darker)\b`).MatchString(c) {
		dir = "below"
	}
	return []planned{{Todo: "Read the brightness in Settings", Reads: true, Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeNumber}}},
		{Todo: fmt.Sprintf("Set brightness %d points %s what was read (one step)", brightnessStep, dir)}}, true
}

// brightnessStep is one step of the brightness control, in points.
const brightnessStep = 10
