package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Clock templates. The new phone has two alarms (phonesim.Initial).

var alarmLabels = []string{"Run", "Meds", "Standup", "Pick up kids", "Yoga", "喝水", "Call Mom"}

// drawTime picks a time no alarm of a new phone has and says it three
// ways: t "HH:MM", t12 "7:45am", tzh "早上7点45分".
func drawTime(r *rand.Rand, p Params) {
	for {
		h, m := 5+r.IntN(18), pick(r, []int{0, 5, 10, 15, 20, 30, 40, 45, 50})
		if setTime(p, h*60+m) {
			return
		}
	}
}

// setTime fills t, t12 and tzh for minutes after midnight; false when an
// alarm of a new phone is at that time.
func setTime(p Params, mins int) bool {
	mins = (mins%1440 + 1440) % 1440
	h, m := mins/60, mins%60
	t := fmt.Sprintf("%02d:%02d", h, m)
	for _, a := range phonesim.Initial().Alarms {
		if a.Time == t {
			return false
		}
	}
	p["t"] = t
	h12, ampm := h%12, "am"
	if h12 == 0 {
		h12 = 12
	}
	if h >= 12 {
		ampm = "pm"
	}
	p["t12"] = fmt.Sprintf("%d:%02d%s", h12, m, ampm)
	part := map[bool]string{true: "早上", false: "下午"}[h < 12]
	if h >= 18 {
		part = "晚上"
	}
	p["tzh"] = fmt.Sprintf("%s%d点", part, h12)
	if m != 0 {
		p["tzh"] += fmt.Sprintf("%d分", m)
	}
	return true
}

func alarmAt(st phonesim.State, t, label string, withLabel bool) (bool, string) {
	for _, a := range st.Alarms {
		if a.Time == t && a.Enabled && (!withLabel || a.Label == label) {
			return ok()
		}
	}
	return notOK("no enabled alarm at %s %q (alarms: %v)", t, label, st.Alarms)
}

// existingAlarm says the alarm of a new phone at index i is on or off and
// is still the only alarm at its time.
func existingAlarm(st phonesim.State, i int, on bool) (bool, string) {
	want := phonesim.Initial().Alarms[i]
	n, got := 0, false
	for _, a := range st.Alarms {
		if a.Time == want.Time {
			n++
			got = got || a.Label == want.Label && a.Enabled == on
		}
	}
	if !got || n != 1 {
		return notOK("want the one %s alarm %q %s (alarms: %v)", want.Time, want.Label, onOff(on), st.Alarms)
	}
	return ok()
}

