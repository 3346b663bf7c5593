package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// zhPlan is the planner's answer to a goal as one line: the todos with
// their checks, or "ASK" and the question.
func zhPlan(t *testing.T, goal string) string {
	t.Helper()
	a := planGoal(planContext{Goal: goal})
	if a.Status != "planned" {
		return "ASK " + a.Question
	}
	var got []string
	for _, p := range a.Plan {
		var cs []string
		for _, x := range p.Expect {
			cs = append(cs, x.String())
		}
		if probs := postcond.Valid(p.Expect); len(probs) > 0 {
			t.Errorf("%q: invalid checks %v", goal, probs)
		}
		got = append(got, p.Todo+" ⟨"+strings.Join(cs, ", ")+"⟩")
	}
	return strings.Join(got, " | ")
}

// wantZhPlans wants each goal planned as zhPlan writes it; "ASK" wants
// any question.
func wantZhPlans(t *testing.T, cases map[string]string) {
	t.Helper()
	for goal, want := range cases {
		got := zhPlan(t, goal)
		if want == "ASK" && strings.HasPrefix(got, "ASK ") {
			continue
		}
		if got != want {
			t.Errorf("%s\n got %s\nwant %s", goal, got, want)
		}
	}
}

// Chinese times whose minutes come as a number without 分 ("六点四十五")
// were read as the bare hour, and the alarm at the wrong time was created
// and checked as done.
func TestZhMinutesWithoutFen(t *testing.T) {
	wantZhPlans(t, map[string]string{
		"帮我定一个早上六点四十五的闹钟": `Create an alarm at 06:45 ⟨"06:45" is shown, a switch "06:45" is on⟩`,
		"设个晚上九点二十的闹钟":     `Create an alarm at 21:20 ⟨"21:20" is shown, a switch "21:20" is on⟩`,
		"请设一个十点零五的闹钟":     `Create an alarm at 10:05 ⟨"10:05" is shown, a switch "10:05" is on⟩`,
		"设一个七点一刻的闹钟":      `Create an alarm at 07:15 ⟨"07:15" is shown, a switch "07:15" is on⟩`,
	})
}

// A Chinese question whether a switch is on lost its 吗 and ？ to tidying
// and was planned as turning the switch on ("现在Wi-Fi是开着的吗？"); it
// reads the state, checked against the switch a screen showed.
func TestZhStateQuestionsRead(t *testing.T) {
	for goal, name := range map[string]string{
		"现在Wi-Fi是开着的吗？": "Wi-Fi",
		"蓝牙是不是关着的？":     "Bluetooth",
		"WLAN有没有打开":     "Wi-Fi",
		"飞行模式是开的吗":      "Airplane mode",
		"蓝牙开着吗？":        "Bluetooth",
	} {
		want := `Read the state of the ` + name + ` switch ⟨the answer is the on/off state of "` + name + `" seen on a screen⟩`
		if got := zhPlan(t, goal); got != want {
			t.Errorf("%s\n got %s\nwant %s", goal, got, want)
		}
	}
}

// A goal that switches on a condition ("如果蓝牙是关的就打开它") read the
// condition's 关 as the command and turned Bluetooth off. It is followed
// where the end state is the same whichever way the condition turns out;
// any other condition is asked about, never dropped.
func TestZhConditionalSwitch(t *testing.T) {
	wantZhPlans(t, map[string]string{
		"如果蓝牙是关的就打开它":       `Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`,
		"如果Wi-Fi开着，就把它关掉":   `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩`,
		"要是飞行模式开着的话就关掉":     `Turn off Airplane mode ⟨switch "Airplane mode" is off⟩`,
		"如果Wi-Fi关着就打开蓝牙":    "ASK",
		"如果蓝牙开着就打开它":        "ASK",
		"如果亮度低于百分之五十就调到80%": "ASK",
	})
}

