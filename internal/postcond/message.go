package postcond

import "strings"

// SameMessage reports whether a message a phone shows is the message a
// last_sent check asks for (docs/design.md §9): the same characters in
// the same order — every mark, emoji and quote inside or at the end, and
// letter case — with only these left out of the comparison: white space at
// either end, the length of a run of white space inside, and one full
// stop ("." or "。", not an ellipsis) ending either text, which a goal
// may add as its own sentence end. A message missing a closing "!", "？",
// "…" or an emoji the check holds is not the same message, nor is one
// with words or marks the check does not hold.
func SameMessage(shown, want string) bool {
	w := messageForm(want)
	return w != "" && messageForm(shown) == w
}

func messageForm(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case strings.HasSuffix(s, "..") || strings.HasSuffix(s, "。。"):
	case strings.HasSuffix(s, "."):
		s = strings.TrimSpace(strings.TrimSuffix(s, "."))
	case strings.HasSuffix(s, "。"):
		s = strings.TrimSpace(strings.TrimSuffix(s, "。"))
	}
	return s
}
