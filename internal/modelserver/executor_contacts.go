package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The executor persona on Contacts and the home screen's clock: a contact
// found by its number, the Nth contact, a contact's card, the launcher's
// time (docs/design.md §9). Every answer is text on the screen it finishes
// on.

var (
	// spokenClockRe is a time as a Chinese clock widget describes it:
	// "下午2点27分".
	spokenClockRe = regexp.MustCompile(`^(上午|早上|凌晨|中午|下午|晚上)?(\d{1,2})点(\d{2})分$`)
	exHomeClockRe = regexp.MustCompile(`(?i)\btime\b.*\b(?:home\s*screen|launcher)\b|(?:主屏幕|桌面).*(?:时间|几点)`)
	exWhoseNumRe  = regexp.MustCompile(`(?i)\b(?:contact|who|whose)\b.*?(\+?\d[\d\s\-()]{5,}\d)`)
	exNthRe       = regexp.MustCompile(`(?i)\b(name|phone number|number)\s+of\s+the\s+(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+contact\b`)
	exCardRe      = regexp.MustCompile(`(?i)^open\s+the\s+contact\s+card\s+of\s+(.+?)(?:\s+in\s+contacts)?$`)
)

// contactsTask is the step for a task about Contacts or the home screen's
// clock; ok is false for any other task.
func (c *solver) contactsTask(task string) (step, bool) {
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(task), ".。!！"))
	switch {
	case exHomeClockRe.MatchString(t):
		return c.homeClock(), true
	case exWhoseNumRe.MatchString(t):
		return c.contactByNumber(exWhoseNumRe.FindStringSubmatch(t)[1]), true
	case exNthRe.MatchString(t):
		m := exNthRe.FindStringSubmatch(t)
		return c.nthContact(ordinal(m[2]), strings.Contains(strings.ToLower(m[1]), "number")), true
	case exCardRe.MatchString(t):
		return c.contactCard(exCardRe.FindStringSubmatch(t)[1]), true
	}
	return step{}, false
}

func (c *solver) homeClock() step {
	if l := c.byID("clock"); l != nil && c.inApp("Launcher") {
		if m := clockRe.FindStringSubmatch(l.Text); m != nil {
			return finish(m[1], fmt.Sprintf("The home screen's clock shows %q.", l.Text))
		}
	}
	if c.inApp("Launcher") {
		// MIUI's clock widget writes no text: a View is described by the
		// time as it is spoken ("下午2点27分").
		for _, l := range c.obs.Elems {
			if l.Text == "" && !l.Clickable {
				if t := spokenClock(l.Desc); t != "" {
					return finish(t, fmt.Sprintf("The home screen's clock is described %q.", l.Desc))
				}
			}
		}
		return finish("Could not read the time: the home screen shows no clock", "No clock is on the home screen.")
	}
	if c.count("Home") >= 2 {
		return finish("Could not reach the home screen", "Going home did not bring the home screen.")
	}
	return home("The time is on the home screen; I go there.")
}

// spokenClock is "14:27" for "下午2点27分", "" for anything else.
func spokenClock(s string) string {
	m := spokenClockRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return ""
	}
	h, _ := strconv.Atoi(m[2])
	mark := ""
	switch m[1] {
	case "上午", "早上", "凌晨":
		mark = "a"
	case "中午", "下午", "晚上":
		mark = "p"
	}
	if h = clocktime.Hour24(h, mark); h > 23 {
		return ""
	}
	return fmt.Sprintf("%02d:%s", h, m[3])
}

// contactRows are the rows of the Contacts list, top to bottom.
func (c *solver) contactRows() []uitree.Listed {
	var rows []uitree.Listed
	for _, l := range c.obs.Elems {
		if l.Clickable && l.Text != "" && l.ID == "" && l.Class != "EditText" && l.Desc != "Navigate up" {
			rows = append(rows, l)
		}
	}
	if len(rows) == 0 {
		rows = c.withID("cliv_name_textview") // AOSP Contacts' rows hold the name inside
	}
	if len(rows) == 0 && c.inApp("Contacts") {
		rows = c.vendorContactRows() // 联系人's and Samsung Contacts' too
	}
	return rows
}

