package modelserver

import (
	"fmt"
	"strconv"
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
		return c.scroll(true, path[0]) // down the list, from its top where Settings opens
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

// pixelBrightness is the step towards a brightness on a Pixel's Settings,
// and false when the screen is not one. Display's Brightness level is a
// slider: the level is its summary, and a drag along the track from the
// thumb to the wanted point sets any level (a step of the todo's "one
// step" is brightnessStep points).
func (c *solver) pixelBrightness(in intent) (step, bool) {
	if !c.onPixelSettings() {
		return step{}, false
	}
	bar, pct, ok := c.levelSlider()
	if bar == nil {
		return c.pixelTowards("the brightness slider", []string{"Display"}), true
	}
	if !ok {
		return finish("Could not read the brightness", "The brightness slider shows no level beside it."), true
	}
	target := in.Target
	if target < 0 {
		word := "up"
		if in.Step < 0 {
			word = "down"
		}
		if c.trailing("Swipe") > 0 || (in.Step > 0 && pct >= 100) || (in.Step < 0 && pct <= 0) {
			return finish(fmt.Sprintf("Brightness is %d%%", pct), fmt.Sprintf("Brightness went %s; it is now %d%%.", word, pct)), true
		}
		target = min(max(pct+in.Step*brightnessStep, 0), 100)
	}
	switch {
	case pct == target:
		return finish(fmt.Sprintf("Brightness is %d%%", pct), "The brightness is at the wanted level."), true
	case c.trailing("Swipe") >= maxSliderDrags:
		return finish(fmt.Sprintf("Brightness is %d%%", pct),
			fmt.Sprintf("After %d drags the slider shows %d%%, not %d%%.", maxSliderDrags, pct, target)), true
	}
	// A point of the track, one grid unit inside its ends: the grid's
	// rounding must not put a drag's start beside the slider.
	at := func(level int) int {
		return min(max(bar.Span[0]+(level*(bar.Span[1]-bar.Span[0])+50)/100, bar.Span[0]+1), bar.Span[1]-1)
	}
	return step{think: fmt.Sprintf("The brightness slider shows %d%%; I drag it to %d%%.", pct, target),
		action: fmt.Sprintf(`do(action="Swipe", start=[%d,%d], end=[%d,%d])`, at(pct), bar.At[1], at(target), bar.At[1])}, true
}

// maxSliderDrags is how many drags in a row the persona makes to land a
// slider on a level before it reports the level it shows.
const maxSliderDrags = 3

// levelSlider is the brightness slider on the screen and the level shown
// beside it: the percentage in the row above the track ("Brightness
// level", "47%"). ok is false when no level is shown.
func (c *solver) levelSlider() (bar *uitree.Listed, pct int, ok bool) {
	for i := range c.obs.Elems {
		e := &c.obs.Elems[i]
		if e.Span == [2]int{} || e.Span[1] <= e.Span[0] {
			continue
		}
		if !strings.Contains(plain(e.Text+" "+e.Desc+" "+c.titleAbove(e)), "bright") {
			continue
		}
		bar = e
		best := 80
		for _, l := range c.obs.Elems {
			d := e.At[1] - l.At[1]
			if d <= 0 || d >= best {
				continue
			}
			if m := pctRe.FindStringSubmatch(l.Text); m != nil {
				pct, _ = strconv.Atoi(m[1])
				best, ok = d, true
			}
		}
		return bar, pct, ok
	}
	return nil, 0, false
}

// titleAbove is the nearest title above e, within a row's height.
func (c *solver) titleAbove(e *uitree.Listed) string {
	best, t := 120, ""
	for _, l := range c.obs.Elems {
		if d := e.At[1] - l.At[1]; l.ID == "title" && d > 0 && d < best {
			best, t = d, l.Text
		}
	}
	return t
}

// titledValue is a preference row titled name and the summary below its
// title, the row's value ("Android version", "14").
func (c *solver) titledValue(name string) (title, value *uitree.Listed) {
	for i := range c.obs.Elems {
		t := &c.obs.Elems[i]
		if t.ID != "title" || plain(t.Text) != plain(name) {
			continue
		}
		best := 60
		for j := range c.obs.Elems {
			v := &c.obs.Elems[j]
			if d := v.At[1] - t.At[1]; v.ID == "summary" && v.Text != "" && d > 0 && d < best && abs(v.At[0]-t.At[0]) < 300 {
				best, value = d, v
			}
		}
		if value != nil {
			return t, value
		}
	}
	return nil, nil
}
