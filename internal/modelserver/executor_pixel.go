package modelserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Pixel's Settings (the simulator's pixel skin, docs/phones.md#skins)
// keeps its switches on subpages, and a switch there has no text: its
// label is the title beside it, or the main switch bar's text. The
// persona reads them as a person would, from what is shown.

// settingsPaths are the rows each skin's Settings opens, in order, to
// reach each switch: a Pixel's, MIUI's (in Chinese) and One UI's.
var settingsPaths = map[string][][]string{
	"Wi-Fi":         {{"Network & internet", "Internet"}, {"WLAN"}, {"Connections"}},
	"Bluetooth":     {{"Connected devices", "Connection preferences", "Bluetooth"}, {"蓝牙"}, {"Connections"}},
	"Airplane mode": {{"Network & internet"}, {"连接与共享"}, {"Connections"}},
}

// switchNames are the titles a setting's switch has on each skin: MIUI
// calls Wi-Fi WLAN, One UI airplane mode Flight mode.
var switchNames = map[string][]string{
	"Wi-Fi":         {"Wi-Fi", "WLAN"},
	"Bluetooth":     {"Bluetooth", "蓝牙"},
	"Airplane mode": {"Airplane mode", "Flight mode", "飞行模式"},
}

// aboutPaths are the rows that lead to the Android version on each skin,
// and aboutNames the titles of what they show.
var (
	aboutPaths = [][]string{{"About phone"}, {"我的设备", "全部参数"}, {"About phone", "Software information"}}
	aboutNames = map[string][]string{
		"Android version": {"Android version", "Android版本"},
		"Build number":    {"Build number", "版本号"},
		"Model":           {"Model", "Model name", "型号"},
	}
)

// displayPaths lead to the brightness slider: a Pixel's and One UI's
// Display, MIUI's 显示.
var displayPaths = [][]string{{"Display"}, {"显示"}}

// plain is s with Settings' non-breaking hyphen (U+2011, "Wi‑Fi") as a
// hyphen, lower-cased.
func plain(s string) string { return strings.ToLower(strings.ReplaceAll(s, "\u2011", "-")) }

// onPixelSettings reports a Pixel Settings screen: its main list's title
// or a subpage's collapsing toolbar.
func (c *solver) onPixelSettings() bool {
	return c.byID("homepage_title") != nil || c.byID("collapsing_toolbar") != nil || c.miuiTitle() != nil || c.inApp("Settings") && c.oneuiBarTitle() != nil
}

// oneuiBarTitle is the title of a One UI Settings subpage: its bar holds
// Navigate up, the title (a TextView without an id on Navigate up's
// line) and Search, nothing described by the title
// (uiviewer-samsung-settings-developer-options-pl.xml).
func (c *solver) oneuiBarTitle() *uitree.Listed {
	up, search := c.descControl("Navigate up"), c.descControl("Search")
	if up == nil || search == nil {
		up, search = c.descControl("Nawiguj w górę"), c.descControl("Szukaj") // the Polish dump's
	}
	if up == nil || search == nil {
		return nil
	}
	for i := range c.obs.Elems {
		e := &c.obs.Elems[i]
		if e.Class == "TextView" && e.ID == "" && e.Text != "" && !e.Clickable && e.At[0] > up.At[0] && e.At[0] < search.At[0] && abs(e.At[1]-up.At[1]) <= 30 {
			return e
		}
	}
	return nil

}

// miuiTitle is MIUI's action bar title: action_bar_title_expand while the
// bar is expanded (the top of a page, untergang-miui-settings-main-en.xml),
// action_bar_title once a scroll collapsed it.
func (c *solver) miuiTitle() *uitree.Listed {
	if t := c.byID("action_bar_title_expand"); t != nil {
		return t
	}
	return c.byID("action_bar_title")
}

// onSettingsHome reports Settings' main list: a Pixel's or One UI's
// homepage title, or MIUI's action bar titled 设置.
func (c *solver) onSettingsHome() bool {
	if c.byID("homepage_title") != nil {
		return true
	}
	t := c.miuiTitle()
	return t != nil && (t.Text == "设置" || t.Text == "Settings")
}

// switchClass reports a class that draws a switch: Android's Switch or
// MIUI's SlidingButton.
func switchClass(class string) bool { return class == "Switch" || class == "SlidingButton" }

