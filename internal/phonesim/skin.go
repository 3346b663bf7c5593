package phonesim

import (
	"fmt"
	"slices"
)

// Skin is how the phone's system apps look: which tree Settings, the
// status bar's shade, Messages and Contacts show (docs/phones.md#skins).
type Skin string

const (
	// SkinClassic is the simulator's own flat Settings page, whose
	// switches carry their labels: the first look it had, and the zero
	// value of Config.Skin (its unit tests draw it).
	SkinClassic Skin = "classic"
	// SkinPixel lays Settings and Quick Settings out as a Pixel's
	// Android 14 does: the main list with summaries and subpages, switches
	// without text beside their title, main switch bars, a brightness
	// slider, a shade pulled from the top with state tiles; Messages
	// is Google Messages' Compose screens, Contacts AOSP Contacts',
	// Clock Google Clock's Alarm tab with its Material time picker, and
	// Notes Google Keep's list and editor.
	SkinPixel Skin = "pixel"
	// SkinMIUI lays Settings and the control centre out as a Xiaomi
	// phone's MIUI 14 does, in Chinese: 我的设备, WLAN and 蓝牙 on the main
	// list, a SlidingButton at the end of each switch row, tiles that say
	// 已开启 or 已关闭; Messages is Xiaomi's 短信, Clock 时钟 with its
	// wheels, Notes 便签, Contacts MIUI's 联系人.
	SkinMIUI Skin = "miui"
	// SkinOneUI lays Settings and the quick panel out as a Samsung
	// phone's One UI 6 does: Connections holding the Wi-Fi, Bluetooth and
	// Flight mode rows with their own Switches, Display with its
	// Brightness slider, About phone > Software information; Messages is
	// Samsung Messages, Clock Samsung's with its wheels, Notes Samsung
	// Notes, Contacts Samsung Contacts.
	SkinOneUI Skin = "oneui"
)

// DefaultSkin is the look phoneflow's simulator has unless configured
// otherwise (sim.skin, --skin): a Pixel's (docs/phones.md#skins).
const DefaultSkin = SkinPixel

// Skins are the skins ParseSkin knows.
var Skins = []Skin{SkinClassic, SkinPixel, SkinMIUI, SkinOneUI}

// ParseSkin returns the skin a name stands for; "" is SkinClassic, the
// zero value of Config.Skin (the configured default is DefaultSkin).
func ParseSkin(name string) (Skin, error) {
	switch Skin(name) {
	case "", SkinClassic:
		return SkinClassic, nil
	case SkinPixel, SkinMIUI, SkinOneUI:
		return Skin(name), nil
	}
	return "", fmt.Errorf("phonesim: unknown skin %q; use %s (the simulator's flat Settings), %s (Settings and Quick Settings as on a Pixel), %s (as on a Xiaomi phone's MIUI, in Chinese) or %s (as on a Samsung phone's One UI)",
		name, SkinClassic, SkinPixel, SkinMIUI, SkinOneUI)
}

// BrightnessStep is the smallest change of brightness the skin's
// controls make, in points: the classic page's - and + buttons move it by
// 10, a slider by 1.
func (s Skin) BrightnessStep() int {
	if s == "" || s == SkinClassic {
		return 10
	}
	return 1
}

// DeletesNotes reports whether the skin's Notes can delete a note: Google
// Keep's and Samsung Notes' editor menus can, 便签 by a long press on the
// note's row; the classic Notes has no Delete.
func (s Skin) DeletesNotes() bool { return s == SkinPixel || s == SkinMIUI || s == SkinOneUI }

// DeletesAlarms reports whether the skin's Clock can delete an alarm: a
// Google Clock card expanded shows Delete, MIUI's 编辑闹钟 page 删除闹钟, Samsung
// Clock's select mode Delete; the classic Clock has no Delete.
func (s Skin) DeletesAlarms() bool { return s == SkinPixel || s == SkinMIUI || s == SkinOneUI }

// pixel reports whether the phone wears the Pixel skin.
func (p *Phone) pixel() bool { return p.cfg.Skin == SkinPixel }

// shaded reports whether the phone has a shade to pull down: every skin
// but the classic one.
func (p *Phone) shaded() bool { return p.cfg.Skin != SkinClassic && p.cfg.Skin != "" }

// pixelSectionTitles are the Pixel main list's titles of the sections the
// classic Settings names otherwise; a section not here keeps its name.
var pixelSectionTitles = map[string]string{
	"Sound":    "Sound & vibration",
	"Security": "Security & privacy",
	"Accounts": "Passwords & accounts",
}

// oneuiSectionPaths are the rows that lead from One UI's main list to a
// section SectionTitle's row does not open itself: Device care holds
// Storage.
var oneuiSectionPaths = map[string][]string{"Storage": {"Device care", "Storage"}}

// SectionPath is the rows a person taps from a skin's main Settings list
// to open a section of SettingsSections: its row (SectionTitle), then,
// where the skin keeps the section a page deeper, the row there (One
// UI's Device care > Storage).
func SectionPath(skin Skin, section string) []string {
	if p, ok := oneuiSectionPaths[section]; ok && skin == SkinOneUI {
		return slices.Clone(p)
	}
	return []string{SectionTitle(skin, section)}
}

// SectionScreen is the Settings screen a skin shows for a section of
// SettingsSections: the page and detail State().Screen reports while that
// section is open, the page SectionPath's last row opens. A section is
// what a person asks for by name ("the Security page"); a Pixel titles it
// "Security & privacy", and its Display section is a page of its own.
func SectionScreen(skin Skin, section string) Screen {
	if skin == "" || skin == SkinClassic {
		return Screen{App: "Settings", Page: pageSection, Detail: section}
	}
	if section == "Display" {
		return Screen{App: "Settings", Page: pageDisplay}
	}
	path := SectionPath(skin, section)
	return Screen{App: "Settings", Page: pageSection, Detail: path[len(path)-1]}
}

// SectionTitle is the title of a section's row on a skin's main Settings
// list: "Security" is "Security & privacy" on a Pixel, "密码与安全" on
// MIUI, "Security and privacy" on One UI.
func SectionTitle(skin Skin, section string) string {
	titles := map[Skin]map[string]string{SkinPixel: pixelSectionTitles, SkinMIUI: miuiSectionTitles, SkinOneUI: oneuiSectionTitles}[skin]
	if t, ok := titles[section]; ok {
		return t
	}
	return section
}
