package modelserver

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The executor persona on a conversation opened without sending and on the
// Nth conversation of the Messages list (docs/design.md §9): the answer
// is the row's text on the screen it finishes on.

var (
	exOpenConvRe = regexp.MustCompile(`(?i)^open\s+the\s+conversation\s+with\s+(.+?)(?:\s+in\s+messages)?$`)
	exNthConvRe  = regexp.MustCompile(`(?i)^read\s+the\s+name\s+of\s+the\s+(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+conversation(?:\s+in\s+messages)?$`)
)

// messagesTask is the step for a task about one conversation; ok is false
// for any other task.
func (c *solver) messagesTask(task string) (step, bool) {
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(task), ".。!！"))
	switch {
	case exOpenConvRe.MatchString(t):
		return c.openConversation(exOpenConvRe.FindStringSubmatch(t)[1]), true
	case exNthConvRe.MatchString(t):
		return c.nthConversation(ordinal(exNthConvRe.FindStringSubmatch(t)[1])), true
	}
	return step{}, false
}

// inConversation reports whether a conversation (its message field) is
// on the screen.
func (c *solver) inConversation() bool {
	return c.inApp("Messages") && c.messageField() != nil
}

// messageFieldIDs are the message fields of the Messages apps a phone may
// have: Google Messages' compose_message_text, MIUI 短信's
// embedded_text_editor, Samsung Messages' message_edit_text.
var messageFieldIDs = []string{"compose_message_text", "embedded_text_editor", "message_edit_text"}

// messageField is the conversation's message field: one of those ids,
// else the screen's text field.
func (c *solver) messageField() *uitree.Listed {
	for _, id := range messageFieldIDs {
		if l := c.byID(id); l != nil {
			return l
		}
	}
	return c.byClass("EditText")
}

// newChatDescs describe the button that starts a conversation where it
// shows no words: Google Messages' Start chat, Samsung's Compose new
// message, MIUI 短信's 新建短信.
var newChatDescs = []string{"Start chat", "Compose new message", "新建短信"}

