package phonesim

import "strings"

// lookApp is one app as a look ships it: the package the phone reports and
// accepts for it, and its launcher activity.
type lookApp struct{ pkg, activity string }

// lookApps are the packages each look's phone installs its apps under, by
// the simulator's own name for the app (the classic look's package, which
// v.app and the layouts use): a Xiaomi phone's Messages is com.android.mms,
// a Samsung phone's Clock com.sec.android.app.clockpackage. An app a look
// does not list keeps its classic package (Settings is com.android.settings
// everywhere). The tree's package attributes and resource-id prefixes,
// dumpsys' focus lines, pm, am, monkey and State().CurrentApp all speak the
// look's package (docs/phones.md#skins).
//
// Where the names come from (public launch tables and test constants
// for real phones, checked against each other):
//   - Pixel: google-research/android_world @ 630dcd6e0524 :
//     android_world/env/adb_utils.py (_PATTERN_TO_ACTIVITY: Keep's
//     .activities.BrowseActivity, Google Contacts' PeopleActivity, DeskClock,
//     Google Messages); the launcher as Pixel dumps name it
//     (dtmilano/AndroidViewClient @ c75c684b7a5b :
//     tests/comm/dtmilano/android/mocks.py, UIAUTOMATOR_DUMP_API27).
//   - MIUI: com.miui.notes/.ui.NotesListActivity and com.android.contacts
//     as Xiaomi's test constants name them (jiahuixing/MIUIFrameTest @
//     9871a1cc6e2b : app/src/androidTest/java/com/com/miui/frame/Lib_Frame_Constants.java;
//     a later copy of that file adds com.android.mms/.ui.MmsTabActivity and
//     com.android.deskclock/.DeskClockTabActivity), and
//     com.miui.home/.launcher.Launcher as MIUI's dumpsys activity shows it.
//   - One UI: com.samsung.android.messaging/com.android.mms.ui.ConversationComposer,
//     com.sec.android.app.clockpackage/.ClockPackage,
//     com.samsung.android.app.contacts/com.samsung.android.contacts.contactslist.PeopleActivity,
//     com.samsung.android.app.notes/.memolist.MemoListActivity and
//     com.sec.android.app.launcher/.activities.LauncherActivity, as icon
//     packs' appfilters and Galaxy launch scripts name them.
var lookApps = map[Skin]map[string]lookApp{
	SkinPixel: {
		pkgLauncher: {"com.google.android.apps.nexuslauncher", "com.google.android.apps.nexuslauncher.NexusLauncherActivity"},
		pkgContacts: {"com.google.android.contacts", "com.android.contacts.activities.PeopleActivity"},
		pkgNotes:    {"com.google.android.keep", "com.google.android.keep.activities.BrowseActivity"},
	},
	SkinMIUI: {
		pkgLauncher: {"com.miui.home", "com.miui.home.launcher.Launcher"},
		pkgContacts: {"com.android.contacts", "com.android.contacts.activities.PeopleActivity"},
		pkgMessages: {"com.android.mms", "com.android.mms.ui.MmsTabActivity"},
		pkgClock:    {"com.android.deskclock", "com.android.deskclock.DeskClockTabActivity"},
		pkgNotes:    {"com.miui.notes", "com.miui.notes.ui.NotesListActivity"},
	},
	SkinOneUI: {
		pkgLauncher: {"com.sec.android.app.launcher", "com.sec.android.app.launcher.activities.LauncherActivity"},
		pkgContacts: {"com.samsung.android.app.contacts", "com.samsung.android.contacts.contactslist.PeopleActivity"},
		pkgMessages: {"com.samsung.android.messaging", "com.android.mms.ui.ConversationComposer"},
		pkgClock:    {"com.sec.android.app.clockpackage", "com.sec.android.app.clockpackage.ClockPackage"},
		pkgNotes:    {"com.samsung.android.app.notes", "com.samsung.android.app.notes.memolist.MemoListActivity"},
	},
}

// pkg is the package the look installs an app (the simulator's name for
// it) under.
func (s Skin) pkg(app string) string {
	if a, ok := lookApps[s][app]; ok {
		return a.pkg
	}
	return app
}

// appOf is the simulator's app a package the phone was given stands for,
// when the look installs a package of that name: on MIUI com.android.mms
// is Messages, while com.google.android.apps.messaging is not installed.
func (s Skin) appOf(pkg string) (string, bool) {
	for app, a := range lookApps[s] {
		if a.pkg == pkg {
			return app, true
		}
	}
	if _, renamed := lookApps[s][pkg]; renamed {
		return "", false
	}
	_, ok := findApp(pkg)
	return pkg, ok
}

// info is an app's appInfo as the look ships it: its package and launcher
// activity are the look's.
func (s Skin) info(app string) (appInfo, bool) {
	a, ok := findApp(app)
	if l, renamed := lookApps[s][app]; ok && renamed {
		a.Package, a.Activity = l.pkg, l.activity
	}
	return a, ok
}

// Package is the package a look installs one of the simulator's apps
// under, by the app's display name ("Messages", "Clock", "Launcher"): what
// the phone's dumpsys, pm and State().CurrentApp say while the app is in
// front. It is "" for a name the simulator has no app for.
func (s Skin) Package(name string) string {
	for _, a := range apps {
		if a.Name == name {
			return s.pkg(a.Package)
		}
	}
	return ""
}

// Component is the launcher component of one of the simulator's apps on a
// look, "package/activity" as `am start -n` takes it, or "" for a name the
// simulator has no app for.
func (s Skin) Component(name string) string {
	for _, a := range apps {
		if a.Name == name {
			l, _ := s.info(a.Package)
			return l.Package + "/" + shortActivity(l.Package, l.Activity)
		}
	}
	return ""
}

// pkg is the package the phone's look installs an app under.
func (p *Phone) pkg(app string) string { return p.cfg.Skin.pkg(app) }

// resolvePkg is the simulator's app a package named to the phone (by am,
// monkey or pm) stands for, if it is installed.
func (p *Phone) resolvePkg(pkg string) (string, bool) {
	return p.cfg.Skin.appOf(strings.TrimSpace(pkg))
}
