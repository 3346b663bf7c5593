package phonesim

import (
	"regexp"
	"testing"
)

func TestBankSignInSendsACode(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgBank)
	tapOn(t, p, "sign_in_button")
	tapOn(t, p, "password")
	sh(t, p, "input text hunter2")
	tapOn(t, p, "continue_button")
	st := p.State()
	if len(st.Notifications) != 1 || st.Notifications[0].From != BankSender {
		t.Fatalf("notifications after Continue: %+v", st.Notifications)
	}
	code := regexp.MustCompile(`\d{6}`).FindString(st.Notifications[0].Text)
	if code == "" {
		t.Fatalf("no code in %q", st.Notifications[0].Text)
	}
	tapOn(t, p, "sms_code")
	sh(t, p, "input text 000000")
	tapOn(t, p, "verify_button")
	element(t, p, "Wrong code")
	if p.State().BankSignedIn {
		t.Fatal("a wrong code signed in")
	}
	sh(t, p, "input keyevent 67 67 67 67 67 67")
	sh(t, p, "input text "+code)
	tapOn(t, p, "verify_button")
	if !p.State().BankSignedIn {
		t.Fatal("the code from the SMS did not sign in")
	}
	element(t, p, "Signed in")
}
