package modelserver

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"
)

// The misread fault (Config.RateMisread): the executor persona understands
// a todo wrongly on purpose — another recipient, another value, a clause
// dropped, the opposite of on/off — so a benchmark measures what the
// postconditions and the commit check catch when the executor is wrong in
// understanding, not only in tapping (docs/design.md §9). Whether a todo
// is misread depends only on the seed and the todo's text, so every turn of
// the todo misreads it the same way.

var (
	misOnRe   = regexp.MustCompile(`(?i)\b(on|off)\b`)
	misTimeRe = regexp.MustCompile(`\b(\d{2}):(\d{2})\b`)
	misPctRe  = regexp.MustCompile(`(\d{1,3})%`)
	misSepRe  = regexp.MustCompile(`(?i),? (?:and then|then|and) `)
	misSayRe  = regexp.MustCompile(`\bsaying "([^"]+)"`)
)

// misreads reports whether a todo is misread at rate under seed, and
// the kind of mistake (misreadVariant).
func misreads(seed int64, rate float64, task string) (int, bool) {
	if rate <= 0 || task == "" {
		return 0, false
	}
	v := misreadHash(seed, task)
	return int(v >> 32 % 4), float64(v%10000)/10000 < rate
}

// misreadVariant is the kind of mistake a misread todo gets under seed.
func misreadVariant(seed int64, task string) int {
	return int(misreadHash(seed, task) >> 32 % 4)
}

func misreadHash(seed int64, task string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", seed, task)
	return h.Sum64()
}

// misread returns the todo as a misreading executor understands it: the
// kind of mistake variant picks among those the todo allows.
func misread(task string, variant int) string {
	var kinds []func(string) (string, bool)
	kinds = append(kinds, wrongRecipient, oppositeSwitch, wrongValue, droppedClause)
	for i := range kinds {
		if out, ok := kinds[(variant+i)%len(kinds)](task); ok {
			return out
		}
	}
	return task
}

func wrongRecipient(task string) (string, bool) {
	if !sendVerbRe.MatchString(task) {
		return task, false
	}
	for i, c := range contacts {
		if strings.Contains(task, c) {
			other := contacts[(i+1)%len(contacts)]
			if strings.Contains(other, c) || strings.Contains(c, other) {
				other = contacts[(i+2)%len(contacts)]
			}
			return strings.Replace(task, c, other, 1), true
		}
	}
	return task, false
}

func oppositeSwitch(task string) (string, bool) {
	if settingOf(strings.ToLower(task)) == "" && !strings.Contains(strings.ToLower(task), "alarm") {
		return task, false
	}
	loc := misOnRe.FindStringSubmatchIndex(task)
	if loc == nil {
		return task, false
	}
	flip := map[string]string{"on": "off", "off": "on", "On": "Off", "Off": "On", "ON": "OFF", "OFF": "ON"}[task[loc[2]:loc[3]]]
	return task[:loc[2]] + flip + task[loc[3]:], true
}

func wrongValue(task string) (string, bool) {
	if m := misTimeRe.FindStringSubmatchIndex(task); m != nil {
		h, _ := strconv.Atoi(task[m[2]:m[3]])
		return task[:m[2]] + pad2((h+1)%24) + task[m[3]:], true
	}
	if m := misPctRe.FindStringSubmatchIndex(task); m != nil {
		p, _ := strconv.Atoi(task[m[2]:m[3]])
		return task[:m[2]] + strconv.Itoa((p+30)%100) + task[m[3]:], true
	}
	if m := misSayRe.FindStringSubmatchIndex(task); m != nil && task[m[2]:m[3]] != "ok" {
		return task[:m[2]] + "ok" + task[m[3]:], true // the words a note or message says
	}
	if i := strings.Index(task, ": "); i > 0 && sendVerbRe.MatchString(task) {
		return task[:i+2] + "ok", true // the message's text
	}
	return task, false
}

func droppedClause(task string) (string, bool) {
	loc := misSepRe.FindStringIndex(task)
	if loc == nil {
		return task, false
	}
	return task[:loc[0]], true
}
