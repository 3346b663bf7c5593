package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of goals about people in Contacts and of
// the home screen's clock (docs/design.md §9): reverse lookups by number,
// the Nth contact, opening a contact's card, the time the launcher shows.
// Each todo is written in one plain form the executor knows, with the
// answer type or screen that shows it done.

var (
	// rdPhoneNumRe is a phone number as a goal writes it: "+1 555 0101".
	rdPhoneNumRe = regexp.MustCompile(`\+?\d[\d\s\-()]{5,}\d`)
	// rdWhoRe asks for a person: "who", "whose", "belongs to", "是谁".
	rdWhoRe = regexp.MustCompile(`(?i)\b(?:who|whose|whom|belongs?|owner|which contact|the contact with)\b|是谁|谁的|属于`)
	// rdHomeClockRe is the launcher's clock: "the time on the home screen".
	rdHomeClockRe = regexp.MustCompile(`(?i)\b(?:home\s*screen|launcher|lock\s*screen|desktop)\b|主屏幕|桌面|主屏`)
	rdTimeWordRe  = regexp.MustCompile(`(?i)\b(?:time|clock|o'clock)\b|几点|时间|时钟`)
	// rdPersonWordRe is a goal about a contact, not a conversation.
	rdPersonWordRe = regexp.MustCompile(`(?i)\b(?:contacts?|person|people|entry|address book)\b|联系人|通讯录`)
	rdConvWordRe   = regexp.MustCompile(`(?i)\b(?:conversations?|chats?|threads?|messages?|texts?)\b|对话|会话|消息|短信|信息`)
	rdNumWordRe    = regexp.MustCompile(`(?i)\b(?:number|phone)\b|电话|号码`)
	// rdCardRe opens a contact's page: "Alice's contact card", "show me
	// Bob in Contacts", "contact Mom", "打开张三的联系人页面".
	rdCardRe = regexp.MustCompile(`(?i)\b(?:contact\s+(?:card|page|details?|entry|info)|card)\b|联系人(?:页面|详情|资料|卡片|信息)?$|^contact\s+\S|^(?:show|display|bring up|pull up|open|find)\b.+\b(?:in|from)\s+(?:my\s+)?contacts$`)
)

// contactsClause reads a clause about Contacts or the home screen's clock;
// ok is false for any other clause.
func contactsClause(c string) (planned, bool) {
	answer := func(todo, typ string) planned {
		return planned{Todo: todo, Reads: true, Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: typ}}}
	}
	switch {
	case rdHomeClockRe.MatchString(c) && rdTimeWordRe.MatchString(c) && !strings.Contains(strings.ToLower(c), "alarm") && !strings.Contains(c, "闹钟"):
		return answer("Read the time shown on the phone's home screen", postcond.TypeTime), true
	case rdPhoneNumRe.MatchString(c) && (rdWhoRe.MatchString(c) || rdPersonWordRe.MatchString(c)) && !sendsMessage(c):
		num := strings.TrimSpace(rdPhoneNumRe.FindString(c))
		// The card the answer comes from shows the number too.
		p := answer(fmt.Sprintf("Find the contact whose number is %s in Contacts", num), postcond.TypeLabel)
		p.Expect = append(p.Expect, postcond.Check{Kind: postcond.ElementExists, Text: num})
		return p, true
	case ordinal(c) != 0 && rdPersonWordRe.MatchString(c) && !rdConvWordRe.MatchString(c) && !sendsMessage(c):
		which := ordinalWord(ordinal(c))
		if rdNumWordRe.MatchString(c) {
			return answer(fmt.Sprintf("Read the phone number of the %s contact in Contacts", which), postcond.TypePhone), true
		}
		return answer(fmt.Sprintf("Read the name of the %s contact in Contacts", which), postcond.TypeLabel), true
	case rdTerseNumRe.MatchString(c) && !rdVerbRe.MatchString(c) && !rdNotPersonRe.MatchString(c):
		who := rdTerseNumRe.FindStringSubmatch(c)[1]
		if k, ok := rdContacts[strings.ToLower(who)]; ok {
			who = k
		}
		return answer(fmt.Sprintf("Read %s's phone number in Contacts", who), postcond.TypePhone), true
	case rdCardRe.MatchString(c) && !rdNumWordRe.MatchString(c) && !sendsMessage(c):
		who := cardPerson(c)
		if who == "" {
			who = personIn(c)
		} else if k, ok := rdContacts[strings.ToLower(who)]; ok {
			who = k
		}
		if who == "" {
			return planned{}, false
		}
		// The card is a page under the list, which names the person and
		// offers Navigate up; the list has no way up. What the card offers
		// besides differs by phone (a Message button, AOSP's Text icon).
		return planned{Todo: fmt.Sprintf("Open the contact card of %s in Contacts", who),
			Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Contacts"}, {Kind: postcond.ElementExists, Text: who},
				{Kind: postcond.ElementExists, Text: "Navigate up"}}}, true
	}
	return planned{}, false
}

var (
	// rdTerseNumRe is a number asked for with no verb: "Alice phone
	// number", "Bob's mobile", "Carol number".
	rdTerseNumRe = regexp.MustCompile(`(?i)^([\p{L}][\p{L} -]{0,30}?)(?:'s)?\s+(?:(?:phone|mobile|cell)\s+)?(?:number|phone|mobile)$`)
	// rdNotPersonRe are numbers that belong to no person.
	rdNotPersonRe = regexp.MustCompile(`(?i)\b(?:build|version|model|serial|alarm|note|account|card|order|tracking|contact|conversation)\b`)
)

// sendsMessage is a clause that sends, not one that asks ("tell me …").
func sendsMessage(c string) bool { return rdSendRe.MatchString(c) && !rdReadRe.MatchString(c) }

// rdCardWhoRe finds the person in "contact X", "show me X in Contacts".
var rdCardWhoRe = regexp.MustCompile(`(?i)^(?:contact|show(?:\s+me)?|display|bring up|pull up|open|find)\s+(.+?)(?:'s)?(?:\s+(?:contact\s+)?(?:card|page|details?|entry|info))?(?:\s+(?:in|from)\s+(?:my\s+)?contacts)?$`)

func cardPerson(c string) string {
	if m := rdCardWhoRe.FindStringSubmatch(c); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}
