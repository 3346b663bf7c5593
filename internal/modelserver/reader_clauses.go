package modelserver

import (
	"regexp"
	"strings"
)

// splitClauses splits at strong separators always and at weak ones only
// before a new clause (a verb, or a switch's name after a switch clause).
func splitClauses(goal string) []string {
	var out []string
	for _, p := range messageWhole(tidy(goal)) {
		pieces := splitOutsideQuotes(p, planWeak)
		// A piece that starts no todo goes back with the separator it had
		// ("晚上好，记得带伞" stays one text), never with another one.
		cur := pieces[0]
		from := max(strings.Index(p, cur), 0)
		end := from + len(cur)
		for _, next := range pieces[1:] {
			j := strings.Index(p[end:], next)
			if startsTodo(tidy(next), cur) || j < 0 {
				out = append(out, tidy(cur))
				cur, from = next, max(end+j, end)
			} else {
				cur = p[from : end+j+len(next)]
			}
			end = from + len(cur)
		}
		out = append(out, tidy(cur))
	}
	return out
}

// messageWhole splits a goal at its strong separators, but a message's
// text after a colon or "saying" keeps its own sentences: a piece that
// starts no todo after such a piece is more of the message ("text Bob:
// 收到。谢谢"), while one that does ("…: see you. Then turn on Bluetooth")
// is the next clause (docs/design.md §9).
func messageWhole(t string) []string {
	pieces := splitOutsideQuotes(t, planStrong)
	if len(pieces) < 2 {
		return pieces
	}
	var out []string
	cur := pieces[0]
	from := max(strings.Index(t, cur), 0)
	end := from + len(cur)
	for _, next := range pieces[1:] {
		j := strings.Index(t[end:], next)
		if j >= 0 && opensMessage(cur) && !startsTodo(tidy(next), cur) {
			cur = t[from : end+j+len(next)]
		} else {
			out = append(out, cur)
			cur = next
			if j >= 0 {
				from = end + j
			} else {
				from = max(strings.Index(t, next), 0)
			}
		}
		end = from + len(cur)
	}
	return append(out, cur)
}

// rdSayingRe introduces a message's words within a clause.
var rdSayingRe = regexp.MustCompile(`(?i)\b(?:saying|that says|to say|with the text)\b|说\s*[：:，,]?`)

// opensMessage reports whether a clause sends a message whose words
// follow a colon or "saying".
func opensMessage(c string) bool {
	c = tidy(c)
	return rdSendRe.MatchString(c) && (messageColon(c) >= 0 || rdSayingRe.MatchString(c))
}

var rdVerbRe = regexp.MustCompile(`(?i)^let\s+\S+(?:\s+\S+)?\s+know\b|^(?:turn|switch|enable|disable|activate|deactivate|open|launch|start|send|text|message|tell|create|set|add|make|write|read|check|what|tell|find|show|get|go|return|delete|remove|put|raise|lower|increase|decrease|dim|wake)\b|^(?:打开|关闭|关掉|开启|启用|禁用|发|给|告诉|创建|新建|设置|设|查看|看看|读取|添加|删除|回到|返回|把|调)`)

func startsTodo(next, cur string) bool {
	if rdVerbRe.MatchString(next) {
		return true
	}
	return switchName(cur) != "" && switchName(next) != "" && len([]rune(next)) <= 24
}

// switchName names the Settings switch a text is about, or "".
func switchName(t string) string {
	l := strings.ToLower(t)
	switch {
	case strings.Contains(l, "airplane") || strings.Contains(l, "aeroplane") || strings.Contains(l, "flight mode") || strings.Contains(t, "飞行模式"):
		return "Airplane mode"
	case strings.Contains(l, "wi-fi") || strings.Contains(l, "wifi") || strings.Contains(l, "wlan") || strings.Contains(l, "wireless") || strings.Contains(t, "无线"):
		return "Wi-Fi"
	case strings.Contains(l, "bluetooth") || strings.Contains(t, "蓝牙"):
		return "Bluetooth"
	}
	return ""
}

// rdAskStateRe is a question about a state: "on or off?", "is Wi-Fi
// enabled", "whether", "开着还是关着".
var rdAskStateRe = regexp.MustCompile(`(?i)\b(?:on or off|off or on|enabled or disabled|on or not)\b|^(?:is|are|does|do|has|have)\s|\bwhether\b|是否|还是关|开着吗|开了吗|关了吗|(?:开着|关着|开了没|开没开)[吗呢]?[?？]?$`)

func isReadClause(c string) bool {
	return rdReadRe.MatchString(c) || rdAskStateRe.MatchString(c) || zhStateQuestion(c) || strings.HasSuffix(c, "?") || strings.HasSuffix(c, "？")
}
