package postcond

import (
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Sent bubbles as real apps mark them
// (docs/design.md#verification-and-honest-status).
var (
	// youSaidRe is Google Messages' description of a sent bubble: "You
	// said  test 1:13 pm ., , Delivered".
	youSaidRe = regexp.MustCompile(`(?i)^\s*you said\b\s*`)
	// saidRe is any bubble's description naming who said it.
	saidRe = regexp.MustCompile(`(?i)^\s*\S.*?\bsaid\s`)
	// trailerRe is what follows a message in its description: its time
	// (a weekday or a date before it) and its delivery state.
	trailerRe  = regexp.MustCompile(`(?i)(?:\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|yesterday|today|[a-z]{3,9} \d{1,2})?,?\s*\d{1,2}[:.]\d{2}\s*(?:[ap]\.?\s?m\.?)?)?[\s.,]*(?:(?:delivered|sent|read|seen|sending|not sent|failed)[\s.,]*)*$`)
	sentMarkRe = regexp.MustCompile(`(?i)^\s*sent\b|,\s*(?:delivered|sent|read|seen)\s*\.?\s*$|已发送|已送达|已读`)
	recvMarkRe = regexp.MustCompile(`(?i)^\s*received\b|已接收|收到的消息`)
	// sideIDRe is a bubble row's id naming its side, as AOSP Mms's
	// msg_list_item_send and msg_list_item_recv do.
	sideIDRe = regexp.MustCompile(`item_(?:send|recv)$`)
)

// LastOutgoing is the newest message the screen shows as sent: the lowest
// bubble marked as the phone's own (a description "You said …", "Sent",
// a delivery trailer such as ", Delivered", 已发送, or a resource ID naming
// an outgoing message), the message's words taken from its text, or from
// its description without the marks around them. On a screen that marks
// no bubble either way, the lowest bubble of the message list aligned to
// its right edge, as chat apps draw the phone's own messages.
func LastOutgoing(es []uitree.Element) string {
	m, _ := lastOutgoing(es)
	return m
}

// lastOutgoing is LastOutgoing with the bubble it is read from.
func lastOutgoing(es []uitree.Element) (string, uitree.Element) {
	last, y, marked := "", -1, false
	var bubble uitree.Element
	for i, e := range es {
		id := strings.ToLower(e.ShortID())
		if youSaidRe.MatchString(e.Desc) || saidRe.MatchString(e.Desc) || sentMarkRe.MatchString(e.Desc) || recvMarkRe.MatchString(e.Desc) || sideIDRe.MatchString(id) {
			marked = true
		}
		if !sentBubble(e, id) || e.Bounds.Y1 < y {
			continue
		}
		m := messageText(e)
		if m == "" {
			m = innerText(es, i)
		}
		if m != "" {
			last, y, bubble = m, e.Bounds.Y1, e
		}
	}
	if last != "" || marked {
		return last, bubble
	}
	return rightAligned(es)
}

// Outgoing reports whether a bubble is marked as the phone's own ("You
// said …", "Sent", a delivery trailer, an outgoing id).
func Outgoing(e uitree.Element) bool { return sentBubble(e, strings.ToLower(e.ShortID())) }

// Incoming reports whether a bubble is marked as someone else's ("Alice
// said …", "Received", 已接收).
func Incoming(e uitree.Element) bool {
	return !youSaidRe.MatchString(e.Desc) && (saidRe.MatchString(e.Desc) || recvMarkRe.MatchString(e.Desc) || strings.HasSuffix(strings.ToLower(e.ShortID()), "item_recv"))
}

func sentBubble(e uitree.Element, id string) bool {
	if youSaidRe.MatchString(e.Desc) {
		return true
	}
	if saidRe.MatchString(e.Desc) || recvMarkRe.MatchString(e.Desc) {
		return false // someone else said it
	}
	return sentMarkRe.MatchString(e.Desc) || strings.Contains(id, "outgoing") || strings.HasSuffix(id, "item_send")
}

// bodyIDs are the ids of a bubble's child that holds its words: AOSP
// Mms's text_view (whose date_view holds the time), Samsung's
// text_content, Google Messages' message_text.
var bodyIDs = map[string]bool{"text_view": true, "text_content": true, "message_text": true, "message_body": true, "body": true}

// innerText is the words of a marked bubble that holds them in a child
// (AOSP Mms's msg_list_item_send row around its text_view, Samsung's
// bubble_text_view around its text_content): the child that holds a
// message's words by its id, else the first text inside it that is not a
// time, else its first text: a message may be a time itself ("07:00"),
// and a row's own time comes after the words.
func innerText(es []uitree.Element, i int) string {
	end := uitree.SubtreeEnd(es, i)
	first, words := "", ""
	for j := i + 1; j < end; j++ {
		t := strings.TrimSpace(es[j].Text)
		if t == "" || es[j].IsField() {
			continue
		}
		if bodyIDs[strings.ToLower(es[j].ShortID())] {
			return t
		}
		if first == "" {
			first = t
		}
		if words == "" && wholeValue(TypeTime, t) == "" {
			words = t
		}
	}
	if words != "" {
		return words
	}
	return first
}

// messageText is a bubble's message: its text, else its description
// without "You said" and the time and delivery state after the words.
func messageText(e uitree.Element) string {
	if t := strings.TrimSpace(e.Text); t != "" {
		return t
	}
	d := e.Desc
	if !youSaidRe.MatchString(d) {
		return ""
	}
	d = youSaidRe.ReplaceAllString(d, "")
	return strings.TrimSpace(trailerRe.ReplaceAllString(d, ""))
}

// rightAligned is the lowest text of a conversation's message list that
// sits against the list's right edge (far nearer to it than to the left).
// Only a conversation has one: a screen with a field to write in, whose
// list holds bubbles on both sides; anything else has no sent message.
func rightAligned(es []uitree.Element) (string, uitree.Element) {
	l := newLayout(es)
	last, y := "", -1
	var bubble uitree.Element
	field := false
	for _, e := range es {
		field = field || e.IsField()
	}
	if !field {
		return "", bubble
	}
	lefts := map[int]bool{} // lists with a bubble against their left edge
	for i, e := range es {
		if e.Text == "" || e.IsField() {
			continue
		}
		for a := l.parent[i]; a >= 0; a = l.parent[a] {
			if es[a].Scrollable {
				lb := es[a].Bounds
				if left, right := e.Bounds.X1-lb.X1, lb.X2-e.Bounds.X2; left >= 0 && right > 2*left && right > (lb.X2-lb.X1)/5 {
					lefts[a] = true
				}
				break
			}
		}
	}
	for i, e := range es {
		if e.Text == "" || e.IsField() || e.Clickable && e.ShortClass() == "Button" || len(values(TypeTime, e.Text)) > 0 && wholeValue(TypeTime, e.Text) != "" {
			continue
		}
		list := -1
		for a := l.parent[i]; a >= 0; a = l.parent[a] {
			if es[a].Scrollable {
				list = a
				break
			}
		}
		if list < 0 || !lefts[list] || besideText(es, l, i, list) {
			continue
		}
		lb := es[list].Bounds
		left, right := e.Bounds.X1-lb.X1, lb.X2-e.Bounds.X2
		if right >= 0 && left > 2*right && left > (lb.X2-lb.X1)/5 && e.Bounds.Y1 >= y {
			last, y, bubble = strings.TrimSpace(e.Text), e.Bounds.Y1, e
		}
	}
	return last, bubble
}

// besideText reports whether another text of the list shares es[i]'s line:
// a form's value beside its label, not a bubble, which has its line to
// itself.
func besideText(es []uitree.Element, l *layout, i, list int) bool {
	e := es[i]
	for j := list + 1; j < l.end[list]; j++ {
		o := es[j]
		if j == i || o.Text == "" || l.inside(j, i) || l.inside(i, j) {
			continue
		}
		if o.Bounds.Y1 < e.Bounds.Y2 && o.Bounds.Y2 > e.Bounds.Y1 && (o.Bounds.X2 <= e.Bounds.X1 || o.Bounds.X1 >= e.Bounds.X2) {
			return true
		}
	}
	return false
}
