package modelserver

import (
	"regexp"
	"strings"
)

// What a person says around a request is not part of it (docs/design.md
// §9): a greeting before it, and the question mark of a request asked as
// a question ("Could you let Mom know I landed?"), which once went out as
// the end of the message.

// rdGreetingRe is a greeting before the request: "Hey,", "Hi there,", "OK
// so,", "Hello!", "Um,". Read as a clause of its own it once sent the
// whole goal to the executor with no check. Only a greeting followed by
// more words goes; "ok" alone may be a message's text.
var rdGreetingRe = regexp.MustCompile(`(?i)^(?:(?:hey|hi|hello|yo|ok(?:ay)?|alright|all\s+right|so|um+|uh+|well|right)(?:\s+(?:there|so|then|now))?\s*[,!.]+\s*|(?:hey|hi|hello)(?:\s+there)?\s+)+(\S)`)

// dropGreeting removes the greeting a clause starts with.
func dropGreeting(c string) string {
	return rdGreetingRe.ReplaceAllString(c, "$1")
}

// dropRequestMark leaves out the "?" that ends a message's words when it
// is the request's own: the goal asks "Could you …?" and gives the words
// neither after a colon nor in quotes.
func dropRequestMark(goal, text string) string {
	if !strings.HasSuffix(text, "?") && !strings.HasSuffix(text, "？") {
		return text
	}
	if !rdRequestQRe.MatchString(dropGreeting(strings.TrimSpace(goal))) || messageColon(goal) >= 0 || rdQuotedFirst.MatchString(goal) {
		return text
	}
	return strings.TrimRight(text, "?？ ")
}

// rdWordsNextRe ends a clause whose next words are the message: "reply
// to Bob with", "text Mom saying". A closing "thanks" after it is the
// message ("Reply to Bob Li's message with thanks"), not politeness.
var rdWordsNextRe = regexp.MustCompile(`(?i)\b(?:with|saying|say|says|to\s+say|that\s+says)$`)

// politeTail reports whether s, what follows a quoted message, is only
// politeness to the phone: ", thanks", " please!". The quote holds the
// words then (`text Bob saying "see you at 5", thanks`).
func politeTail(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && strings.TrimSpace(tailRe.ReplaceAllString(s, "")) == ""
}
