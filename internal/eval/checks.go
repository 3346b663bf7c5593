package eval

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Predicate helpers of the generated suite: each reads the phone's state or
// the goal's answer and says what is missing.

func ok() (bool, string) { return true, "" }

func notOK(format string, a ...any) (bool, string) { return false, fmt.Sprintf(format, a...) }

// answerHas reports whether the goal's answer contains every one of subs,
// ignoring case.
func answerHas(r workflows.GoalResult, subs ...string) (bool, string) {
	low := strings.ToLower(r.Response)
	for _, s := range subs {
		if !strings.Contains(low, strings.ToLower(s)) {
			return notOK("the answer %q lacks %q", clip(r.Response, 160), s)
		}
	}
	return ok()
}

// answerHasAny reports whether the answer contains one of alts.
func answerHasAny(r workflows.GoalResult, alts ...string) (bool, string) {
	low := strings.ToLower(r.Response)
	for _, s := range alts {
		if strings.Contains(low, strings.ToLower(s)) {
			return ok()
		}
	}
	return notOK("the answer %q names none of %q", clip(r.Response, 160), alts)
}

var nonDigit = regexp.MustCompile(`\D+`)

// answerHasNumber reports whether the answer holds the phone number, read
// digit for digit (spaces and punctuation aside).
func answerHasNumber(r workflows.GoalResult, phone string) (bool, string) {
	if strings.Contains(nonDigit.ReplaceAllString(r.Response, ""), nonDigit.ReplaceAllString(phone, "")) {
		return ok()
	}
	return notOK("the answer %q lacks the number %s", clip(r.Response, 160), phone)
}

var (
	onWords  = regexp.MustCompile(`(?i)\b(on|enabled)\b|开启|打开|已开`)
	offWords = regexp.MustCompile(`(?i)\b(off|disabled)\b|关闭|已关`)
)

// answerSaysOnOff reports whether the answer says on (or off) and not the
// opposite.
func answerSaysOnOff(r workflows.GoalResult, on bool) (bool, string) {
	yes, no := onWords, offWords
	if !on {
		yes, no = offWords, onWords
	}
	if yes.MatchString(r.Response) && !no.MatchString(r.Response) {
		return ok()
	}
	return notOK("the answer %q does not say %s", clip(r.Response, 160), onOff(on))
}

// answerHasTime accepts "07:05" written as 07:05 or 7:05.
func answerHasTime(r workflows.GoalResult, hhmm string) (bool, string) {
	return answerHasAny(r, hhmm, strings.TrimPrefix(hhmm, "0"))
}

// sameText compares a sent text with the wanted one, ignoring surrounding
// space and quotes.
func sameText(got, want string) bool {
	trim := func(s string) string { return strings.Trim(strings.TrimSpace(s), `"'“”‘’「」`) }
	return trim(got) == trim(want)
}

// sentTo reports whether a message to the contact was sent whose text
// matches (exactly, or containing want when contains is set).
func sentTo(st phonesim.State, to, want string, contains bool) (bool, string) {
	for _, m := range st.MessagesSent {
		if m.To != to {
			continue
		}
		if sameText(m.Text, want) || contains && strings.Contains(m.Text, want) {
			return ok()
		}
	}
	return notOK("no message %q to %s (sent: %v)", want, to, sentList(st))
}

// sentNumberTo is sentTo for a phone number, digit for digit.
func sentNumberTo(st phonesim.State, to, phone string) (bool, string) {
	for _, m := range st.MessagesSent {
		if m.To == to && strings.Contains(nonDigit.ReplaceAllString(m.Text, ""), nonDigit.ReplaceAllString(phone, "")) {
			return ok()
		}
	}
	return notOK("no message with %s to %s (sent: %v)", phone, to, sentList(st))
}

func sentList(st phonesim.State) []string {
	var out []string
	for _, m := range st.MessagesSent {
		out = append(out, m.To+": "+clip(m.Text, 40))
	}
	return out
}

func screenIs(st phonesim.State, app, page, detail string) (bool, string) {
	if st.Screen.App != app || page != "" && st.Screen.Page != page || detail != "" && st.Screen.Detail != detail {
		return notOK("the screen is %s/%s/%s, want %s/%s/%s", st.Screen.App, st.Screen.Page, st.Screen.Detail, app, page, detail)
	}
	return ok()
}

func all(checks ...func() (bool, string)) (bool, string) {
	for _, c := range checks {
		if holds, why := c(); !holds {
			return false, why
		}
	}
	return ok()
}

// ordinals in English and Chinese, index 0 = first.
var (
	ordEN = []string{"first", "second", "third", "fourth", "fifth"}
	ordZH = []string{"第一个", "第二个", "第三个", "第四个", "第五个"}
)

// ordinal draws an item index of n and says it; the last item is said
// "last" half of the time.
func drawOrdinal(r *rand.Rand, p Params, n int) int {
	i := r.IntN(n)
	p["i"] = fmt.Sprint(i)
	p["ord"], p["ordzh"] = ordEN[i], ordZH[i]
	if i == n-1 && r.IntN(2) == 0 {
		p["ord"], p["ordzh"] = "last", "最后一个"
	}
	return i
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
