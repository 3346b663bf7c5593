package phonesim

import "slices"

// What the phone holds before anyone touches it, read-only, so a task
// suite can draw parameters from the same facts the screens show and
// write its checks against them without driving the phone.

// About phone rows (Settings › About phone) and the build properties.
const (
	AndroidVersion = "14"
	BuildNumber    = "PSIM.240101.001"
)

// Contact is one Contacts entry as the screens show it: Alias is the
// content description of its row (a Chinese name), Received the messages
// already in its conversation, oldest first.
type Contact struct {
	Name     string
	Alias    string
	Phone    string
	Received []string
}

// Contacts returns the phone's contacts in list order.
func Contacts() []Contact {
	out := make([]Contact, 0, len(contacts))
	for _, c := range contacts {
		out = append(out, Contact{Name: c.Name, Alias: c.Desc, Phone: c.Phone, Received: slices.Clone(c.received)})
	}
	return out
}

// SettingsSections returns the Settings rows below the switches and the
// brightness row that open a section page, in list order.
func SettingsSections() []string { return slices.Clone(settingsRows) }

// LauncherApps returns the display names of the apps with a home-screen
// icon, in icon order.
func LauncherApps() []string {
	var out []string
	for _, a := range apps {
		if a.Launcher {
			out = append(out, a.Name)
		}
	}
	return out
}

// Initial returns the state of a new (or reset) phone's app data: toggles,
// brightness, alarms and notes; the screen is the launcher's home page.
func Initial() State {
	d := initialData()
	return State{
		Serial:       DefaultSerial,
		Skin:         SkinClassic,
		Screen:       Screen{App: appName(pkgLauncher), Page: pageHome},
		CurrentApp:   pkgLauncher,
		Toggles:      d.Toggles,
		Brightness:   d.Brightness,
		MessagesSent: []SentMessage{},
		Alarms:       slices.Clone(d.Alarms),
		Notes:        slices.Clone(d.Notes),
		InputMethod:  d.InputMethod,
		IMEInstalled: d.IMEInstalled,
		Awake:        d.Awake,
		InputLog:     []InputEvent{},
		Clock:        DefaultLifeStart,
	}
}
