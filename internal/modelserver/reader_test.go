package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// plan writes readGoal's todos as "todo ⟨checks⟩ | …", "ask" for a
// question.
func plan(goal string) string {
	var got []string
	for _, p := range readGoal(goal) {
		if p.Ask != "" {
			got = append(got, "ask")
			continue
		}
		var cs []string
		for _, x := range p.Expect {
			cs = append(cs, x.String())
		}
		got = append(got, p.Todo+" ⟨"+strings.Join(cs, ", ")+"⟩")
	}
	return strings.Join(got, " | ")
}

// readPlan is plan of a goal, with each todo's checks wanted valid.
func readPlan(t *testing.T, goal string) string {
	t.Helper()
	for _, p := range readGoal(goal) {
		if probs := postcond.Valid(p.Expect); len(probs) > 0 {
			t.Errorf("%q: invalid checks %v", goal, probs)
		}
	}
	return plan(goal)
}

// checkReadings reads each goal and wants its todos as plan writes them
// ("todo ⟨checks⟩ | …", "ask" for a question), each todo's checks valid.
func checkReadings(t *testing.T, cases []struct{ goal, want string }) {
	t.Helper()
	for _, c := range cases {
		if g := readPlan(t, c.goal); g != c.want {
			t.Errorf("readGoal(%q)\n got %s\nwant %s", c.goal, g, c.want)
		}
	}
}

