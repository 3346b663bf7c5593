package waits

import "testing"

func TestPhoneTodo(t *testing.T) {
	for _, c := range []struct {
		todo string
		want PhoneWait
	}{
		{"Wait for a message from Alice Chen", PhoneWait{PhoneMessage, "Alice Chen"}},
		{"wait for the next text from Bob Li.", PhoneWait{PhoneMessage, "Bob Li"}},
		{"Wait for a reply from Mom", PhoneWait{PhoneMessage, "Mom"}},
		{"wait for Bob to reply", PhoneWait{PhoneMessage, "Bob"}},
		{"Wait until Alice Chen replies", PhoneWait{PhoneMessage, "Alice Chen"}},
		{"Wait for Alice Chen to send a message", PhoneWait{PhoneMessage, "Alice Chen"}},
		{"Wait for Zhang San to text me back", PhoneWait{PhoneMessage, "Zhang San"}},
		{"Wait for the SMS code", PhoneWait{PhoneCode, ""}},
		{"wait for the Bank's verification code", PhoneWait{PhoneCode, "Bank"}},
		{"Wait for the one-time code from the Bank", PhoneWait{PhoneCode, "Bank"}},
		{"Wait for the login code to arrive", PhoneWait{PhoneCode, ""}},
		{"等待李四的消息", PhoneWait{PhoneMessage, "李四"}},
		{"等张三回复", PhoneWait{PhoneMessage, "张三"}},
		{"等待Alice Chen发来消息", PhoneWait{PhoneMessage, "Alice Chen"}},
		{"等短信验证码", PhoneWait{PhoneCode, ""}},
		{"等待银行的验证码", PhoneWait{PhoneCode, "银行"}},
	} {
		got, ok := PhoneTodo(c.todo)
		if !ok || got != c.want {
			t.Errorf("PhoneTodo(%q) = %+v, %t; want %+v", c.todo, got, ok, c.want)
		}
		if again, ok := PhoneTodo(got.TodoText()); !ok || again.Kind != got.Kind {
			t.Errorf("its todo text %q does not read back", got.TodoText())
		}
	}
	for _, todo := range []string{"Wait for the page to load", "Wait 20 minutes", "wait until 21:00", "Send a message to Alice Chen",
		"Read the latest message from Alice Chen", "等待20分钟", "Open Messages and wait for it to load", "Wait for 5 minutes"} {
		if w, ok := PhoneTodo(todo); ok {
			t.Errorf("PhoneTodo(%q) = %+v, want no wait for the phone", todo, w)
		}
	}
}

func TestPhoneLead(t *testing.T) {
	for _, c := range []struct {
		goal string
		want PhoneWait
		rest string
	}{
		{"When Alice Chen sends a message, reply 'got it'", PhoneWait{PhoneMessage, "Alice Chen"}, `Send "got it" to Alice Chen`},
		{"when alice chen texts me reply with got it", PhoneWait{PhoneMessage, "alice chen"}, `Send "got it" to alice chen`},
		{"As soon as Bob Li writes, reply \"on my way\"", PhoneWait{PhoneMessage, "Bob Li"}, `Send "on my way" to Bob Li`},
		{"Once Bob replies, forward it to Alice Chen", PhoneWait{PhoneMessage, "Bob"}, "forward it to Alice Chen"},
		{"If Mom messages me, tell her I'm driving", PhoneWait{PhoneMessage, "Mom"}, "tell her I'm driving"},
		{"When the SMS code arrives, enter it", PhoneWait{PhoneCode, ""}, "enter it"},
		{"李四发来消息后回复收到", PhoneWait{PhoneMessage, "李四"}, `Send "收到" to 李四`},
		{"收到李四的消息后，回复“好的”", PhoneWait{PhoneMessage, "李四"}, `Send "好的" to 李四`},
		{"当Alice Chen发来消息时，回复'got it'", PhoneWait{PhoneMessage, "Alice Chen"}, `Send "got it" to Alice Chen`},
		{"等张三发消息后，告诉他我到了", PhoneWait{PhoneMessage, "张三"}, "告诉他我到了"},
	} {
		w, rest, ok := PhoneLead(c.goal)
		if !ok || w != c.want || rest != c.rest {
			t.Errorf("PhoneLead(%q) = %+v, %q, %t; want %+v, %q", c.goal, w, rest, ok, c.want, c.rest)
		}
	}
	for _, goal := range []string{"At 21:00 open Settings", "Turn on Wi-Fi", "Send Alice Chen a message: got it",
		"When is my next alarm?", "Wait for a message from Alice Chen", "打开设置"} {
		if w, rest, ok := PhoneLead(goal); ok {
			t.Errorf("PhoneLead(%q) = %+v, %q; want no lead", goal, w, rest)
		}
	}
}

func TestPhoneLeadLeavesSendsAlone(t *testing.T) {
	for _, goal := range []string{"给妈妈发短信说我晚点到", "给李四发消息：晚上好，记得带伞", "向张三发消息说我到了", "发短信给李四说晚上好",
		"短信验证码是多少", "输入验证码123456", "李四发消息说什么"} {
		if w, rest, ok := PhoneLead(goal); ok {
			t.Errorf("PhoneLead(%q) = %+v, %q; want no lead", goal, w, rest)
		}
	}
}
