package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

var (
	clockRe = regexp.MustCompile(`^(\d{1,2}:\d{2})\b`)
	phoneRe = regexp.MustCompile(`^\+?[\d][\d\s()\-]{5,}$`)
)

func (c *solver) read(in intent) step {
	if st, ok := c.ensureApp(in.App); ok {
		return st
	}
	switch in.What {
	case "Android version", "Build number", "Model":
		// A skin's About phone (MIUI's 全部参数, One UI's Software
		// information) shows each as a title with its value as the
		// summary below.
		if st, ok := c.aboutRead(in.What); ok {
			return st
		}
		if l := c.byPrefix(in.What + ":"); l != nil {
			return finish(l.Text, fmt.Sprintf("The About phone page shows %q.", l.Text))
		}
		if about := c.byText("About phone"); about != nil && about.Clickable {
			return tapAt(*about, "About phone is listed; I open it.")
		}
		if c.onSubpage() {
			return back("This page does not show " + in.What + "; I go back to the Settings list.")
		}
		return c.scroll(true, "About phone")
	case "alarm time", "alarm label", "alarm state":
		return c.readAlarm(in)
	case "note body", "note title":
		return c.readNote(in)
	case "first alarm":
		if c.byID("alarm_time") != nil {
			return back("This is the new alarm page; the alarms are on the list.")
		}
		for _, l := range c.obs.Elems {
			if m := clockRe.FindStringSubmatch(l.Text); m != nil {
				return finish(m[1], fmt.Sprintf("The first alarm row is %q.", l.Text))
			}
		}
		return finish("There are no alarms", "The alarm list is empty.")
	case "phone":
		if in.Contact == "" {
			return finish("Cannot read a phone number: the task does not say whose", "The task names no contact.")
		}
		if c.person(in.Contact, false) != nil {
			for _, l := range c.obs.Elems {
				if phoneRe.MatchString(strings.TrimSpace(l.Text)) {
					return finish(l.Text, fmt.Sprintf("%s's number is shown.", in.Contact))
				}
			}
		}
		if row := c.person(in.Contact, true); row != nil {
			return tapAt(*row, fmt.Sprintf("I open %s's contact page.", row.Text))
		}
		if c.byText("Message") != nil || c.descControl("发送信息") != nil {
			return back("This is another contact's page; I go back to the list.")
		}
		if c.onContactsList() && c.allListed() {
			return finish(fmt.Sprintf("Cannot read the number: there is no contact named %s on this phone", in.Contact),
				fmt.Sprintf("Every contact is listed and %s is not among them.", in.Contact))
		}
		return c.scroll(true, in.Contact)
	case "latest message":
		return c.readLatestMessage(in.Contact)
	case "brightness":
		if c.onPixelSettings() {
			// A Pixel shows the level as Brightness level's summary, on
			// the Display page.
			if bar, pct, ok := c.levelSlider(); bar != nil && ok {
				return finish(fmt.Sprintf("Brightness %d%%", pct), "The Brightness level row shows the value above its slider.")
			}
			return c.pixelTowards("the brightness", displayPaths)
		}
		if l := c.byID("brightness_value"); l != nil {
			return finish(l.Text, "The brightness row shows the value.")
		}
		if c.onSubpage() {
			return back("The brightness row is on the main Settings list.")
		}
		return c.scroll(false, "the brightness row")
	case "Wi-Fi", "Bluetooth", "Airplane mode":
		if sw := c.settingsSwitch(in.What); sw != nil {
			return finish(fmt.Sprintf("%s is %s", in.What, onOff(sw.Checked)), "The switch shows the state.")
		}
		if st, ok := c.pixelRead(in.What); ok {
			return st
		}
		if c.onSubpage() {
			return back("The switches are on the main Settings list.")
		}
		return c.scroll(false, in.What)
	}
	what := strings.ToLower(in.What)
	for _, l := range c.obs.Elems {
		if what != "" && l.Text != "" && (strings.Contains(strings.ToLower(l.Text), what) || strings.Contains(what, strings.ToLower(l.Text)) && len(l.Text) > 3) {
			return finish(l.Text, fmt.Sprintf("The screen shows %q.", l.Text))
		}
	}
	if c.count("Swipe") < maxScrolls && len(c.obs.Elems) > 0 {
		return c.scroll(true, in.What)
	}
	return finish(fmt.Sprintf("Could not find %s", in.What), "Nothing on the screen matches what I should read.")
}

// readLatestMessage opens the conversation with who and answers with the
// newest message they sent (the last bubble marked Received).
func (c *solver) readLatestMessage(who string) step {
	if compose := c.messageField(); compose != nil {
		if c.person(who, false) == nil {
			return back(fmt.Sprintf("This conversation is not with %s; I go back to the list.", who))
		}
		var last *uitree.Listed
		for i, l := range c.obs.Elems {
			// The lowest bubble marked as theirs: a list may hold the
			// newest first, as Google Messages' does.
			if l.Text != "" && (postcond.Incoming(uitree.Element{Text: l.Text, Desc: l.Desc}) || leftBubble(c.obs.Elems, l)) && (last == nil || l.At[1] >= last.At[1]) {
				last = &c.obs.Elems[i]
			}
		}
		if last == nil {
			return finish(fmt.Sprintf("%s has sent no messages in this conversation", who), "The conversation shows no received message.")
		}
		return finish(last.Text, fmt.Sprintf("The newest message from %s reads %q.", who, last.Text))
	}
	if row := c.person(who, true); row != nil {
		return tapAt(*row, fmt.Sprintf("%s is listed; I open the conversation.", row.Text))
	}
	if c.onPicker() && c.allListed() {
		return finish(fmt.Sprintf("Cannot read the message: there is no conversation with %s on this phone", who),
			fmt.Sprintf("Every conversation is listed and none is with %s.", who))
	}
	return c.scroll(true, who)
}