// onContactsList reports the Contacts list by its title: "Contacts", or
// 联系人 on a Xiaomi phone.
func (c *solver) onContactsList() bool {
	return c.byText("Contacts") != nil || c.byText("联系人") != nil
}

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// onContactCard is the open card's name and number, when a card is open.
func (c *solver) onContactCard() (name, number string, ok bool) {
	if title, num := c.byID("large_title"), c.byID("header"); title != nil && num != nil && c.byID("icon_alternate") != nil {
		return title.Text, num.Text, true // AOSP's QuickContact card
	}
	num := c.byID("phone_number")
	title := c.byID("title")
	if num == nil || title == nil || c.byID("message_button") == nil {
		return c.vendorContactCard()
	}
	return title.Text, num.Text, true
}

// contactByNumber opens the cards one by one, in list order, until one
// shows the number.
func (c *solver) contactByNumber(number string) step {
	if st, ok := c.ensureApp("Contacts"); ok {
		return st
	}
	want := digits(number)
	if name, num, ok := c.onContactCard(); ok {
		if digits(num) == want || strings.HasSuffix(digits(num), want) && len(want) >= 7 {
			return finish(name, fmt.Sprintf("%s's card shows the number %s.", name, num))
		}
		return back(fmt.Sprintf("%s's number is %s, not %s; I go back to the list.", name, num, number))
	}
	rows := c.contactRows()
	opened := c.count("Back") // each card opened before was left with Back
	if opened < len(rows) {
		return tapAt(rows[opened], fmt.Sprintf("I open %s's card to see the number.", rows[opened].Text))
	}
	return finish(fmt.Sprintf("Cannot find the contact: no contact has the number %s", number),
		"I opened every contact's card and none shows that number.")
}

// nthContact answers with the name (from the list) or the number (from the
// card) of the contact at position n (-1 for the last).
func (c *solver) nthContact(n int, number bool) step {
	if st, ok := c.ensureApp("Contacts"); ok {
		return st
	}
	if name, num, ok := c.onContactCard(); ok {
		if number && c.count("Tap") > 0 {
			return finish(num, fmt.Sprintf("%s's card shows the number.", name))
		}
		return back("This card was not opened from the list for this task; I go back to the list.")
	}
	rows := c.contactRows()
	i, ok := nthIndex(n, len(rows))
	if !ok {
		return finish(fmt.Sprintf("Cannot read it: Contacts lists %d people", len(rows)), "There is no contact at that position.")
	}
	if !number {
		return finish(rows[i].Text, fmt.Sprintf("Contact %d in the list is %q.", i+1, rows[i].Text))
	}
	return tapAt(rows[i], fmt.Sprintf("I open %s's card to read the number.", rows[i].Text))
}

// contactCard opens who's card from the Contacts list.
func (c *solver) contactCard(who string) step {
	if st, ok := c.ensureApp("Contacts"); ok {
		return st
	}
	if name, _, ok := c.onContactCard(); ok {
		if c.person(who, false) != nil {
			return finish(fmt.Sprintf("%s's contact card is open", name), "The card shows that person.")
		}
		return back(fmt.Sprintf("This is %s's card; I go back to the list.", name))
	}
	if row := c.person(who, true); row != nil {
		return tapAt(*row, fmt.Sprintf("I open %s's card.", row.Text))
	}
	if c.onContactsList() && c.allListed() {
		return finish(fmt.Sprintf("Cannot open the card: there is no contact named %s on this phone", who),
			fmt.Sprintf("Every contact is listed and %s is not among them.", who))
	}
	return c.scroll(true, who)
}
