package modelserver

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/waits"
)

var (
	strongSeps = []string{", and then ", " and then ", ", then ", " then ", "; ", ";", "，然后", "然后", "并且", "，再", "；"}
	weakSeps   = []string{", and ", " and ", ", ", "，"}
	verbRe     = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:open|launch|start|return|head|navigate|turn|switch|enable|disable|send|text|message|tell|reply|create|set|add|make|write|edit|update|change|delete|remove|read|check|find|get|look|go|tap|click|press|increase|decrease|raise|lower|dim|call|show|search|take|sign|log|put|note|scroll|swipe|wait|play|pause|stop|save|share|copy|book|buy|order|pay|post|install|uninstall|clear|mute|select|choose|type|enter|fill|answer|accept|decline|block|close|exit|lock|unlock|restart|connect|disconnect|pair)\b|打开|关闭|开启|发|给|告诉|创建|设置|新建|查看|读取|添加|点击|回到|返回)`)
	pronounRe  = regexp.MustCompile(`(?i)\b(?:it|that|this|the result|the time|the number|the version|them)\b`)
)

// SplitGoal splits a goal into todos with the documented rules (see
// doc.go): strong separators always split, " and " / ", " split only when
// what follows starts a new clause or names another object for the same
// verb, verbs and app context carry forward, and a clause that refers back
// to what a reading clause found gets the {result} placeholder.
func SplitGoal(goal string) []string {
	// A message's words keep their marks and are never split
	// (reader_message.go).
	goal = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(protectMessages(goal)), ".。!！"))
	if goal == "" {
		return nil
	}
	// "at 21:00, open Settings", "in 20 minutes …", "20分钟后…": a wait
	// todo first, which the goal runs as a timer (docs/design.md §7).
	if w, rest, ok := waits.Lead(goal); ok {
		return append([]string{w.TodoText()}, SplitGoal(rest)...)
	}
	// "When Alice Chen sends a message, reply 'got it'": a wait for the
	// phone first, which the goal runs as checks (docs/design.md §7).
	if w, rest, ok := waits.PhoneLead(goal); ok {
		return append([]string{w.TodoText()}, SplitGoal(rest)...)
	}
	var parts []string
	for _, p := range splitOutsideQuotes(goal, strongSeps) {
		subs := splitOutsideQuotes(p, weakSeps)
		// Rejoin weak pieces that do not start a clause of their own.
		cur := subs[0]
		for _, sub := range subs[1:] {
			if startsClause(sub, cur) {
				parts = append(parts, cur)
				cur = sub
			} else {
				cur = cur + joinerBefore(p, sub) + sub
			}
		}
		parts = append(parts, cur)
	}
	var out []string
	var prev string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		p = carry(p, prev)
		out = append(out, reveal(capitalise(p)))
		prev = p
	}
	return out
}

// joinerBefore recovers the separator that stood before sub in p.
func joinerBefore(p, sub string) string {
	i := strings.Index(p, sub)
	if i <= 0 {
		return " and "
	}
	for _, sep := range weakSeps {
		if strings.HasSuffix(p[:i], sep) {
			return sep
		}
	}
	return " and "
}

// startsClause reports whether a weak piece begins a new todo: it starts
// with a verb, or it names another switch or app for the previous verb
// ("Turn on Wi-Fi and Bluetooth").
func startsClause(sub, prev string) bool {
	if verbRe.MatchString(strings.TrimSpace(sub)) {
		return true
	}
	in := parseIntent(prev)
	lower := strings.ToLower(strings.TrimSpace(sub))
	switch in.Kind {
	case kindToggle:
		return settingOf(lower) != "" && len(strings.Fields(lower)) <= 3
	case kindOpen:
		_, ok := apps[lower]
		return ok
	}
	return false
}

// carry completes a clause from the previous one: a missing verb is taken
// over ("Bluetooth" after "Turn on Wi-Fi"), a pronoun after a reading
// clause becomes {result}, and a general clause inherits the app.
func carry(clause, prev string) string {
	if prev == "" {
		return clause
	}
	pin := parseIntent(prev)
	if !verbRe.MatchString(clause) {
		switch pin.Kind {
		case kindToggle:
			state := "on"
			if !pin.On {
				state = "off"
			}
			clause = "Turn " + state + " " + clause
		case kindOpen:
			clause = "Open " + clause
		default:
			if v := verbRe.FindString(prev); v != "" {
				clause = v + " " + clause
			}
		}
	}
	in := parseIntent(clause)
	if pin.Kind == kindRead && in.Kind == kindMessage && in.To != "" &&
		(in.Text == "" || pronounRe.MatchString(in.Text) && len(strings.Fields(in.Text)) <= 3) {
		// Plain words, not a {result} placeholder: the plan is shown to
		// people before the replan fills in the value.
		return fmt.Sprintf("Send %s a message with what was read", in.To)
	}
	if in.Kind == kindGeneral && in.App == "" {
		app := pin.App
		if pin.Kind == kindOpen || appIn(prev) != "" {
			if app == "" {
				app = appIn(prev)
			}
			if app != "" && app != "Launcher" {
				clause += " in " + app
			}
		}
	}
	return clause
}

// splitOutsideQuotes splits s at any of seps that stand outside quotes
// (the quote marks findQuoted reads, apostrophes excepted).
func splitOutsideQuotes(s string, seps []string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		if q, ok := findQuoted(s[i:]); ok && q.start == 0 {
			i += q.end
			continue
		}
		matched := false
		for _, sep := range seps {
			if len(s)-i >= len(sep) && strings.EqualFold(s[i:i+len(sep)], sep) {
				if piece := strings.TrimSpace(s[start:i]); piece != "" {
					out = append(out, piece)
				}
				i += len(sep)
				start = i
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if piece := strings.TrimSpace(s[start:]); piece != "" {
		out = append(out, piece)
	}
	if len(out) == 0 {
		out = []string{strings.TrimSpace(s)}
	}
	return out
}

func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Patterns used by the functions above.
var (
	answerSaysRe = regexp.MustCompile(`(?i)\s(?:saying|that says)\s`)
)