// stateWord reports a text that only says a state (One UI's switch bar
// and row Switches say "On" or "Off"; a Chinese tile 开启 or 关闭): it
// names no setting.
func stateWord(s string) bool {
	switch strings.TrimRight(plain(strings.TrimSpace(s)), ".。") {
	case "on", "off", "开启", "关闭", "已开启", "已关闭", "打开", "已打开", "开", "关",
		"włączono", "wyłączono", "włączony", "wyłączony": // a Polish One UI's Switches and switch bar

		return true
	}
	return false
}

// pageTitle is the title of the Settings subpage on the screen: the
// collapsing toolbar's description, MIUI's action bar title or the title
// in One UI's bar.
func (c *solver) pageTitle() string {
	if t := c.byID("collapsing_toolbar"); t != nil && t.Desc != "" {
		return t.Desc
	}
	if t := c.miuiTitle(); t != nil {
		return t.Text
	}
	if t := c.oneuiBarTitle(); t != nil {
		return t.Text
	}
	return ""
}

// saysOnlyState reports a switch's own text that names no setting: none
// (SettingsLib's Switch), a state word (One UI's row Switch says "On" or
// "Off"), or the page's title and the state (One UI's switch bar Switch,
// "Wi-Fi, On", labelled by the bar beside it).
func saysOnlyState(s string) bool {
	if s == "" || stateWord(s) {
		return true
	}
	i := strings.LastIndex(s, ", ")
	return i > 0 && stateWord(s[i+2:])
}

// switchBeside is the Switch on the same line as l whose own text names
// no setting (saysOnlyState), if any.
func (c *solver) switchBeside(l *uitree.Listed) *uitree.Listed {
	for i := range c.obs.Elems {
		e := &c.obs.Elems[i]
		if switchClass(e.Class) && e.Checkable && saysOnlyState(e.Text) && e.At[0] > l.At[0] && abs(e.At[1]-l.At[1]) <= 30 {
			return e
		}
	}
	return nil
}

// pixelSwitch finds the label and the switch of a setting on the screen:
// a main switch bar saying "Use <setting>", or one saying only its state
// on a page titled <setting> (One UI's Wi-Fi page), or a row titled
// <setting> with a switch beside its title, under any of the names the
// skins give the setting.
func (c *solver) pixelSwitch(setting string) (label, sw *uitree.Listed) {
	names := switchNames[setting]
	if names == nil {
		names = []string{setting}
	}
	titled := false
	for _, n := range names {
		titled = titled || plain(c.pageTitle()) == plain(n)
	}
	for i := range c.obs.Elems {
		l := &c.obs.Elems[i]
		t := plain(l.Text)
		named := l.ID == "switch_text" && titled && stateWord(l.Text)
		for _, n := range names {
			want := plain(n)
			named = named || (l.ID == "switch_text" && t == "use "+want) || (l.ID == "title" && t == want)
		}
		if named {
			if s := c.switchBeside(l); s != nil {
				return l, s
			}
		}
	}
	return nil, nil
}

// tapSwitch is the tap that flips a switch: the switch itself where it
// takes taps of its own (One UI's Wi-Fi row opens a page, its Switch flips
// Wi-Fi), else the row its label is in.
func tapSwitch(label, sw *uitree.Listed, why string) step {
	if sw.Clickable {
		return tapAt(*sw, why)
	}
	return tapAt(*label, why)
}

// pixelToggle is the step towards a switch on a Pixel's Settings, and
// false when the screen is not one.
func (c *solver) pixelToggle(in intent) (step, bool) {
	paths, ok := settingsPaths[in.Setting]
	if !ok || !c.onPixelSettings() {
		return step{}, false
	}
	if label, sw := c.pixelSwitch(in.Setting); sw != nil {
		if sw.Checked == in.On {
			return finish(fmt.Sprintf("%s is %s", in.Setting, onOff(in.On)),
				fmt.Sprintf("The switch beside %q is %s, as asked.", label.Text, onOff(sw.Checked))), true
		}
		return tapSwitch(label, sw, fmt.Sprintf("The switch beside %q is %s; I tap it to turn it %s.", label.Text, onOff(sw.Checked), onOff(in.On))), true
	}
	return c.pixelTowards(in.Setting, paths), true
}