// The planner persona's reading of goals of every phrasing kind: each todo
// with the postconditions that will show it done.
func TestReadGoalPhrasings(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"wifi off", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩`},
		{"Could you please turn off the Wi-Fi for me?", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩`},
		{"关闭无线网络并打开飞行模式", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩ | Turn on Airplane mode ⟨switch "Airplane mode" is on⟩`},
		{"Turn off Wi-Fi and Bluetooth", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩ | Turn off Bluetooth ⟨switch "Bluetooth" is off⟩`},
		{"Send Zhang San's phone number to Mom", `Read Zhang San's phone number in Contacts ⟨the answer is a phone seen on a screen⟩ | Send Mom a message with what was read ⟨⟩`},
		{"把张三的电话号码发给妈妈", `Read Zhang San's phone number in Contacts ⟨the answer is a phone seen on a screen⟩ | Send Mom a message with what was read ⟨⟩`},
		{"给妈妈发短信说我晚点到", `Send Mom a message: 我晚点到 ⟨last message sent to "Mom" contains "我晚点到"⟩`},
		{"Please text Bob saying running late", `Send Bob a message: running late ⟨last message sent to "Bob" contains "running late"⟩`},
		{"Tell Alice Chen the second alarm's time", `Read the time of the second alarm in Clock ⟨the answer is time #2 seen on a screen⟩ | Send Alice Chen a message with what was read ⟨⟩`},
		{"Could you text Bob Li that the meeting moved to 3pm", `Send Bob Li a message: the meeting moved to 3pm ⟨last message sent to "Bob Li" contains "the meeting moved to 3pm"⟩`},
		{"Send in Messages Alice Chen a message: on my way", `Send Alice Chen a message: on my way ⟨last message sent to "Alice Chen" contains "on my way"⟩`},
		{"给李四发消息：晚上好，记得带伞", `Send 李四 a message: 晚上好，记得带伞 ⟨last message sent to "李四" contains "晚上好，记得带伞"⟩`},
		{"Text Bob via SMS saying running late", `Send Bob a message: running late ⟨last message sent to "Bob" contains "running late"⟩`},
		{"Read the time of the first alarm in Clock, send it to Alice in Messages and then turn on Bluetooth", `Read the time of the first alarm in Clock ⟨the answer is time #1 seen on a screen⟩ | Send Alice a message with what was read ⟨⟩ | Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"Set brightness to 35%", `Set brightness to 35% ⟨field "Brightness" holds "35%"⟩`},
		{"把亮度调到40%", `Set brightness to 40% ⟨field "Brightness" holds "40%"⟩`},
		{"What time is the second alarm?", `Read the time of the second alarm in Clock ⟨the answer is time #2 seen on a screen⟩`},
		{"Disable the 7am alarm", `Turn off the existing 07:00 alarm ⟨switch "07:00" is off⟩`},
		{"设置一个早上7点半的闹钟", `Create an alarm at 07:30 ⟨"07:30" is shown, a switch "07:30" is on⟩`},
		{"Set an alarm for 6:45 pm labelled Gym, then open Notes", `Create an alarm at 18:45 labelled Gym ⟨row "18:45" shows "Gym", a switch "18:45" is on⟩ | Open Notes ⟨Notes is in front⟩`},
		{"Create a note titled Groceries saying milk and eggs", `Create a note titled "Groceries" saying "milk and eggs" ⟨Notes is in front, "Groceries" is shown⟩`},
		// "Let X know …": the whole name before "know", the rest is the text.
		{"Let Bob Li know I'll be 10 minutes late", `Send Bob Li a message: I'll be 10 minutes late ⟨last message sent to "Bob Li" contains "I'll be 10 minutes late"⟩`},
		{"let Zhang San know that the train is delayed", `Send Zhang San a message: the train is delayed ⟨last message sent to "Zhang San" contains "the train is delayed"⟩`},
		{"Tell Dana Park I'm outside", `Send Dana Park a message: I'm outside ⟨last message sent to "Dana Park" contains "I'm outside"⟩`},
		{"Tell Bob Li I'm running late", `Send Bob Li a message: I'm running late ⟨last message sent to "Bob Li" contains "I'm running late"⟩`},
		{"Let Dana Park know I'm outside", `Send Dana Park a message: I'm outside ⟨last message sent to "Dana Park" contains "I'm outside"⟩`},
		// What someone wrote is their latest message, whatever the
		// words: never the last row of a list.
		{"What was Alice's last message?", `Read the latest message from Alice in Messages ⟨the answer is a label seen on a screen⟩`},
		{"What did Alice Chen say in her last text?", `Read the latest message from Alice Chen in Messages ⟨the answer is a label seen on a screen⟩`},
		{"Could you check what Mom last texted me?", `Read the latest message from Mom in Messages ⟨the answer is a label seen on a screen⟩`},
		{"Read me the newest text from Dana Park", `Read the latest message from Dana Park in Messages ⟨the answer is a label seen on a screen⟩`},
		{"李四发给我的最后一条消息是什么？", `Read the latest message from 李四 in Messages ⟨the answer is a label seen on a screen⟩`},
		{"Read Bob Li's latest text and then send it to Alice Chen", `Read the latest message from Bob Li in Messages ⟨the answer is a label seen on a screen⟩ | Send Alice Chen a message with what was read ⟨⟩`},
	})
}