// newChat is the Messages list's button that starts a conversation.
func (c *solver) newChat() *uitree.Listed {
	if l := c.byText("Start chat"); l != nil {
		return l
	}
	for i, l := range c.obs.Elems {
		if l.Clickable && l.Text == "" && slices.Contains(newChatDescs, l.Desc) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// onPicker reports the page that lists every contact to start a
// conversation with, by its title: New conversation, MIUI's 新建短信.
func (c *solver) onPicker() bool {
	return c.byText("New conversation") != nil || c.byText("新建短信") != nil
}

// openConversation opens who's conversation from the Messages list and
// sends nothing.
func (c *solver) openConversation(who string) step {
	if st, ok := c.ensureApp("Messages"); ok {
		return st
	}
	if c.inConversation() {
		if c.person(who, false) != nil {
			return finish(fmt.Sprintf("The conversation with %s is open", who), "The conversation's title names that person; nothing was sent.")
		}
		return back(fmt.Sprintf("This conversation is not with %s; I go back to the list.", who))
	}
	if row := c.person(who, true); row != nil {
		return tapAt(*row, fmt.Sprintf("%s is listed; I open the conversation.", row.Text))
	}
	if start := c.newChat(); start != nil && c.allListed() {
		return tapAt(*start, fmt.Sprintf("There is no conversation with %s yet; I tap Start chat.", who))
	}
	if c.onPicker() && c.allListed() {
		return finish(fmt.Sprintf("Cannot open the conversation: there is no contact named %s on this phone", who),
			fmt.Sprintf("Every contact is listed and %s is not among them.", who))
	}
	return c.scroll(true, who)
}

// conversationRows are the rows of the Messages list, top to bottom: the
// clickable rows that carry their name, else the names Google Messages
// shows inside its rows (conversation_name).
func (c *solver) conversationRows() []uitree.Listed {
	var rows []uitree.Listed
	for _, l := range c.obs.Elems {
		if l.Clickable && l.Text != "" && l.ID == "" && l.Class != "EditText" && l.Desc != "Navigate up" && !strings.Contains(l.Class, "Button") {
			rows = append(rows, l)
		}
	}
	if len(rows) == 0 {
		for _, id := range []string{"conversation_name", "from", "list_avatar_name"} {
			if rows = c.withID(id); len(rows) > 0 {
				break
			}
		}
	}
	return rows
}

// withID are the listed elements with the id that carry text, top to
// bottom.
func (c *solver) withID(id string) []uitree.Listed {
	var out []uitree.Listed
	for _, l := range c.obs.Elems {
		if l.ID == id && l.Text != "" {
			out = append(out, l)
		}
	}
	return out
}

// sendControl is the conversation's send button found by its label: a
// control whose text or description is Send or names what it sends
// ("Send message", as Google Messages describes its button).
func (c *solver) sendControl() *uitree.Listed {
	for i := range c.obs.Elems {
		l := &c.obs.Elems[i]
		if !l.Checkable && l.Class != "EditText" && (postcond.IsCommitLabel(l.Text, []string{"Send"}) || postcond.IsCommitLabel(l.Desc, []string{"Send"})) {
			return l
		}
	}
	return nil
}

// nthConversation answers with the name the Nth row of the Messages list
// shows (-1 for the last).
func (c *solver) nthConversation(n int) step {
	if st, ok := c.ensureApp("Messages"); ok {
		return st
	}
	if c.inConversation() || c.onPicker() {
		return back("This is not the list of conversations; I go back to it.")
	}
	rows := c.conversationRows()
	i, ok := nthIndex(n, len(rows))
	if !ok {
		return finish(fmt.Sprintf("Cannot read it: Messages lists %d conversations", len(rows)), "There is no conversation at that position.")
	}
	return finish(rows[i].Text, fmt.Sprintf("Conversation %d in the list is %q.", i+1, rows[i].Text))
}

func (c *solver) message(in intent) step {
	if articles[strings.ToLower(in.To)] {
		in.To = "" // "Send the message …" names no one
	}
	in, whole := c.completeMessage(in)
	if !whole && (c.asked() || in.To == "") {
		if c.asked() {
			return finish("Cannot send the message: the task does not say "+map[bool]string{true: "who to send it to", false: "what it should say"}[in.To == ""],
				"I asked and got no answer that says it.")
		}
		return askForMessage(in)
	}
	if st, ok := c.ensureApp("Messages"); ok {
		return st
	}
	compose := c.messageField()
	if compose != nil {
		if c.person(in.To, false) == nil {
			return back(fmt.Sprintf("This conversation is not with %s; I go back to the list.", in.To))
		}
		if !whole {
			return askForMessage(in)
		}
		send := c.byID("send_button")
		if send == nil {
			send = c.sendControl()
		}
		if send == nil {
			return finish("Cannot send: no Send button on the conversation screen", "The conversation has no Send button.")
		}
		if c.prevTapAt(send) || (value(compose) == "" && c.byText(in.Text) != nil && c.sentIt(send, in.Text)) {
			return finish(fmt.Sprintf("Sent %q to %s", in.Text, in.To), "The message was sent and the field is empty again.")
		}
		if value(compose) == in.Text {
			return tapAt(*send, "The text is in the field; I tap Send.")
		}
		if c.focused(compose) && !c.prevIs("Type") {
			return typeText(in.Text, "The message field has the focus; I type the text.")
		}
		return tapAt(*compose, "I tap the message field to focus it.")
	}
	if row := c.person(in.To, true); row != nil {
		return tapAt(*row, fmt.Sprintf("%s is listed; I open the conversation.", row.Text))
	}
	if start := c.newChat(); start != nil {
		return tapAt(*start, fmt.Sprintf("There is no conversation with %s yet; I tap Start chat.", in.To))
	}
	if c.onPicker() && c.allListed() {
		if !whole {
			// Nothing here to send to, and no words to send: the todo
			// is wrong as written, which the planner can tell.
			return interactStep(fmt.Sprintf("There is no contact named %s on this phone, and the task does not say what to write. What should I do?", in.To),
				fmt.Sprintf("Every contact is listed and %s is not among them; I ask instead of guessing another person.", in.To))
		}
		return finish(fmt.Sprintf("Cannot send the message: there is no contact named %s on this phone", in.To),
			fmt.Sprintf("Every contact is listed and %s is not among them.", in.To))
	}
	return c.scroll(true, in.To)
}

func (c *solver) prevIs(name string) bool {
	p, ok := c.prev()
	return ok && p.Name == name
}

// A bubble's side, read where its words do not say whose it is: MIUI
// 短信's text_view and Samsung Messages' text_content carry only the
// message, and chat apps draw the phone's own on the right and the other
// person's on the left, as a person reading the screenshot sees them.

// unmarkedBubble is a message's words on a conversation screen (one with
// a text field) that no description marks as either side's: a plain
// TextView below the title bar, not a control.
func unmarkedBubble(es []uitree.Listed, l uitree.Listed) bool {
	if l.Text == "" || l.Desc != "" || l.Clickable || l.Class != "TextView" || l.At[1] <= 110 {
		return false
	}
	return slices.ContainsFunc(es, func(e uitree.Listed) bool { return e.Class == "EditText" })
}

// leftBubble is an unmarked bubble in the left half of the screen.
func leftBubble(es []uitree.Listed, l uitree.Listed) bool {
	return unmarkedBubble(es, l) && l.At[0] < 500
}

// rightBubble is an unmarked bubble in the right half of the screen.
func rightBubble(es []uitree.Listed, l uitree.Listed) bool {
	return unmarkedBubble(es, l) && l.At[0] > 500
}
