package phonesim

import "testing"

// TestSpecContract pins the element texts, classes and ids of the shared
// simulator UI spec, which the offline executor model relies on.
func TestSpecContract(t *testing.T) {
	type want struct{ class, text, id, desc string }
	check := func(p *Phone, screen string, wants []want) {
		t.Helper()
		elems := p.UITree()
		for _, w := range wants {
			found := false
			for _, e := range elems {
				if e.ShortClass() == w.class && e.Text == w.text && e.ShortID() == w.id && e.Desc == w.desc {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: no %s %q id=%q desc=%q", screen, w.class, w.text, w.id, w.desc)
			}
		}
	}
	p := New(Config{})
	check(p, "launcher", []want{{"TextView", "Settings", "", "Settings"}, {"TextView", "Bank", "", "Bank"}})

	launch(t, p, pkgSettings)
	check(p, "settings", []want{
		{"TextView", "Settings", "title", ""},
		{"Switch", "Wi-Fi", "wifi_switch", ""},
		{"Switch", "Bluetooth", "bluetooth_switch", ""},
		{"Switch", "Airplane mode", "airplane_switch", ""},
		{"TextView", "Brightness 50%", "brightness_value", ""},
		{"Button", "-", "brightness_down", ""},
		{"Button", "+", "brightness_up", ""},
		{"TextView", "Display", "", ""},
	})

	launch(t, p, pkgContacts)
	check(p, "contacts", []want{{"TextView", "Zhang San", "", "张三"}, {"TextView", "李四", "", ""}, {"TextView", "Mom", "", ""}})
	tapOn(t, p, "Bob Li")
	check(p, "contact detail", []want{{"TextView", "Bob Li", "title", ""}, {"TextView", "+1 555 0102", "phone_number", ""}, {"Button", "Message", "message_button", ""}})

	launch(t, p, pkgMessages)
	check(p, "messages", []want{{"TextView", "Messages", "title", ""}, {"TextView", "Alice Chen", "", ""}, {"Button", "Start chat", "start_chat", ""}})
	tapOn(t, p, "Mom")
	check(p, "conversation", []want{
		{"TextView", "Mom", "title", ""},
		{"TextView", "Call me when you land.", "", "Received"},
		{"EditText", "", "compose_message_text", "Text message"},
		{"Button", "Send", "send_button", ""},
	})

	launch(t, p, pkgClock)
	check(p, "clock", []want{{"TextView", "Alarm", "title", ""}, {"TextView", "07:00 Wake up", "", ""}, {"Switch", "", "alarm_switch", "07:00 Wake up"}, {"Button", "Add alarm", "add_alarm", ""}})
	tapOn(t, p, "Add alarm")
	check(p, "new alarm", []want{
		{"TextView", "New alarm", "title", ""},
		{"EditText", "Time", "alarm_time", "Time (HH:MM)"},
		{"EditText", "Label", "alarm_label", "Label"},
		{"Button", "Save", "save_button", ""},
	})

	launch(t, p, pkgNotes)
	check(p, "notes", []want{{"TextView", "Notes", "title", ""}, {"TextView", "Shopping list", "", ""}, {"Button", "New note", "new_note", ""}})
	tapOn(t, p, "New note")
	check(p, "note editor", []want{{"EditText", "Title", "note_title", "Title"}, {"EditText", "Body", "note_body", "Body"}, {"Button", "Save", "save_button", ""}})

	launch(t, p, pkgBank)
	check(p, "bank", []want{{"Button", "Sign in", "sign_in_button", ""}})
	tapOn(t, p, "Sign in")
	check(p, "bank password", []want{{"TextView", "Sign in", "title", ""}, {"EditText", "Password", "password", "Password"}, {"Button", "Continue", "continue_button", ""}})

	// Packages in dumps are the app's own.
	for _, e := range p.UITree() {
		if e.Package != pkgBank {
			t.Fatalf("bank element %q has package %q", e.Text, e.Package)
		}
	}
}