// A brightness level said in Chinese words ("百分之五十") was not read as
// a level, and the goal was planned as one unchecked step up. It is read
// in digits and checked; a level the reader cannot read is asked about.
func TestZhPercentInWords(t *testing.T) {
	wantZhPlans(t, map[string]string{
		"把亮度调到百分之五十":   `Set brightness to 50% ⟨field "Brightness" holds "50%"⟩`,
		"亮度设为百分之七十五":   `Set brightness to 75% ⟨field "Brightness" holds "75%"⟩`,
		"请把亮度调到百分之百":   `Set brightness to 100% ⟨field "Brightness" holds "100%"⟩`,
		"把屏幕亮度调到百分之二十": `Set brightness to 20% ⟨field "Brightness" holds "20%"⟩`,
		"把亮度调到七成":      "ASK Which brightness, as a percentage from 0% to 100%, should I set?",
	})
}

// A message whose text names a note's content ("把购物清单的内容发给妈妈")
// sent those words; the note's body is read first, and the message is
// written once it is read.
func TestZhSendNamesANotesContent(t *testing.T) {
	wantZhPlans(t, map[string]string{
		"把购物清单的内容发给妈妈":          `Read the body of the note "购物清单" in Notes ⟨the answer is a label seen on a screen⟩ | Send Mom a message with what was read ⟨⟩`,
		"把Shopping list的内容发给张三": `Read the body of the note "Shopping list" in Notes ⟨the answer is a label seen on a screen⟩ | Send Zhang San a message with what was read ⟨⟩`,
	})
}

// Moving an existing alarm to another time ("把我的Wake up闹钟改到六点半")
// created a new alarm and ended done with the old one unchanged; there is
// no todo that edits an alarm, so the person is asked.
func TestZhAlarmChangeAsks(t *testing.T) {
	for _, goal := range []string{"把我的Wake up闹钟改到六点半", "把7点的闹钟改成7点半", "帮我把闹钟推迟到八点"} {
		if got := zhPlan(t, goal); !strings.HasPrefix(got, "ASK ") {
			t.Errorf("%s: got %s, want a question", goal, got)
		}
	}
	if got := zhPlan(t, "设一个八点的闹钟"); got != `Create an alarm at 08:00 ⟨"08:00" is shown, a switch "08:00" is on⟩` {
		t.Errorf("a new alarm: got %s", got)
	}
}

// A label or title after 叫 or a full-width colon ("标签叫开会",
// "标题：会议") kept the word or the colon, and the alarm or note was
// saved under it and checked done.
func TestZhLabelAndTitleMarkers(t *testing.T) {
	wantZhPlans(t, map[string]string{
		"设个八点半的闹钟，标签叫开会":       `Create an alarm at 08:30 labelled 开会 ⟨row "08:30" shows "开会", a switch "08:30" is on⟩`,
		"设个八点半的闹钟，标签：开会":       `Create an alarm at 08:30 labelled 开会 ⟨row "08:30" shows "开会", a switch "08:30" is on⟩`,
		"新建笔记 标题：会议 内容：周五下午两点": `Create a note titled "会议" saying "周五下午两点" ⟨Notes is in front, "会议" is shown⟩`,
	})
}

// The 把 construction puts the alarm before the verb ("把Wake up闹钟关掉",
// "把第二个闹钟打开"); it was asked what time a new alarm should ring. It
// is read as the verb-first clause is.
func TestZhBaAlarmVerbLast(t *testing.T) {
	for goal, same := range map[string]string{
		"把Wake up闹钟关掉": "关闭Wake up闹钟",
		"帮我把第二个闹钟打开":   "打开第二个闹钟",
		"把7点的闹钟关了":     "关闭7点的闹钟",
		"把我的Gym闹钟删除":   "删除我的Gym闹钟",
	} {
		got, want := zhPlan(t, goal), zhPlan(t, same)
		if got != want || strings.HasPrefix(got, "ASK ") {
			t.Errorf("%s\n got %s\nwant %s", goal, got, want)
		}
	}
}
