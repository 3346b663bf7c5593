package memory

import (
	"regexp"
	"strings"
)

// secretTopicRe finds what a question or an answer says when it is about
// a credential, a code or an approval: such answers are never stored.
var secretTopicRe = regexp.MustCompile(`(?i)\b(?:pass(?:word|code|phrase)?s?|pins?|otp|one[- ]time|verification|security (?:code|question)|2fa|two[- ]factor|mfa|auth(?:entication|orization)?|cvv|cvc|card number|credit card|iban|account number|sign(?:ing)?[- ]?(?:in|on)|log(?:ging)?[- ]?in|login|credentials?|secret|token|api key|unlock|approve|approval|confirm(?:ation)? code|code)\b|密码|验证码|登录|解锁|口令`)

// codeLikeRe is an answer that looks like a PIN or a one-time code.
var codeLikeRe = regexp.MustCompile(`^[A-Za-z0-9-]{4,12}$`)

// Secret reports whether a question and its answer must not be stored:
// the question or the answer is about a credential, a code, a sign-in, an
// unlock or an approval, or the answer is one short token with digits in
// it (a PIN or a code, whatever the question said).
func Secret(question, answer string) bool {
	if secretTopicRe.MatchString(question) || secretTopicRe.MatchString(answer) {
		return true
	}
	a := strings.TrimSpace(answer)
	return codeLikeRe.MatchString(a) && strings.ContainsAny(a, "0123456789")
}

// needsPersonRe is a question that asked the person to act themselves
// (sign in, unlock, solve a captcha): worth remembering as such, without
// the answer.
var needsPersonRe = regexp.MustCompile(`(?i)\b(?:sign(?:ing)?[- ]?(?:in|on)|log(?:ging)?[- ]?in|login|captcha|verification|two[- ]factor|2fa)\b|登录|验证`)