// Phrasings of classes the reader once turned into another todo whose
// checks then held: an offset or amount it dropped, an operation it has no
// todo for, a name it left out. Each is read right or asked about, never
// planned as something else.
func TestReaderAsksRatherThanGuesses(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Could you make the screen dimmer? 30 points less than now is enough.", "Read the brightness in Settings ⟨the answer is a number seen on a screen⟩ | Set brightness 30 points below what was read (30 points less than now) ⟨⟩"},
		{"create a new alarm 45 minutes before the 08:30 one", `Create an alarm at 07:45 (45 minutes before 08:30) ⟨"07:45" is shown, a switch "07:45" is on⟩`},
		{"remove alarm 07:00", `Delete the 07:00 alarm in Clock ⟨Clock is in front, "07:00" is not shown⟩`},
		{"删除08:30的闹钟", `Delete the 08:30 alarm in Clock ⟨Clock is in front, "08:30" is not shown⟩`},
		{"Could you get rid of my 07:00 alarm entirely, please?", `Delete the 07:00 alarm in Clock ⟨Clock is in front, "07:00" is not shown⟩`},
		{"Rename my Shopping list note to Groceries", `Rename the note "Shopping list" to "Groceries" ⟨Notes is in front, "Notes" is shown, "Groceries" is shown, "Shopping list" is not shown⟩`},
		{"在Shopping list笔记里加上coffee", `Add "coffee" to the note "Shopping list" ⟨Notes is in front, "Shopping list" is shown⟩ | Open the note "Shopping list" to check it holds "coffee" ⟨Notes is in front, field "Title" holds "Shopping list", field "Body" holds "coffee"⟩`},
		{"Forward Alice's last message to Bob", "Read the latest message from Alice in Messages ⟨the answer is a label seen on a screen⟩ | Send Bob a message with what was read ⟨⟩"},
		{"Please add a 3:10pm alarm and name it Call Mom", `Create an alarm at 15:10 labelled Call Mom ⟨row "15:10" shows "Call Mom", a switch "15:10" is on⟩`},
		{`alarm 11:40am "Pick up kids"`, `Create an alarm at 11:40 labelled Pick up kids ⟨row "11:40" shows "Pick up kids", a switch "11:40" is on⟩`},
		{"Brightness all the way down", `Set brightness to 0% ⟨field "Brightness" holds "0%"⟩`},
		{"the wireless network on or off?", `Read the state of the Wi-Fi switch ⟨the answer is the on/off state of "Wi-Fi" seen on a screen⟩`},
		{"What is the last alarm called?", "Read the label of the last alarm in Clock ⟨the answer is the last label seen on a screen⟩"},
		{"What time is the last alarm set for?", "Read the time of the last alarm in Clock ⟨the answer is the last time seen on a screen⟩"},
		{`Send "On my way" to Mom and to Bob`, `Send Mom a message: On my way ⟨last message sent to "Mom" contains "On my way"⟩ | Send Bob a message: On my way ⟨last message sent to "Bob" contains "On my way"⟩`},
		{`Tell Zhang San "the meeting moved to 2pm, room 3"`, `Send Zhang San a message: the meeting moved to 2pm, room 3 ⟨last message sent to "Zhang San" contains "the meeting moved to 2pm, room 3"⟩`},
		{"text Bob: Can you call me back?", `Send Bob a message: Can you call me back? ⟨last message sent to "Bob" contains "Can you call me back?"⟩`},
		{"新建一个标题为读书笔记的笔记，内容是buy milk", `Create a note titled "读书笔记" saying "buy milk" ⟨Notes is in front, "读书笔记" is shown⟩`},
		{"note Trip: buy milk and eggs; text it to Mom", `Create a note titled "Trip" saying "buy milk and eggs" ⟨Notes is in front, "Trip" is shown⟩ | Send Mom a message: buy milk and eggs ⟨last message sent to "Mom" contains "buy milk and eggs"⟩`},
		{"Please switch WiFi off and afterwards return to the home screen.", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩ | Go to the home screen ⟨Launcher is in front⟩`},
	})
}

// After a colon the whole rest of the clause is the message: closing thanks
// or a particle are sent, not taken for politeness to the agent, and the
// check is written from the whole text.
func TestMessageAfterColonKeepsItsEnd(t *testing.T) {
	for goal, want := range map[string]string{
		"text Bob: 收到，谢谢":                                       "收到，谢谢",
		"给Bob发消息：好的，谢谢。":                                        "好的，谢谢",
		"Text Bob Li: on my way, thanks!":                       "on my way, thanks!",
		"Text Bob: are you there?":                              "are you there?",
		"text Bob: 收到，谢谢，然后打开蓝牙":                                "收到，谢谢",
		"Message Alice Chen: thank you. Then turn on Bluetooth": "thank you",
	} {
		ps := readGoal(goal)
		if len(ps) == 0 || len(ps[0].Expect) != 1 || ps[0].Expect[0].Contains != want {
			t.Errorf("%q: read %+v, want the message %q", goal, ps, want)
			continue
		}
		if !strings.HasSuffix(ps[0].Todo, ": "+want) {
			t.Errorf("%q: todo %q does not end with the message %q", goal, ps[0].Todo, want)
		}
	}
}
