package phonesim

import (
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Bank's sign-in: a password, then a one-time code the bank sends by
// SMS, as banks do (docs/design.md §15). The SMS arrives at once, from
// "Bank", as a message with its notification; the code is new at every
// sign-in and drawn from the phone's seed and input count, so runs repeat.

// BankSender is who the Bank's SMS comes from.
const BankSender = "Bank"

// bankPassword is Continue on the password page: any password is taken,
// and the code page opens while the SMS with the code arrives.
func (p *Phone) bankPassword() {
	v := p.top()
	if strings.TrimSpace(v.fields["password"]) == "" {
		v.errText = "Enter your password"
		return
	}
	p.st.bankCode = fmt.Sprintf("%06d", (p.cfg.Life.Seed*7919+uint64(p.seq)*104729+271828)%1000000)
	p.push(newView(pkgBank, pageCode, ""))
	p.receive(BankSender, "Your Bank sign-in code is "+p.st.bankCode+". Do not share it with anyone.")
}

// layoutBankCode is the page that asks for the SMS code.
func (p *Phone) layoutBankCode(b *builder) {
	v, w := b.v, b.s.w
	b.appBar("Verify it's you", true)
	b.add(widget{kind: kText, text: "Enter the code we sent you by SMS", full: uitree.Bounds{X1: 48, Y1: contentTop + 80, X2: w - 48, Y2: contentTop + 200}})
	b.editField("sms_code", "Code", "6-digit code", 48, contentTop+240, w-48, contentTop+400)
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "Verify", id: "verify_button", clickable: true,
		full: uitree.Bounds{X1: 48, Y1: contentTop + 480, X2: w - 48, Y2: contentTop + 640},
		tap: func() {
			if p.st.bankCode == "" || strings.TrimSpace(v.fields["sms_code"]) != p.st.bankCode {
				v.errText = "Wrong code"
				return
			}
			p.st.BankSignedIn = true
			p.stack = []*view{newView(pkgLauncher, pageHome, ""), newView(pkgBank, pageAccounts, "")}
		}})
	if v.errText != "" {
		b.add(widget{kind: kText, text: v.errText, id: "error", full: uitree.Bounds{X1: 48, Y1: contentTop + 660, X2: w - 48, Y2: contentTop + 760}})
	}
}