// pixelRead is the step towards reading a switch's state on a Pixel's
// Settings, and false when the screen is not one.
func (c *solver) pixelRead(setting string) (step, bool) {
	paths, ok := settingsPaths[setting]
	if !ok || !c.onPixelSettings() {
		return step{}, false
	}
	if label, sw := c.pixelSwitch(setting); sw != nil {
		return finish(fmt.Sprintf("%s is %s", setting, onOff(sw.Checked)), fmt.Sprintf("The switch beside %q shows the state.", label.Text)), true
	}
	return c.pixelTowards(setting, paths), true
}

// aboutRead is the step towards reading what About phone shows on a
// skin's Settings (the row titled what, its value the summary below the
// title), and false when the screen is not such a Settings page.
func (c *solver) aboutRead(what string) (step, bool) {
	names, ok := aboutNames[what]
	if !ok || !c.onPixelSettings() {
		return step{}, false
	}
	for _, n := range names {
		if t, v := c.titledValue(n); v != nil {
			return finish(what+": "+v.Text, fmt.Sprintf("About phone shows %q under %q.", v.Text, t.Text)), true
		}
	}
	return c.pixelTowards(what, aboutPaths), true
}

// summaryBelow is the summary just under a row's title.
func (c *solver) summaryBelow(title *uitree.Listed) *uitree.Listed {
	for i := range c.obs.Elems {
		e := &c.obs.Elems[i]
		if e.ID == "summary" && e.Text != "" && abs(e.At[0]-title.At[0]) <= 60 && e.At[1] > title.At[1] && e.At[1]-title.At[1] <= 40 {
			return e
		}
	}
	return nil
}

// pixelTowards opens the deepest row of any skin's path on the screen,
// else scrolls the main list or goes back a page.
func (c *solver) pixelTowards(setting string, paths [][]string) step {
	deepest := 0
	for _, p := range paths {
		deepest = max(deepest, len(p))
	}
	names := append([]string{setting}, switchNames[setting]...)
	for i := deepest - 1; i >= 0; i-- {
		// Rows of several skins' paths may be on the screen at once (One
		// UI lists both Connections and Connected devices): the row whose
		// summary names the setting ("Wi-Fi  •  Bluetooth  •  SIM
		// manager") is the one that leads there.
		var rows []*uitree.Listed
		var via []string
		for _, path := range paths {
			if i >= len(path) {
				continue
			}
			for j := range c.obs.Elems {
				if l := &c.obs.Elems[j]; l.ID == "title" && plain(l.Text) == plain(path[i]) {
					rows, via = append(rows, l), append(via, strings.Join(path, " > "))
				}
			}
		}
		pick := 0
		for k, l := range rows {
			if v := c.summaryBelow(l); v != nil && slices.ContainsFunc(names, func(n string) bool { return strings.Contains(plain(v.Text), plain(n)) }) {
				pick = k
				break
			}
		}
		if len(rows) > 0 {
			return tapAt(*rows[pick], fmt.Sprintf("%s is reached through %s; I open %q.", setting, via[pick], rows[pick].Text))
		}
	}
	if c.onSettingsHome() {
		return c.scroll(true, paths[0][0]) // down the list, from its top where Settings opens
	}
	return back(fmt.Sprintf("This Settings page does not lead to %s; I go back a page.", setting))
}

// titledSwitch is a Switch whose own text names no setting and the words that
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
		if !switchClass(sw.Class) || !sw.Checkable || !saysOnlyState(sw.Text) {
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
				if stateWord(label) {
					label = plain(pageTitleOf(es))
				}
			}
		}
		if label != "" {
			out = append(out, titledSwitch{sw, label})
		}
	}
	return out
}

// pageTitleOf is the title of the Settings subpage es shows, as
// solver.pageTitle reads it.
func pageTitleOf(es []uitree.Listed) string {
	c := solver{obs: observation{Elems: es}}
	return c.pageTitle()
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
		return c.pixelTowards("the brightness slider", displayPaths), true
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
		if t := plain(e.Text + " " + e.Desc + " " + c.titleAbove(e)); !strings.Contains(t, "bright") && !strings.Contains(t, "亮度") {
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
