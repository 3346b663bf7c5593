package phonesim

import "maps"

// Page names reported in State().Screen.Page.
const (
	pageHome         = "home"
	pageList         = "list"
	pageAbout        = "about"
	pageSection      = "section"
	pageDetail       = "detail"
	pagePicker       = "picker"
	pageConversation = "conversation"
	pageAlarms       = "alarms"
	pageNewAlarm     = "new_alarm"
	pageEditor       = "editor"
	pageSignIn       = "sign_in"
	pagePassword     = "password"
	pageCode         = "code"
	pageAccounts     = "accounts"
)

// appInfo describes one installed app.
type appInfo struct {
	Package  string
	Name     string
	Activity string // launcher activity, fully qualified
	Root     string // first page
	Color    uint32 // launcher icon colour, 0xRRGGBB
	System   bool   // false for `pm list packages -3`
	Launcher bool   // has an icon on the home screen
}

var apps = []appInfo{
	{Package: pkgSettings, Name: "Settings", Activity: "com.android.settings.Settings", Root: pageList, Color: 0x5f6368, System: true, Launcher: true},
	{Package: pkgContacts, Name: "Contacts", Activity: "com.android.contacts.activities.PeopleActivity", Root: pageList, Color: 0x1a73e8, System: true, Launcher: true},
	{Package: pkgMessages, Name: "Messages", Activity: "com.google.android.apps.messaging.ui.ConversationListActivity", Root: pageList, Color: 0x0b8043, System: true, Launcher: true},
	{Package: pkgClock, Name: "Clock", Activity: "com.android.deskclock.DeskClock", Root: pageAlarms, Color: 0x3367d6, System: true, Launcher: true},
	{Package: pkgNotes, Name: "Notes", Activity: "com.example.notes.MainActivity", Root: pageList, Color: 0xf9ab00, Launcher: true},
	{Package: pkgBank, Name: "Bank", Activity: "com.example.bank.LoginActivity", Root: pageSignIn, Color: 0xc5221f, Launcher: true},
	{Package: pkgLauncher, Name: "Launcher", Activity: "com.android.launcher3.uioverrides.QuickstepLauncher", Root: pageHome, System: true},
}

// otherPackages are installed packages without a simulated UI.
var otherPackages = []string{
	"android", "com.android.systemui", "com.android.phone", "com.android.shell",
	"com.google.android.inputmethod.latin", "com.android.providers.settings",
}

func findApp(pkg string) (appInfo, bool) {
	for _, a := range apps {
		if a.Package == pkg {
			return a, true
		}
	}
	return appInfo{}, false
}

func appName(pkg string) string {
	if a, ok := findApp(pkg); ok {
		return a.Name
	}
	return pkg
}

// view is one page on the back stack.
type view struct {
	app, page, arg string
	scroll         int
	focus          string            // id of the focused text field
	fields         map[string]string // text field contents by id
	errText        string
	index          int    // note being edited, -1 for a new one
	scrolled       bool   // a bottom-anchored list the person scrolled away from its end
	popup          string // text of a pop-up dialog over the page (FaultPopup)
	menu           bool   // an open overflow menu (the Pixel Notes editor's More), or 便签's delete confirmation
	held           int    // 1 + the note a long press selected on 便签's list, 0 for none
	// undo and redo are the fields as they were before each edit, and
	// before each undone one: 便签's 撤销 and 恢复 step through them.
	undo, redo []map[string]string
}

func newView(app, page, arg string) *view {
	return &view{app: app, page: page, arg: arg, fields: map[string]string{}, index: -1}
}

func (p *Phone) top() *view { return p.stack[len(p.stack)-1] }

func (p *Phone) push(v *view) { p.stack = append(p.stack, v) }

// pushConversation opens the conversation with a contact; its
// notifications count as read.
func (p *Phone) pushConversation(name string) {
	p.push(newView(pkgMessages, pageConversation, name))
	p.life.readConversation(name)
}

func (p *Phone) back() {
	if v := p.top(); v.app == pkgNotes && v.held > 0 {
		v.held, v.menu = 0, false // Back leaves 便签's selection, and its question
		return
	}
	if v := p.top(); p.cfg.Skin.SavesNotesOnLeaving() && v.app == pkgNotes && v.page == pageEditor {
		p.saveNote(v) // Keep, 便签 and Samsung Notes save a note as its editor is left
	}
	if len(p.stack) > 1 {
		p.stack = p.stack[:len(p.stack)-1]
	}
}

// launch opens an app at its first page, above the launcher.
func (p *Phone) launch(pkg string) {
	a, _ := findApp(pkg)
	if pkg == pkgLauncher {
		p.stack = []*view{newView(pkgLauncher, pageHome, "")}
		return
	}
	v := newView(pkg, a.Root, "")
	if p.faults.popup {
		p.faults.popup = false
		v.popup = "New in " + a.Name + ": chat features. Turn them on later in settings."
	}
	p.stack = []*view{newView(pkgLauncher, pageHome, ""), v}
}

// edit sets field id to text, keeping what the fields held before so an
// undo can bring it back; an edit that changes nothing is not one.
func (v *view) edit(id, text string) {
	if v.fields[id] == text {
		return
	}
	v.undo, v.redo = append(v.undo, maps.Clone(v.fields)), nil
	v.fields[id] = text
}

// stepBack undoes the last edit (or, with redo, the last undo).
func (v *view) stepBack(redo bool) {
	from, to := &v.undo, &v.redo
	if redo {
		from, to = to, from
	}
	if len(*from) == 0 {
		return
	}
	*to = append(*to, maps.Clone(v.fields))
	v.fields = (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
}
