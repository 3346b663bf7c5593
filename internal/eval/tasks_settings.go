package eval

import (
	"fmt"
	"math/rand/v2"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// toggleNames are how people name each Settings switch.
var toggleNames = map[string]struct{ en, zh []string }{
	"wifi":      {[]string{"Wi-Fi", "WiFi", "wifi", "the wireless network"}, []string{"无线网络", "WLAN", "Wi-Fi", "WiFi"}},
	"bluetooth": {[]string{"Bluetooth", "bluetooth"}, []string{"蓝牙"}},
	"airplane":  {[]string{"airplane mode", "flight mode", "Airplane mode"}, []string{"飞行模式"}},
}

// sectionZh is what a person writing in Chinese calls each section of
// phonesim.SettingsSections, the words a Chinese phone's Settings titles
// it with (显示, 存储, 位置信息), not any one vendor's full title.
var sectionZh = map[string]string{
	"Display": "显示", "Sound": "声音", "Notifications": "通知", "Battery": "电池", "Storage": "存储",
	"Location": "位置信息", "Security": "安全", "Accounts": "账号", "Accessibility": "无障碍", "System": "系统",
}

func toggleOf(t phonesim.Toggles, name string) bool {
	switch name {
	case "wifi":
		return t.WiFi
	case "bluetooth":
		return t.Bluetooth
	}
	return t.Airplane
}

func setToggle(t *phonesim.Toggles, name string, on bool) {
	switch name {
	case "wifi":
		t.WiFi = on
	case "bluetooth":
		t.Bluetooth = on
	default:
		t.Airplane = on
		if on {
			t.WiFi, t.Bluetooth = false, false
		}
	}
}

// drawToggle picks a switch, names it, and wants it the opposite of how a
// new phone has it (so the task needs a change); prefix keys the params.
func drawToggle(r *rand.Rand, p Params, prefix, name string) {
	n := toggleNames[name]
	on := !toggleOf(phonesim.Initial().Toggles, name)
	p[prefix], p[prefix+"on"] = name, fmt.Sprint(on)
	p[prefix+"en"], p[prefix+"zh"] = pick(r, n.en), pick(r, n.zh)
	p[prefix+"verb"], p[prefix+"word"], p[prefix+"verbzh"] = "off", "off", "关闭"
	if on {
		p[prefix+"verb"], p[prefix+"word"], p[prefix+"verbzh"] = "on", "on", "打开"
	}
}

func toggleHolds(st phonesim.State, name string, on bool) (bool, string) {
	if got := toggleOf(st.Toggles, name); got != on {
		return notOK("%s is %s, want %s", name, onOff(got), onOff(on))
	}
	return ok()
}

func brightnessIs(st phonesim.State, v int) (bool, string) {
	if st.Brightness != v {
		return notOK("brightness is %d%%, want %d%%", st.Brightness, v)
	}
	return ok()
}

func settingsTemplates() []Template {
	init := phonesim.Initial()
	toggles := []string{"wifi", "bluetooth", "airplane"}
	return []Template{
		{ID: "settings.toggle", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawToggle(r, p, "a", pick(r, toggles)); return p },
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return p["aen"] + " " + p["aword"] }),
				ph(KindPlain, func(p Params) string { return "Turn " + p["averb"] + " " + p["aen"] }),
				ph(KindPolite, func(p Params) string { return "Could you please switch " + p["aen"] + " " + p["averb"] + " for me?" }),
				ph(KindChinese, func(p Params) string { return p["averbzh"] + p["azh"] }),
				ph(KindChinese, func(p Params) string { return "请帮我把" + p["azh"] + p["averbzh"] }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return toggleHolds(st, p["a"], p["aon"] == "true")
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				setToggle(&st.Toggles, p["a"], p["aon"] == "true")
			},
		},
		{ID: "settings.two-toggles", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				// Pairs that do not fight: airplane mode on switches Bluetooth off.
				pair := pick(r, [][2]string{{"wifi", "bluetooth"}, {"bluetooth", "wifi"}, {"wifi", "airplane"}, {"airplane", "wifi"}})
				p := Params{}
				drawToggle(r, p, "a", pair[0])
				drawToggle(r, p, "b", pair[1])
				return p
			},
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string {
					return "Turn " + p["averb"] + " " + p["aen"] + " and turn " + p["bverb"] + " " + p["ben"]
				}),
				ph(KindTerse, func(p Params) string { return p["aen"] + " " + p["aword"] + ", " + p["ben"] + " " + p["bword"] }),
				ph(KindChinese, func(p Params) string { return p["averbzh"] + p["azh"] + "并" + p["bverbzh"] + p["bzh"] }),
				ph(KindPolite, func(p Params) string {
					return "Please switch " + p["aen"] + " " + p["averb"] + ", then switch " + p["ben"] + " " + p["bverb"] + ". Thanks!"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return all(func() (bool, string) { return toggleHolds(st, p["a"], p["aon"] == "true") },
					func() (bool, string) { return toggleHolds(st, p["b"], p["bon"] == "true") })
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				setToggle(&st.Toggles, p["a"], p["aon"] == "true")
				setToggle(&st.Toggles, p["b"], p["bon"] == "true")
			},
		},
		{ID: "settings.toggle-flip", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawToggle(r, p, "a", pick(r, toggles)); return p },
			Phrasings: []Phrasing{
				ph(KindRelative, func(p Params) string { return "Flip the " + p["aen"] + " switch" }),
				ph(KindRelative, func(p Params) string { return "Set " + p["aen"] + " to the opposite of what it is now" }),
				ph(KindTerse, func(p Params) string { return "Toggle " + p["aen"] }),
				ph(KindChinese, func(p Params) string { return "把" + p["azh"] + "切换到相反的状态" }),
				ph(KindPolite, func(p Params) string {
					return "Would you mind toggling " + p["aen"] + "? Whatever it is now, I want the other way."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return toggleHolds(st, p["a"], p["aon"] == "true")
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				setToggle(&st.Toggles, p["a"], p["aon"] == "true")
			},
		},
		{ID: "settings.brightness", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				v := pick(r, []int{0, 10, 20, 30, 40, 60, 70, 80, 90, 100})
				return Params{"v": fmt.Sprint(v)}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "brightness " + p["v"] + "%" }),
				ph(KindPlain, func(p Params) string { return "Set the screen brightness to " + p["v"] + "%" }),
				ph(KindPolite, func(p Params) string { return "Could you put the brightness at " + p["v"] + " percent, please?" }),
				ph(KindChinese, func(p Params) string { return "把亮度调到" + p["v"] + "%" }),
				ph(KindChinese, func(p Params) string { return "屏幕亮度设为百分之" + p["v"] }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return brightnessIs(st, atoi(p["v"]))
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) { st.Brightness = atoi(p["v"]) },
		},
		{ID: "settings.brightness-relative", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				d := pick(r, []int{10, 20, 30, 40})
				up := r.IntN(2) == 0
				v := init.Brightness - d
				p := Params{"d": fmt.Sprint(d), "dir": "down", "dirzh": "调低", "adj": "dimmer"}
				if up {
					v = init.Brightness + d
					p["dir"], p["dirzh"], p["adj"] = "up", "调高", "brighter"
				}
				p["v"] = fmt.Sprint(v)
				return p
			},
			Phrasings: []Phrasing{
				ph(KindRelative, func(p Params) string {
					return "Turn the brightness " + p["dir"] + " by " + p["d"] + " percentage points"
				}),
				ph(KindTerse, func(p Params) string { return "brightness " + p["dir"] + " " + p["d"] + " points" }),
				ph(KindChinese, func(p Params) string { return "把亮度" + p["dirzh"] + p["d"] + "个百分点" }),
				ph(KindPolite, func(p Params) string {
					return "Could you make the screen " + p["adj"] + "? " + p["d"] + " points " + map[string]string{"up": "more", "down": "less"}[p["dir"]] + " than now is enough."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return brightnessIs(st, atoi(p["v"]))
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) { st.Brightness = atoi(p["v"]) },
		},
		{ID: "settings.brightness-extreme", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				if r.IntN(2) == 0 {
					return Params{"v": "100", "en": "maximum", "zh": "最亮", "adv": "all the way up"}
				}
				return Params{"v": "0", "en": "minimum", "zh": "最暗", "adv": "all the way down"}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "Brightness " + p["adv"] }),
				ph(KindPlain, func(p Params) string { return "Set the brightness to its " + p["en"] }),
				ph(KindChinese, func(p Params) string { return "把屏幕亮度调到" + p["zh"] }),
				ph(KindPolite, func(p Params) string { return "Please turn the screen brightness " + p["adv"] + "." }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return brightnessIs(st, atoi(p["v"]))
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) { st.Brightness = atoi(p["v"]) },
		},
		{ID: "settings.read-version", App: "Settings", Feasible: true,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindTerse, func(Params) string { return "Android version?" }),
				ph(KindPossessive, func(Params) string { return "What's this phone's Android version?" }),
				ph(KindChinese, func(Params) string { return "这台手机的安卓版本是多少？" }),
				ph(KindPolite, func(Params) string { return "Could you check which version of Android the phone runs?" }),
			},
			Check: func(_ Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, phonesim.AndroidVersion)
			},
			Want: func(_ Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = "Android version: " + phonesim.AndroidVersion
			},
		},
		{ID: "settings.read-build", App: "Settings", Feasible: true,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindTerse, func(Params) string { return "build number" }),
				ph(KindPossessive, func(Params) string { return "Tell me the phone's build number" }),
				ph(KindChinese, func(Params) string { return "查看一下版本号（build number）" }),
				ph(KindPolite, func(Params) string { return "Would you read me the build number from About phone?" }),
			},
			Check: func(_ Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, phonesim.BuildNumber)
			},
			Want: func(_ Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = "Build number: " + phonesim.BuildNumber
			},
		},
		{ID: "settings.read-model", App: "Settings", Feasible: true,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindTerse, func(Params) string { return "phone model?" }),
				ph(KindPlain, func(Params) string { return "Find out which model this phone is" }),
				ph(KindChinese, func(Params) string { return "这部手机是什么型号？" }),
				ph(KindPolite, func(Params) string { return "Could you look up the phone's model name in Settings, please?" }),
			},
			Check: func(_ Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, "Pixel 7")
			},
			Want: func(_ Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = "Model: " + phonesim.DefaultModel
			},
		},
		{ID: "settings.read-toggle", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				name := pick(r, toggles)
				n := toggleNames[name]
				return Params{"a": name, "en": pick(r, n.en), "zh": pick(r, n.zh), "on": fmt.Sprint(toggleOf(init.Toggles, name))}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return p["en"] + " on or off?" }),
				ph(KindPlain, func(p Params) string { return "Check whether " + p["en"] + " is on" }),
				ph(KindChinese, func(p Params) string { return p["zh"] + "现在是开着还是关着？" }),
				ph(KindPolite, func(p Params) string { return "Can you tell me if " + p["en"] + " is currently enabled?" }),
			},
			Check: func(p Params, st phonesim.State, r workflows.GoalResult) (bool, string) {
				// The state as it is at the end: reading must not flip it.
				return all(func() (bool, string) { return toggleHolds(st, p["a"], p["on"] == "true") },
					func() (bool, string) { return answerSaysOnOff(r, p["on"] == "true") })
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = p["en"] + " is " + onOff(p["on"] == "true")
			},
		},
		{ID: "settings.open-section", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				s := pick(r, phonesim.SettingsSections())
				return Params{"s": s, "zh": sectionZh[s]}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "Settings > " + p["s"] }),
				ph(KindPlain, func(p Params) string { return "Open the " + p["s"] + " page in Settings" }),
				// A person writing in Chinese names the page in Chinese.
				ph(KindChinese, func(p Params) string { return "打开设置里的" + p["zh"] + "页面" }),
				ph(KindPolite, func(p Params) string { return "Could you take me to the " + p["s"] + " settings, please?" }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				// The page the phone's own Settings shows for that section:
				// a Pixel's "Security & privacy" is the Security page.
				want := phonesim.SectionScreen(st.Skin, p["s"])
				return screenIs(st, want.App, want.Page, want.Detail)
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Screen = phonesim.SectionScreen(st.Skin, p["s"])
			},
		},
		{ID: "settings.toggle-then-home", App: "Settings", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawToggle(r, p, "a", pick(r, toggles)); return p },
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string {
					return "Turn " + p["averb"] + " " + p["aen"] + ", then go back to the home screen"
				}),
				ph(KindChinese, func(p Params) string { return p["averbzh"] + p["azh"] + "并返回桌面" }),
				ph(KindTerse, func(p Params) string { return p["aen"] + " " + p["aword"] + ", then home" }),
				ph(KindPolite, func(p Params) string {
					return "Please switch " + p["aen"] + " " + p["averb"] + " and afterwards return to the home screen."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return all(func() (bool, string) { return toggleHolds(st, p["a"], p["aon"] == "true") },
					func() (bool, string) { return screenIs(st, "Launcher", "", "") })
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				setToggle(&st.Toggles, p["a"], p["aon"] == "true")
				st.Screen = phonesim.Screen{App: "Launcher", Page: "home"}
			},
		},
		{ID: "settings.brightness-between-steps", App: "Settings", Feasible: false,
			FeasibleOn: func(s phonesim.Skin) bool { return s.BrightnessStep() == 1 },
			Draw: func(r *rand.Rand) Params {
				return Params{"v": fmt.Sprint(pick(r, []int{15, 25, 35, 45, 55, 65, 72, 85, 93}))}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "brightness " + p["v"] + "%" }),
				ph(KindPlain, func(p Params) string { return "Set the brightness to exactly " + p["v"] + "%" }),
				ph(KindChinese, func(p Params) string { return "把亮度精确调到" + p["v"] + "%" }),
				ph(KindPolite, func(p Params) string {
					return "Could you set the screen brightness to " + p["v"] + " percent, exactly?"
				}),
			},
			// On a slider (every skin but the classic one) the level is
			// reachable, and then the phone must show it.
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return brightnessIs(st, atoi(p["v"]))
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) { st.Brightness = atoi(p["v"]) },
		},
		{ID: "settings.absent-setting", App: "Settings", Feasible: false,
			Draw: func(r *rand.Rand) Params {
				s := pick(r, [][2]string{{"NFC", "NFC"}, {"the mobile hotspot", "个人热点"}, {"dark mode", "深色模式"},
					{"location services", "定位服务"}, {"do not disturb", "勿扰模式"}, {"battery saver", "省电模式"}})
				return Params{"en": s[0], "zh": s[1]}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return p["en"] + " on" }),
				ph(KindPlain, func(p Params) string { return "Turn on " + p["en"] }),
				ph(KindChinese, func(p Params) string { return "打开" + p["zh"] }),
				ph(KindPolite, func(p Params) string { return "Could you please enable " + p["en"] + " in Settings?" }),
			},
		},
		{ID: "settings.volume", App: "none", Feasible: false,
			Draw: func(r *rand.Rand) Params { return Params{"v": fmt.Sprint(pick(r, []int{0, 30, 50, 80, 100}))} },
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "volume " + p["v"] + "%" }),
				ph(KindPlain, func(p Params) string { return "Set the media volume to " + p["v"] + "%" }),
				ph(KindChinese, func(p Params) string { return "把音量调到" + p["v"] + "%" }),
				ph(KindTwoClause, func(p Params) string { return "Set the ringer volume to " + p["v"] + "% and then go home" }),
			},
		},
	}
}
