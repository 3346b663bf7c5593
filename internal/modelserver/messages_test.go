package modelserver

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// Goals about one conversation, said in several ways: each is planned to
// todos whose checks say what the goal asked, or asked about; never a
// guess at the person.
func TestReadMessagesGoals(t *testing.T) {
	open := func(who string) string {
		return `Open the conversation with ` + who + ` in Messages ⟨Messages is in front, "` + who + `" is shown, "Text message" is shown⟩`
	}
	fwd := func(from, to string) string {
		return `Read the latest message from ` + from + ` in Messages ⟨the answer is a label seen on a screen⟩ | Send ` + to + ` a message with what was read ⟨⟩`
	}
	num := func(who, to string) string {
		return `Read ` + who + `'s phone number in Contacts ⟨the answer is a phone seen on a screen⟩ | Send ` + to + ` a message with what was read ⟨⟩`
	}
	sent := func(to, text string) string {
		return `Send ` + to + ` a message: ` + text + ` ⟨last message sent to "` + to + `" contains "` + text + `"⟩`
	}
	checkReadings(t, []struct{ goal, want string }{
		{"Open my conversation with Alice (don't send anything)", open("Alice")},
		{"chat with Bob Li, just open it", open("Bob Li")},
		{"打开和张三的聊天记录，不要发消息", open("Zhang San")},
		{"Could you bring up my Messages thread with Mom? Only open it.", open("Mom")},
		{"show me the chat with Dana Park", open("Dana Park")},
		{"Open Bob's conversation", open("Bob")},
		{"Message the second conversation in Messages: see you soon", `Read the name of the second conversation in Messages ⟨the answer is label #2 seen on a screen⟩ | Send what was read a message: see you soon ⟨⟩`},
		{"给信息列表里第三个对话发：好的", `Read the name of the third conversation in Messages ⟨the answer is label #3 seen on a screen⟩ | Send what was read a message: 好的 ⟨⟩`},
		{"Could you open the first conversation in Messages and send \"on my way\"?", `Read the name of the first conversation in Messages ⟨the answer is label #1 seen on a screen⟩ | Open the conversation with what was read in Messages ⟨⟩ | Send what was read a message: on my way ⟨⟩`},
		{"Forward Alice's last message to Bob", fwd("Alice", "Bob")},
		{"forward the latest text from Mom to Zhang San", fwd("Mom", "Zhang San")},
		{"把张三最后发来的消息转发给妈妈", fwd("Zhang San", "Mom")},
		{"Could you pass on to Zhang San what Alice Chen last wrote to me?", fwd("Alice Chen", "Zhang San")},
		{"Reply to Alice's last message with \"ok\"", sent("Alice", "ok")},
		{"回复张三的最新消息：好的", sent("Zhang San", "好的")},
		{"reply Mom: on my way", sent("Mom", "on my way")},
		{"Would you answer Bob's latest text for me? Say: on my way", sent("Bob", "on my way")},
		{"给张三和妈妈都发消息：晚上好", sent("Zhang San", "晚上好") + " | " + sent("Mom", "晚上好")},
		{"Text Alice 'see you', then send Bob the same", sent("Alice", "see you") + " | " + sent("Bob", "see you")},
		{"Could you message both Alice Chen and Mom saying \"see you\"?", sent("Alice Chen", "see you") + " | " + sent("Mom", "see you")},
		{"text Mom 'see you', then home", sent("Mom", "see you") + " | Go to the home screen ⟨Launcher is in front⟩"},
		{"Please send Bob Li a text saying \"see you\" and go back home afterwards.", sent("Bob Li", "see you") + " | Go to the home screen ⟨Launcher is in front⟩"},
		{"Could you share Zhang San's number with Mom by text?", num("Zhang San", "Mom")},
		{"Look up Alice Chen's number and then text it to Bob", num("Alice Chen", "Bob")},
		{"What's Alice Chen's number? Send it to Bob Li", num("Alice Chen", "Bob Li")},
		{"Text Alice the time of my second alarm", `Read the time of the second alarm in Clock ⟨the answer is time #2 seen on a screen⟩ | Send Alice a message with what was read ⟨⟩`},
		{"bank app", `Open Bank ⟨Bank is in front⟩`},
		{"打开银行应用", `Open Bank ⟨Bank is in front⟩`},
		{"Could you open my bank app? I'll sign in myself.", `Open Bank ⟨Bank is in front⟩`},
		// The most recent message is the newest conversation's: its name
		// is read from the list first, and the send checked once known.
		{"Reply to the most recent message with ok", `Read the name of the first conversation in Messages ⟨the answer is label #1 seen on a screen⟩ | Send what was read a message: ok ⟨⟩`},
		// Whose message is not said at all: asked, never guessed.
		{"Reply to the message with ok", "ask"},
	})
}

// The executor opens a conversation without sending, and reads the Nth
// row of the Messages list.
func TestExecutorConversations(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"open: tap the row", screen("Open the conversation with Bob Li in Messages", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"), el("TextView", "Bob Li", 500, 242, "clickable")),
			`do(action="Tap", element=[500,242])`},
		{"open: done once it shows", screen("Open the conversation with Bob Li in Messages", "Messages", "", "",
			el("TextView", "Bob Li", 500, 60), el("EditText", "", 390, 883, "clickable", "id=compose_message_text", "desc=Text message")),
			`finish(message="The conversation with Bob Li is open")`},
		{"open: another conversation", screen("Open the conversation with Mom in Messages", "Messages", "", "",
			el("TextView", "Bob Li", 500, 60), el("EditText", "", 390, 883, "clickable", "id=compose_message_text", "desc=Text message")),
			`do(action="Back")`},
		{"nth: the second row", screen("Read the name of the second conversation in Messages", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"), el("TextView", "Bob Li", 500, 242, "clickable"),
			el("Button", "Start chat", 500, 937, "clickable")),
			`finish(message="Bob Li")`},
		{"nth: the last row", screen("Read the name of the last conversation in Messages", "Messages", "", "",
			el("TextView", "Messages", 500, 60), el("TextView", "Alice Chen", 500, 142, "clickable"), el("TextView", "Bob Li", 500, 242, "clickable"),
			el("Button", "Start chat", 500, 937, "clickable")),
			`finish(message="Bob Li")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := autoglm.FormatAction(answer(t, c.text))
			want, err := autoglm.Parse(c.want)
			if err != nil {
				t.Fatalf("bad want %s: %v", c.want, err)
			}
			if got != autoglm.FormatAction(want.Action) {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
