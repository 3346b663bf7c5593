package modelserver

import (
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Pixel's Settings (the simulator's pixel skin, docs/phones.md#skins)
// keeps its switches on subpages, and a switch there has no text: its
// label is the title beside it, or the main switch bar's text. The
// persona reads them as a person would, from what is shown.

// pixelPaths are the rows a Pixel's Settings opens, in order, to reach
// each switch.
var pixelPaths = map[string][]string{
	"Wi-Fi":         {"Network & internet", "Internet"},
	"Bluetooth":     {"Connected devices", "Connection preferences", "Bluetooth"},
	"Airplane mode": {"Network & internet"},
}

// plain is s with Settings' non-breaking hyphen (U+2011, "Wi‑Fi") as a
// hyphen, lower-cased.
func plain(s string) string { return strings.ToLower(strings.ReplaceAll(s, "\u2011", "-")) }

// onPixelSettings reports a Pixel Settings screen: its main list's title
// or a subpage's collapsing toolbar.
func (c *solver) onPixelSettings() bool {
	return c.byID("homepage_title") != nil || c.byID("collapsing_toolbar") != nil
}

// switchBeside is the text-less Switch on the same line as l, if any.
func (c *solver) switchBeside(l *uitree.Listed) *uitree.Listed {
	for i := range c.obs.Elems {
		e := &c.obs.Elems[i]
		if e.Class == "Switch" && e.Checkable && e.Text == "" && e.At[0] > l.At[0] && abs(e.At[1]-l.At[1]) <= 30 {
			return e
		}
	}
	return nil
}

// pixelSwitch finds the label and the switch of a setting on the screen:
// a main switch bar saying "Use <setting>", or a row titled <setting>
// with a switch beside its title.
func (c *solver) pixelSwitch(setting string) (label, sw *uitree.Listed) {
	want := plain(setting)
	for i := range c.obs.Elems {
		l := &c.obs.Elems[i]
		t := plain(l.Text)
		if (l.ID == "switch_text" && t == "use "+want) || (l.ID == "title" && t == want) {
			if s := c.switchBeside(l); s != nil {
				return l, s
			}
		}
	}
	return nil, nil
}

// pixelToggle is the step towards a switch on a Pixel's Settings, and
// false when the screen is not one.
func (c *solver) pixelToggle(in intent) (step, bool) {
	path, ok := pixelPaths[in.Setting]
	if !ok || !c.onPixelSettings() {
		return step{}, false
	}
	if label, sw := c.pixelSwitch(in.Setting); sw != nil {
		if sw.Checked == in.On {
			return finish(fmt.Sprintf("%s is %s", in.Setting, onOff(in.On)),
				fmt.Sprintf("The switch beside %q is %s, as asked.", label.Text, onOff(sw.Checked))), true
		}
		return tapAt(*label, fmt.Sprintf("The switch beside %q is %s; I tap its row to turn it %s.", label.Text, onOff(sw.Checked), onOff(in.On))), true
	}
	return c.pixelTowards(in.Setting, path), true
}

// pixelRead is the step towards reading a switch's state on a Pixel's
// Settings, and false when the screen is not one.
func (c *solver) pixelRead(setting string) (step, bool) {
	path, ok := pixelPaths[setting]
	if !ok || !c.onPixelSettings() {
		return step{}, false
	}
	if label, sw := c.pixelSwitch(setting); sw != nil {
		return finish(fmt.Sprintf("%s is %s", setting, onOff(sw.Checked)), fmt.Sprintf("The switch beside %q shows the state.", label.Text)), true
	}
	return c.pixelTowards(setting, path), true
}

// pixelTowards opens the deepest row of path on the screen, else scrolls
// the main list or goes back a page.
func (c *solver) pixelTowards(setting string, path []string) step {
	for i := len(path) - 1; i >= 0; i-- {
		for j := range c.obs.Elems {
			if l := &c.obs.Elems[j]; l.ID == "title" && plain(l.Text) == plain(path[i]) {
				return tapAt(*l, fmt.Sprintf("%s is reached through %s; I open %q.", setting, strings.Join(path, " > "), l.Text))
			}
		}
	}
	if c.byID("homepage_title") != nil {
		return c.scroll(false, path[0])
	}
	return back(fmt.Sprintf("This Settings page does not lead to %s; I go back a page.", setting))
}

// titledSwitch is a Switch without text of its own and the words that
// label it on the screen: the title on its line, left of it, or a main
// switch bar's text without its "Use " ("Use Wi‑Fi" labels Wi-Fi).
type titledSwitch struct {
	sw    *uitree.Listed
	label string
}

func titledSwitches(es []uitree.Listed) []titledSwitch {
	var out []titledSwitch
	for i := range es {
		sw := &es[i]
		if sw.Class != "Switch" || !sw.Checkable || sw.Text != "" {
			continue
		}
		best, label := 31, ""
		for _, l := range es {
			d := abs(l.At[1] - sw.At[1])
			if (l.ID != "title" && l.ID != "switch_text") || l.At[0] >= sw.At[0] || d >= best {
				continue
			}
			best, label = d, plain(l.Text)
			if l.ID == "switch_text" {
				label = strings.TrimPrefix(label, "use ")
			}
		}
		if label != "" {
			out = append(out, titledSwitch{sw, label})
		}
	}
	return out
}