func clockTemplates() []Template {
	init := phonesim.Initial()
	na := len(init.Alarms)
	// existing picks an alarm of a new phone and asks for the other state.
	existing := func(r *rand.Rand, p Params, i int) Params {
		a := init.Alarms[i]
		p["i"], p["at"], p["label"], p["on"] = fmt.Sprint(i), a.Time, a.Label, fmt.Sprint(!a.Enabled)
		p["verb"], p["verbzh"] = "on", "打开"
		if a.Enabled {
			p["verb"], p["verbzh"] = "off", "关闭"
		}
		return p
	}
	switchTargets := func(p Params) Targets { return Targets{Alarms: []string{p["at"]}} }
	switchWant := func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
		st.Alarms[atoi(p["i"])].Enabled = p["on"] == "true"
	}
	return []Template{
		{ID: "clock.create", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawTime(r, p); return p },
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "alarm " + p["t12"] }),
				ph(KindPlain, func(p Params) string { return "Set an alarm for " + p["t"] }),
				ph(KindChinese, func(p Params) string { return "设置一个" + p["tzh"] + "的闹钟" }),
				ph(KindPolite, func(p Params) string { return "Could you wake me at " + p["t12"] + "? Set an alarm, please." }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return alarmAt(st, p["t"], "", false)
			},
			Targets: func(p Params) Targets { return Targets{NewAlarms: []string{p["t"]}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Alarms = append(st.Alarms, phonesim.Alarm{Time: p["t"], Enabled: true})
			},
		},
		{ID: "clock.create-labelled", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{"label": pick(r, alarmLabels)}; drawTime(r, p); return p },
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Create an alarm at " + p["t"] + " labelled " + p["label"] }),
				ph(KindChinese, func(p Params) string { return "设一个" + p["tzh"] + "的闹钟，标签是" + p["label"] }),
				ph(KindTerse, func(p Params) string { return "alarm " + p["t12"] + " \"" + p["label"] + "\"" }),
				ph(KindPolite, func(p Params) string { return "Please add a " + p["t12"] + " alarm and name it " + p["label"] }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return alarmAt(st, p["t"], p["label"], true)
			},
			Targets: func(p Params) Targets { return Targets{NewAlarms: []string{p["t"]}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Alarms = append(st.Alarms, phonesim.Alarm{Time: p["t"], Label: p["label"], Enabled: true})
			},
		},
		{ID: "clock.switch-existing", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params { return existing(r, Params{}, r.IntN(na)) },
			Phrasings: []Phrasing{
				ph(KindExisting, func(p Params) string { return "Turn " + p["verb"] + " my " + p["label"] + " alarm" }),
				ph(KindExisting, func(p Params) string { return "Switch the " + p["at"] + " alarm " + p["verb"] }),
				ph(KindChinese, func(p Params) string { return p["verbzh"] + p["at"] + "的闹钟" }),
				ph(KindTerse, func(p Params) string { return p["label"] + " alarm " + p["verb"] }),
				ph(KindPolite, func(p Params) string { return "Could you turn the existing " + p["at"] + " alarm " + p["verb"] + "?" }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return existingAlarm(st, atoi(p["i"]), p["on"] == "true")
			},
			Targets: switchTargets, Want: switchWant,
		},
		{ID: "clock.switch-ordinal", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; return existing(r, p, drawOrdinal(r, p, na)) },
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "Turn " + p["verb"] + " the " + p["ord"] + " alarm" }),
				ph(KindChinese, func(p Params) string { return p["verbzh"] + p["ordzh"] + "闹钟" }),
				ph(KindTerse, func(p Params) string { return p["ord"] + " alarm " + p["verb"] }),
				ph(KindPolite, func(p Params) string { return "Please switch " + p["verb"] + " the " + p["ord"] + " alarm in Clock." }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return existingAlarm(st, atoi(p["i"]), p["on"] == "true")
			},
			Targets: switchTargets, Want: switchWant,
		},
		{ID: "clock.read-ordinal-time", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawOrdinal(r, p, na); return p },
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "What time is the " + p["ord"] + " alarm set for?" }),
				ph(KindChinese, func(p Params) string { return p["ordzh"] + "闹钟是几点的？" }),
				ph(KindTerse, func(p Params) string { return p["ord"] + " alarm time?" }),
				ph(KindPolite, func(p Params) string { return "Could you read me the time of the " + p["ord"] + " alarm in Clock?" }),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHasTime(r, init.Alarms[atoi(p["i"])].Time)
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = init.Alarms[atoi(p["i"])].Time
			},
		},
		{ID: "clock.read-label", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				p["at"] = init.Alarms[drawOrdinal(r, p, na)].Time
				return p
			},
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "What is the " + p["ord"] + " alarm called?" }),
				ph(KindPossessive, func(p Params) string { return "What's the " + p["at"] + " alarm's label?" }),
				ph(KindChinese, func(p Params) string { return p["ordzh"] + "闹钟的标签是什么？" }),
				ph(KindPolite, func(p Params) string { return "Could you tell me the name of the alarm set for " + p["at"] + "?" }),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, init.Alarms[atoi(p["i"])].Label)
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = init.Alarms[atoi(p["i"])].Label
			},
		},
		{ID: "clock.read-state", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				a := init.Alarms[drawOrdinal(r, p, na)]
				p["at"], p["label"] = a.Time, a.Label
				return p
			},
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "Is my " + p["label"] + " alarm on?" }),
				ph(KindOrdinal, func(p Params) string { return "Is the " + p["ord"] + " alarm enabled or disabled?" }),
				ph(KindChinese, func(p Params) string { return p["at"] + "的闹钟开着吗？" }),
				ph(KindTerse, func(p Params) string { return p["at"] + " alarm on or off?" }),
			},
			Check: func(p Params, st phonesim.State, r workflows.GoalResult) (bool, string) {
				i := atoi(p["i"])
				on := init.Alarms[i].Enabled
				return all(func() (bool, string) { return existingAlarm(st, i, on) },
					func() (bool, string) { return answerSaysOnOff(r, on) })
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = "The alarm is " + onOff(init.Alarms[atoi(p["i"])].Enabled)
			},
		},
		{ID: "clock.relative-create", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				for {
					p := Params{}
					a := init.Alarms[drawOrdinal(r, p, na)]
					d := pick(r, []int{15, 30, 45, 60, 90})
					dir, dirzh, sign := "after", "晚", 1
					if r.IntN(2) == 0 {
						dir, dirzh, sign = "before", "早", -1
					}
					p["at"], p["label"], p["d"], p["dir"], p["dirzh"] = a.Time, a.Label, fmt.Sprint(d), dir, dirzh
					var hh, mm int
					fmt.Sscanf(a.Time, "%d:%d", &hh, &mm)
					if setTime(p, hh*60+mm+sign*d) {
						return p
					}
				}
			},
			Phrasings: []Phrasing{
				ph(KindRelative, func(p Params) string {
					return "Set an alarm " + p["d"] + " minutes " + p["dir"] + " my " + p["label"] + " alarm"
				}),
				ph(KindChinese, func(p Params) string {
					return "比" + p["at"] + "的闹钟" + p["dirzh"] + p["d"] + "分钟再设一个闹钟"
				}),
				ph(KindOrdinal, func(p Params) string {
					return "Add an alarm " + p["d"] + " minutes " + p["dir"] + " the " + p["ord"] + " alarm"
				}),
				ph(KindPolite, func(p Params) string {
					return "Could you create a new alarm for " + p["d"] + " minutes " + p["dir"] + " the " + p["at"] + " one?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return alarmAt(st, p["t"], "", false)
			},
			Targets: func(p Params) Targets { return Targets{NewAlarms: []string{p["t"]}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Alarms = append(st.Alarms, phonesim.Alarm{Time: p["t"], Enabled: true})
			},
		},
		{ID: "clock.time-to-contact", App: "Clock", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				p["at"] = init.Alarms[drawOrdinal(r, p, na)].Time
				drawContact(r, p, "a", false)
				return p
			},
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string {
					return "Read the time of the " + p["ord"] + " alarm and then send it to " + p["an"]
				}),
				ph(KindChinese, func(p Params) string { return "查看" + p["ordzh"] + "闹钟的时间并发给" + p["azh"] }),
				ph(KindOrdinal, func(p Params) string { return "Text " + p["an"] + " the time of my " + p["ord"] + " alarm" }),
				ph(KindPolite, func(p Params) string {
					return "Could you let " + p["an"] + " know, by text, when my " + p["ord"] + " alarm rings?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				if holds, _ := sentTo(st, p["a"], p["at"], true); holds {
					return ok()
				}
				return sentTo(st, p["a"], p["at"][1:], true)
			},
			Targets: to("a"),
			Want:    func(p Params, st *phonesim.State, _ *workflows.GoalResult) { sent(st, p["a"], p["at"]) },
		},
		{ID: "clock.delete", App: "Clock", Feasible: false,
			FeasibleOn: func(s phonesim.Skin) bool { return s.DeletesAlarms() },
			Draw:       func(r *rand.Rand) Params { a := pick(r, init.Alarms); return Params{"at": a.Time, "label": a.Label} },
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Delete the " + p["label"] + " alarm" }),
				ph(KindChinese, func(p Params) string { return "删除" + p["at"] + "的闹钟" }),
				ph(KindTerse, func(p Params) string { return "remove alarm " + p["at"] }),
				ph(KindPolite, func(p Params) string { return "Could you get rid of my " + p["at"] + " alarm entirely, please?" }),
			},
			// Where the Clock can delete (DeskClock, MIUI's and Samsung's
			// Clock), the alarm must be gone and every other alarm kept, as
			// it was; on the classic Clock the task must not end done. An
			// alarm switched off is not a deleted one.
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				left := map[[2]string]bool{}
				for _, a := range st.Alarms {
					if a.Time == p["at"] && a.Label == p["label"] {
						return notOK("the %s alarm %q is still there (alarms: %v)", p["at"], p["label"], st.Alarms)
					}
					left[[2]string{a.Time, a.Label}] = true
				}
				for _, a := range init.Alarms {
					if (a.Time != p["at"] || a.Label != p["label"]) && !left[[2]string{a.Time, a.Label}] {
						return notOK("the %s alarm %q was deleted too (alarms: %v)", a.Time, a.Label, st.Alarms)
					}
				}
				return ok()
			},
			Targets: func(p Params) Targets { return Targets{Alarms: []string{p["at"]}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Alarms = slices.DeleteFunc(st.Alarms, func(a phonesim.Alarm) bool { return a.Time == p["at"] && a.Label == p["label"] })
			},
		},
		{ID: "clock.impossible-time", App: "Clock", Feasible: false,
			Draw: func(r *rand.Rand) Params {
				t := pick(r, [][2]string{{"25:30", "25点30分"}, {"24:15", "24点15分"}, {"7:75", "7点75分"}, {"13:60", "13点60分"}, {"31:00", "31点"}})
				return Params{"t": t[0], "tzh": t[1]}
			},
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Set an alarm for " + p["t"] }),
				ph(KindChinese, func(p Params) string { return "设一个" + p["tzh"] + "的闹钟" }),
				ph(KindTerse, func(p Params) string { return "alarm " + p["t"] }),
				ph(KindPolite, func(p Params) string { return "Please add an alarm at " + p["t"] + " labelled Test" }),
			},
		},
	}
}
