package modelserver

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

var switchIDs = map[string]string{"Wi-Fi": "wifi_switch", "Bluetooth": "bluetooth_switch", "Airplane mode": "airplane_switch"}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (c *solver) settingsSwitch(name string) *uitree.Listed {
	if l := c.byID(switchIDs[name]); l != nil {
		return l
	}
	if l := c.byText(name); l != nil && l.Checkable {
		return l
	}
	if c.naive {
		return c.naiveSwitch(name)
	}
	return nil
}

// leaveSubpage goes back from a Settings page that is not the main list.
func (c *solver) onAboutPage() bool {
	return c.byPrefix("Android version") != nil || c.byPrefix("Build number") != nil
}

func (c *solver) toggle(in intent) step {
	if st, ok := c.ensureApp("Settings"); ok {
		return st
	}
	sw := c.settingsSwitch(in.Setting)
	if sw == nil {
		if st, ok := c.pixelToggle(in); ok {
			return st
		}
		if c.onSubpage() {
			return back("This is a Settings sub-page; the switches are on the main Settings list.")
		}
		return c.scroll(false, in.Setting)
	}
	if sw.Checked == in.On {
		return finish(fmt.Sprintf("%s is %s", in.Setting, onOff(in.On)),
			fmt.Sprintf("The %s switch is %s, as asked.", in.Setting, onOff(sw.Checked)))
	}
	return tapAt(*sw, fmt.Sprintf("The %s switch is %s; I tap its row to turn it %s.", in.Setting, onOff(sw.Checked), onOff(in.On)))
}

var pctRe = regexp.MustCompile(`(\d{1,3})\s*%`)

func (c *solver) brightness(in intent) step {
	if st, ok := c.ensureApp("Settings"); ok {
		return st
	}
	if st, ok := c.pixelBrightness(in); ok {
		return st
	}
	val := c.byID("brightness_value")
	if val == nil {
		val = c.byPrefix("Brightness ")
	}
	up, down := c.byID("brightness_up"), c.byID("brightness_down")
	if up == nil {
		up = c.byText("+")
	}
	if down == nil {
		down = c.byText("-")
	}
	if val == nil || up == nil || down == nil {
		if c.onSubpage() {
			return back("The brightness controls are on the main Settings list.")
		}
		return c.scroll(false, "the brightness controls")
	}
	m := pctRe.FindStringSubmatch(val.Text)
	if m == nil {
		return finish("Could not read the brightness from "+strconv.Quote(val.Text), "The brightness label has no percentage.")
	}
	pct, _ := strconv.Atoi(m[1])
	if in.Target >= 0 {
		// + and - move in steps of 10: the nearest step is as close as
		// they get, and the todo's check says whether that is enough.
		target := min(max((in.Target+5)/10*10, 0), 100)
		switch {
		case pct == target:
			return finish(fmt.Sprintf("Brightness is %d%%", pct), "The brightness is at the wanted level.")
		case pct < target:
			return tapAt(*up, fmt.Sprintf("Brightness is %d%%, below %d%%; I tap +.", pct, target))
		default:
			return tapAt(*down, fmt.Sprintf("Brightness is %d%%, above %d%%; I tap -.", pct, target))
		}
	}
	btn, word := up, "up"
	if in.Step < 0 {
		btn, word = down, "down"
	}
	if c.prevTapAt(btn) || (in.Step > 0 && pct >= 100) || (in.Step < 0 && pct <= 0) {
		return finish(fmt.Sprintf("Brightness is %d%%", pct), fmt.Sprintf("Brightness went %s; it is now %d%%.", word, pct))
	}
	return tapAt(*btn, fmt.Sprintf("Brightness is %d%%; I tap %s once to turn it %s.", pct, btn.Text, word))
}
