package modelserver

import (
	"regexp"
)

// bankPasswordRe and bankCodeRe read a bank task that brings its own
// secret: "Sign in to the Bank with the password hunter2", "Enter the
// code 482913 in the Bank app".
var (
	bankPasswordRe = regexp.MustCompile(`(?i)(?:password|密码)(?:\s+is)?[\s:：]*["'“]?([A-Za-z0-9!@#$%^&*._+-]+)`)
	bankCodeRe     = regexp.MustCompile(`(?:^|[^\d])(\d{4,8})(?:[^\d]|$)`)
)

func (c *solver) bank(task string) step {
	if st, ok := c.ensureApp("Bank"); ok {
		return st
	}
	if m := bankCodeRe.FindStringSubmatch(task); m != nil && c.byID("sms_code") != nil || c.byText("Signed in") != nil {
		return c.bankCode(m)
	}
	if m := bankPasswordRe.FindStringSubmatch(task); m != nil {
		return c.bankPassword(m[1])
	}
	if c.tookOver() {
		return finish("The user took over the bank app", "The user has handled the bank app themselves.")
	}
	if tapWordRe.MatchString(task) {
		if b := c.byText("Sign in"); b != nil && b.Clickable {
			return tapAt(*b, "I tap Sign in; this needs the user's approval.")
		}
		if p, ok := c.prev(); ok && p.Name == "Tap" && !c.isErr() {
			return finish("Tapped Sign in", "The Sign in button is gone: the bank asks for the password now.")
		}
	}
	return takeOver("Please sign in to the bank app yourself", "Banking needs the user's own credentials; I hand over to the user.")
}

// Patterns used by the functions above.
var (
	tapWordRe = regexp.MustCompile(`(?i)\b(?:tap|click|press)\b`)
)

// bankPassword signs in with a password the task gives: Sign in, the
// password typed, Continue; done once the bank asks for its SMS code.
func (c *solver) bankPassword(pw string) step {
	if c.byID("sms_code") != nil {
		return finish("Signed in with the password; the bank sent a code by SMS", "The bank asks for the code it sent by SMS now.")
	}
	if b := c.byID("sign_in_button"); b != nil && b.Clickable {
		return tapAt(*b, "I tap Sign in; this needs the user's approval.")
	}
	field := c.byID("password")
	if field == nil {
		return takeOver("Please sign in to the bank app yourself", "I cannot find the bank's password field.")
	}
	if st, ok := c.fill(field, pw, "The password field has the focus; I type the password.", "I tap the password field."); ok {
		return st
	}
	if b := c.byID("continue_button"); b != nil {
		return tapAt(*b, "The password is in; I tap Continue.")
	}
	return takeOver("Please sign in to the bank app yourself", "I cannot find the bank's Continue button.")
}

// bankCode enters the code the task gives on the bank's code page and
// verifies it; done once the bank shows the accounts.
func (c *solver) bankCode(m []string) step {
	if c.byText("Signed in") != nil {
		return finish("Signed in to the bank", "The bank shows the accounts: the code was accepted.")
	}
	if m == nil {
		return finish("Cannot enter the code: the task does not give it", "The task lacks the code.")
	}
	code, field := m[1], c.byID("sms_code")
	if c.byText("Wrong code") != nil && c.prevTapAt(c.byID("verify_button")) {
		return finish("The bank refused the code "+code, "The bank says the code is wrong.")
	}
	if st, ok := c.fill(field, code, "The code field has the focus; I type the code from the SMS.", "I tap the code field."); ok {
		return st
	}
	if b := c.byID("verify_button"); b != nil {
		return tapAt(*b, "The code is in; I tap Verify.")
	}
	return finish("Cannot find the bank's Verify button", "The code page has no Verify button.")
}
