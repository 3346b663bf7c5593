package postcond

import (
	"slices"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The names phones give Settings' pages (docs/design.md#verification-and-honest-status):
// a check names a page as AOSP titles it ("Storage", "Security"), and a
// phone's Settings shows it under its vendor's title and in its language.
// These are what those vendors call the pages on their main lists, as
// their phones show them: a Pixel in English (Sound & vibration, Security
// & privacy, Passwords & accounts) and in Chinese (提示音和振动, 安全和隐私,
// 存储, 位置信息), MIUI (声音与振动, 通知与控制中心, 存储空间, 密码与安全,
// 账号与同步, 更多设置, 我的设备) and Samsung's One UI (Sounds and vibration,
// Security and privacy, Accounts and backup, General management).
var sectionNames = [][]string{
	{"Display", "显示", "显示与亮度"},
	{"Sound", "Sound & vibration", "Sounds and vibration", "Sound and vibration", "声音", "声音与振动", "声音和振动", "提示音和振动"},
	{"Notifications", "通知", "通知与控制中心", "通知和状态栏"},
	{"Battery", "电池", "电池与性能"},
	{"Storage", "存储", "存储空间", "储存空间"},
	{"Location", "位置信息", "位置"},
	{"Security", "Security & privacy", "Security and privacy", "密码与安全", "安全和隐私", "安全与隐私", "安全"},
	{"Accounts", "Passwords & accounts", "Accounts and backup", "账号与同步", "密码和帐号", "帐号", "账号", "账户", "帐户"},
	{"Accessibility", "无障碍", "辅助功能"},
	{"System", "General management", "更多设置", "系统"},
	{"About phone", "我的设备", "关于手机", "关于本机"},
}

// SectionNames are the titles a Settings page has on the phones that
// sectionNames knows, the AOSP title first, when name is one of them
// (in any case); nil for any other name.
func SectionNames(name string) []string {
	for _, ns := range sectionNames {
		if slices.ContainsFunc(ns, func(n string) bool { return same(n, name) }) {
			return slices.Clone(ns)
		}
	}
	return nil
}

// settingsScreen reports a screen of the Settings app, where a check's
// page name stands for every title sectionNames gives that page.
func settingsScreen(s Screen) bool {
	return s.AppPackage == "com.android.settings" || s.AppPackage == "" && s.App == "Settings"
}

// findShown is find for an element_absent check's text on screen s: on
// Settings, an element showing any of a page's titles (SectionNames)
// shows the page's name, wherever it is.
func findShown(es []uitree.Element, s Screen, x string) *uitree.Element {
	if e := find(es, x); e != nil || !settingsScreen(s) {
		return e
	}
	for _, n := range SectionNames(x) {
		if e := find(es, n); e != nil {
			return e
		}
	}
	return nil
}

// findPage is find for an element_exists check's text on screen s. On
// Settings a page's name, under any of its titles, is shown by the page's
// own title, outside the scrolling list: a row of a list that names the
// page (the main list's 存储空间, One UI's Storage row in Device care) is
// the way there, not the page, so a screen still on the list does not
// pass. Any other text is found as find finds it.
func findPage(es []uitree.Element, s Screen, x string) *uitree.Element {
	names := SectionNames(x)
	if names == nil || !settingsScreen(s) {
		return find(es, x)
	}
	parent := uitree.Parents(es)
	inList := func(i int) bool {
		for a := parent[i]; a >= 0; a = parent[a] {
			if es[a].Scrollable {
				return true
			}
		}
		return false
	}
	for _, n := range names {
		for i, e := range es {
			if !inList(i) && Shows(e, n) {
				return &es[i]
			}
		}
	}
	return nil
}
