package modelserver

import (
	"testing"
)

// Settings pages, About phone reads, bare app names and "home", brightness
// levels and money moved, in many phrasings: each plans to todos with
// checks, or to a question, never to a todo echoed without checks.
func TestReadAboutAndSectionPhrasings(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Settings > Display", `Open Settings ⟨Settings is in front⟩ | Tap Display ⟨Settings is in front, "Display" is shown, "Sound" is not shown⟩`},
		{"Could you take me to the Storage settings, please?", `Open Settings ⟨Settings is in front⟩ | Tap Storage ⟨Settings is in front, "Storage" is shown, "Battery" is not shown, "Location" is not shown⟩`},
		{"打开设置里的Battery页面", `Open Settings ⟨Settings is in front⟩ | Tap Battery ⟨Settings is in front, "Battery" is shown, "Notifications" is not shown, "Storage" is not shown⟩`},
		{"显示设置", `Open Settings ⟨Settings is in front⟩ | Tap Display ⟨Settings is in front, "Display" is shown, "Sound" is not shown⟩`},
		{"Android version?", `Read the Android version in Settings ⟨the answer is a number seen on a screen⟩`},
		{"Could you check which version of Android the phone runs?", `Read the Android version in Settings ⟨the answer is a number seen on a screen⟩`},
		{"这台手机的安卓版本是多少？", `Read the Android version in Settings ⟨the answer is a number seen on a screen⟩`},
		{"Tell me the phone's build number", `Read the build number in Settings ⟨the answer is a label seen on a screen⟩`},
		{"这部手机是什么型号？", `Read the phone model in Settings ⟨the answer is a label seen on a screen⟩`},
		{"Find out which model this phone is", `Read the phone model in Settings ⟨the answer is a label seen on a screen⟩`},
		{"brightness 40%", `Set brightness to 40% ⟨field "Brightness" holds "40%"⟩`},
		{"Could you put the brightness at 40 percent, please?", `Set brightness to 40% ⟨field "Brightness" holds "40%"⟩`},
		{"屏幕亮度设为百分之40", `Set brightness to 40% ⟨field "Brightness" holds "40%"⟩`},
		{"Could you set the screen brightness to 35 percent, exactly?", `Set brightness to 35% ⟨field "Brightness" holds "35%"⟩`},
		{"Turn the brightness up to 80%", `Set brightness to 80% ⟨field "Brightness" holds "80%"⟩`},
		{"bluetooth on, then home", `Turn on Bluetooth ⟨switch "Bluetooth" is on⟩ | Go to the home screen ⟨Launcher is in front⟩`},
		{"Notes", `Open Notes ⟨Notes is in front⟩`},
		{"Messages then home", `Open Messages ⟨Messages is in front⟩ | Go to the home screen ⟨Launcher is in front⟩`},
		{"bank balance", `Read the account balance (how much money it holds) in the Bank app ⟨Bank is in front, the answer is a number seen on a screen⟩`},
		{"pay Bob Li $20", "ask"},
		{"Could you send Bob Li 20 dollars from my bank account?", "ask"},
		// Switching a service on is not opening a page.
		{"打开定位服务", `打开定位服务 ⟨⟩`},
	})
}
