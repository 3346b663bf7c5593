package phonesim

import "fmt"

// SentBefore adds messages the phone sent before its record began
// (yesterday's): each is an outgoing bubble at the end of its
// conversation, and none is in State().MessagesSent, which holds what the
// phone sent since it was made or reset. A recipient the phone has no
// contact for is an error naming the contacts.
func (p *Phone) SentBefore(msgs ...SentMessage) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range msgs {
		if _, ok := findContact(m.To); !ok {
			return fmt.Errorf("phonesim: no contact named %q to have sent %q to; the contacts are %s", m.To, m.Text, contactNames())
		}
	}
	for _, m := range msgs {
		p.st.talk(m.To, bubble{sent: true, text: m.Text})
	}
	return nil
}
