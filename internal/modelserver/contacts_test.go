package modelserver

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// The planner persona's reading of goals about Contacts and the home
// screen's clock, in several phrasings each, Chinese included.
func TestReadContactsGoals(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"time on the home screen?", `Read the time shown on the phone's home screen ⟨the answer is a time seen on a screen⟩`},
		{"Could you tell me what time the phone's home screen shows?", `Read the time shown on the phone's home screen ⟨the answer is a time seen on a screen⟩`},
		{"主屏幕上显示的时间是几点？", `Read the time shown on the phone's home screen ⟨the answer is a time seen on a screen⟩`},
		{"What time is it on the launcher?", `Read the time shown on the phone's home screen ⟨the answer is a time seen on a screen⟩`},
		{"Who is the second contact in Contacts?", `Read the name of the second contact in Contacts ⟨the answer is a label seen on a screen⟩`},
		{"通讯录里第三个联系人是谁？", `Read the name of the third contact in Contacts ⟨the answer is a label seen on a screen⟩`},
		{"第二个联系人叫什么", `Read the name of the second contact in Contacts ⟨the answer is a label seen on a screen⟩`},
		{"Could you read me the name of the second person in my contacts?", `Read the name of the second contact in Contacts ⟨the answer is a label seen on a screen⟩`},
		{"last contact's name?", `Read the name of the last contact in Contacts ⟨the answer is a label seen on a screen⟩`},
		{"What's the phone number of the fourth contact?", `Read the phone number of the fourth contact in Contacts ⟨the answer is a phone seen on a screen⟩`},
		{"通讯录中第二个联系人的电话是多少", `Read the phone number of the second contact in Contacts ⟨the answer is a phone seen on a screen⟩`},
		{"Please tell me the number of whoever is first in Contacts", `Read the phone number of the first contact in Contacts ⟨the answer is a phone seen on a screen⟩`},
		{"whose number is +1 555 0101?", `Find the contact whose number is +1 555 0101 in Contacts ⟨the answer is a label seen on a screen, "+1 555 0101" is shown⟩`},
		{"Could you check who +1 555 0102 belongs to in my contacts?", `Find the contact whose number is +1 555 0102 in Contacts ⟨the answer is a label seen on a screen, "+1 555 0102" is shown⟩`},
		{"+1 555 0100是谁的号码？", `Find the contact whose number is +1 555 0100 in Contacts ⟨the answer is a label seen on a screen, "+1 555 0100" is shown⟩`},
		{"Open Alice's contact card", `Open the contact card of Alice in Contacts ⟨Contacts is in front, "Alice" is shown, "Navigate up" is shown⟩`},
		{"contact Bob", `Open the contact card of Bob in Contacts ⟨Contacts is in front, "Bob" is shown, "Navigate up" is shown⟩`},
		{"打开张三的联系人页面", `Open the contact card of Zhang San in Contacts ⟨Contacts is in front, "Zhang San" is shown, "Navigate up" is shown⟩`},
		{"Could you open Carol's contact card, please?", `Open the contact card of Carol in Contacts ⟨Contacts is in front, "Carol" is shown, "Navigate up" is shown⟩`},
		{"Alice phone number", `Read Alice's phone number in Contacts ⟨the answer is a phone seen on a screen⟩`},
		{"Frank Zhao mobile", `Read Frank Zhao's phone number in Contacts ⟨the answer is a phone seen on a screen⟩`},
		// Not about Contacts: left to the other readings.
		{"Send Zhang San's phone number to Mom", `Read Zhang San's phone number in Contacts ⟨the answer is a phone seen on a screen⟩ | Send Mom a message with what was read ⟨⟩`},
	})
}

// The executor persona on those todos, on a simulated phone: each answer
// is what the phone shows, and a person the phone lacks is an honest
// failure.
func TestContactsTodosOnSimulator(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, c := range []struct{ todo, want string }{
		{"Read the time shown on the phone's home screen", "12:00"},
		{"Read the name of the second contact in Contacts", "Bob Li"},
		{"Read the name of the last contact in Contacts", "Mom"},
		{"Read the phone number of the third contact in Contacts", "+86 138 0000 0003"},
		{"Find the contact whose number is +86 139 0000 0004 in Contacts", "李四"},
		{"Find the contact whose number is +1 555 0199 in Contacts", "Cannot find the contact: no contact has the number +1 555 0199"},
		{"Open the contact card of Zhang San in Contacts", "Zhang San's contact card is open"},
		{"Open the contact card of Carol in Contacts", "Cannot open the card: there is no contact named Carol on this phone"},
	} {
		p, a := startPhone(t)
		msg, _ := runGoal(t, srv.URL, a, c.todo, 16)
		if msg != c.want {
			t.Errorf("%q finished with %q, want %q", c.todo, msg, c.want)
		}
		if strings.HasPrefix(c.todo, "Open the contact card") && !strings.HasPrefix(msg, "Cannot") {
			if st := p.State(); st.Screen.App != "Contacts" || st.Screen.Detail != "Zhang San" {
				t.Errorf("%q: the phone shows %+v", c.todo, st.Screen)
			}
		}
	}
}
