package autoglm

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens is a rough token count of s for budgets: a Han, kana or
// hangul character is about one token, other text about four bytes a token.
func EstimateTokens(s string) int {
	wide, other := 0, 0
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			wide++
		} else {
			other += utf8.RuneLen(r)
		}
	}
	return wide + (other+3)/4
}

// KeepHistory returns the newest turns whose estimated tokens fit in
// budget (0 means DefaultHistoryTokens), oldest first (docs/design.md §3).
// Turns are kept whole, thoughts included; the newest turn is kept even
// when it alone exceeds the budget, so the model always sees its last step.
func KeepHistory(turns []Turn, budget int) []Turn {
	if budget <= 0 {
		budget = DefaultHistoryTokens
	}
	used, i := 0, len(turns)
	for i > 0 {
		t := turns[i-1]
		n := EstimateTokens(t.User) + EstimateTokens(t.Info) + EstimateTokens(t.Assistant)
		if used+n > budget && i < len(turns) {
			break
		}
		used += n
		i--
	}
	return turns[i:]
}
