package phonesim

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Package names of the simulated apps and the IMEs.
const (
	pkgLauncher = "com.android.launcher3"
	pkgSettings = "com.android.settings"
	pkgContacts = "com.android.contacts"
	pkgMessages = "com.google.android.apps.messaging"
	pkgClock    = "com.google.android.deskclock"
	pkgNotes    = "com.example.notes"
	pkgBank     = "com.example.bank"

	imeLatin = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
	imeADB   = "com.android.adbkeyboard/.AdbIME"
)

// State is what the phone shows and holds, for checking goals. It is what
// `simctl state` prints as JSON.
type State struct {
	Serial       string        `json:"serial"`
	Skin         Skin          `json:"skin,omitempty"` // how Settings and Quick Settings look (docs/phones.md#skins)
	Screen       Screen        `json:"screen"`
	CurrentApp   string        `json:"current_app"` // package of the foreground app
	Toggles      Toggles       `json:"toggles"`
	Brightness   int           `json:"brightness"` // percent, 0-100; the Pixel skin's sliders set any, the rest steps of 10
	MessagesSent []SentMessage `json:"messages_sent"`
	Alarms       []Alarm       `json:"alarms"`
	Notes        []Note        `json:"notes"`
	BankSignedIn bool          `json:"bank_signed_in,omitempty"`
	InputMethod  string        `json:"input_method"`
	IMEInstalled bool          `json:"ime_installed"` // ADB Keyboard installed
	Awake        bool          `json:"awake"`
	InputLog     []InputEvent  `json:"input_log"`
	// What Life did (docs/design.md §15): the keyguard shows,
	// the system dialog in front, the posted notifications and the phone
	// clock's time.
	Locked bool `json:"locked,omitempty"`
	// Bouncer: a secure keyguard's PIN pad (or pattern) shows;
	// WrongPINs counts the PINs it rejected.
	Bouncer       bool           `json:"bouncer,omitempty"`
	WrongPINs     int            `json:"wrong_pins,omitempty"`
	Dialog        string         `json:"dialog,omitempty"`
	Shade         bool           `json:"shade,omitempty"` // the Pixel skin's Quick Settings shade is open
	Notifications []Notification `json:"notifications,omitempty"`
	Clock         time.Time      `json:"clock"`
	Events        []LifeEvent    `json:"life_events,omitempty"`
}

// Screen names the page in the foreground.
type Screen struct {
	App    string `json:"app"`              // display name: "Settings", "Launcher", ...
	Page   string `json:"page"`             // e.g. "list", "about", "conversation"
	Detail string `json:"detail,omitempty"` // contact name, note title, settings section
}

// Toggles are the Settings switches.
type Toggles struct {
	WiFi      bool `json:"wifi"`
	Bluetooth bool `json:"bluetooth"`
	Airplane  bool `json:"airplane"`
	// BluetoothTethering shares the phone's connection over Bluetooth
	// (Settings, Hotspot & tethering); it needs Bluetooth on, as on
	// Android: turning it on turns Bluetooth on, and Bluetooth going off
	// ends it.
	BluetoothTethering bool `json:"bluetooth_tethering,omitempty"`
	// AdaptiveBrightness (Display, Adaptive brightness) and Flashlight
	// (a Quick Settings tile) are switched by the Pixel skin's screens
	// (docs/phones.md#skins); `settings` reads and writes
	// screen_brightness_mode.
	AdaptiveBrightness bool `json:"adaptive_brightness,omitempty"`
	Flashlight         bool `json:"flashlight,omitempty"`
}

// SentMessage is one message sent from the Messages app. Seq is the input
// event (the tap on Send) that sent it.
type SentMessage struct {
	To   string `json:"to"`
	Text string `json:"text"`
	Seq  int    `json:"seq"`
}

// Alarm is one Clock alarm; Time is "HH:MM" (24 h).
type Alarm struct {
	Time    string `json:"time"`
	Label   string `json:"label"`
	Enabled bool   `json:"enabled"`
}

// Note is one Notes entry.
type Note struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// InputEvent is one input the phone received (tap, swipe, keyevent, text,
// an ADB Keyboard broadcast, an app launch), numbered from 1, with the
// screen it arrived on and when it arrived (so a test can place it against
// events of other processes on the same host, such as a workflow's history).
type InputEvent struct {
	Seq  int       `json:"seq"`
	Kind string    `json:"kind"`
	Args []string  `json:"args"`
	App  string    `json:"app"`
	Page string    `json:"page"`
	At   time.Time `json:"at"`
}

// contact is a Contacts entry; received are the messages already in the
// conversation with them.
type contact struct {
	Name, Desc, Phone string
	received          []string
}

var contacts = []contact{
	{Name: "Alice Chen", Phone: "+1 555 0101", received: []string{"Are we still on for lunch?"}},
	{Name: "Bob Li", Phone: "+1 555 0102", received: []string{"Sent you the slides."}},
	{Name: "Zhang San", Desc: "张三", Phone: "+86 138 0000 0003", received: []string{"The meeting is at 10am."}},
	{Name: "李四", Phone: "+86 139 0000 0004"},
	{Name: "Mom", Phone: "+1 555 0100", received: []string{"Call me when you land."}},
}

func contactNames() string {
	names := make([]string, len(contacts))
	for i, c := range contacts {
		names[i] = strconv.Quote(c.Name)
	}
	return strings.Join(names, ", ")
}

func findContact(name string) (contact, bool) {
	for _, c := range contacts {
		if c.Name == name {
			return c, true
		}
	}
	return contact{}, false
}

// data is the phone's mutable app data.
type data struct {
	Toggles      Toggles
	Brightness   int
	MessagesSent []SentMessage
	Alarms       []Alarm
	Notes        []Note
	InputMethod  string
	IMEInstalled bool
	Awake        bool
	imeEnabled   bool // ADB Keyboard enabled with `ime enable`
	// The Bank: the code its last sign-in sent by SMS, and whether a
	// sign-in went through.
	bankCode     string
	BankSignedIn bool
	// conv is each contact's conversation, oldest first; active orders
	// the conversation list, most recent first (contact names).
	conv   map[string][]bubble
	active []string
	// noteEdits orders Notes by when they were last edited, as Google
	// Keep lists them: noteEdits[i] is note i's edit, numbered from 1 in
	// the order edits happened (0, or past the slice's end: not edited
	// on this phone), and lastEdit is the latest number.
	noteEdits []int
	lastEdit  int
}

// bubble is one message of a conversation.
type bubble struct {
	sent bool
	text string
}

// talk adds a message to the conversation with name and moves it to the
// top of the conversation list, as messaging apps do.
func (d *data) talk(name string, b bubble) {
	d.conv[name] = append(d.conv[name], b)
	d.active = append([]string{name}, slices.DeleteFunc(d.active, func(n string) bool { return n == name })...)
}

func initialData() data {
	d := data{
		Toggles:    Toggles{WiFi: true, Bluetooth: false, Airplane: false},
		Brightness: 50,
		Alarms: []Alarm{
			{Time: "07:00", Label: "Wake up", Enabled: true},
			{Time: "08:30", Label: "Gym", Enabled: false},
		},
		Notes:        []Note{{Title: "Shopping list", Body: "Milk, eggs, bread"}},
		InputMethod:  imeLatin,
		IMEInstalled: true,
		Awake:        true,
	}
	d.conv = map[string][]bubble{}
	for _, c := range contacts {
		for _, m := range c.received {
			d.conv[c.Name] = append(d.conv[c.Name], bubble{text: m})
		}
		d.active = append(d.active, c.Name)
	}
	return d
}

// State returns a copy of the phone's state.
func (p *Phone) State() State {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.top()
	s := State{
		Serial:       p.cfg.Serial,
		Skin:         p.cfg.Skin,
		Screen:       Screen{App: appName(v.app), Page: v.page, Detail: v.arg},
		CurrentApp:   p.pkg(v.app),
		Toggles:      p.st.Toggles,
		Brightness:   p.st.Brightness,
		MessagesSent: append([]SentMessage{}, p.st.MessagesSent...),
		Alarms:       append([]Alarm{}, p.st.Alarms...),
		Notes:        append([]Note{}, p.st.Notes...),
		BankSignedIn: p.st.BankSignedIn,
		InputMethod:  p.st.InputMethod,
		IMEInstalled: p.st.IMEInstalled,
		Awake:        p.st.Awake,
		InputLog:     make([]InputEvent, 0, len(p.inputs)),
		Locked:       p.life.locked,
		Bouncer:      p.life.bouncer,
		WrongPINs:    p.life.wrongPINs,
		Clock:        p.life.now,
		Events:       slices.Clone(p.life.events),
	}
	if p.life.dialog != nil {
		s.Dialog = p.life.dialog.title
	}
	s.Shade = p.shade.open
	s.Notifications = slices.Clone(p.life.notifs)
	for _, e := range p.inputs {
		e.Args = slices.Clone(e.Args)
		s.InputLog = append(s.InputLog, e)
	}
	return s
}

// logInput records an input event against the current screen and returns
// its sequence number.
func (p *Phone) logInput(kind string, args ...string) int {
	p.seq++
	p.life.touched()
	v := p.top()
	if args == nil {
		args = []string{}
	}
	p.inputs = append(p.inputs, InputEvent{Seq: p.seq, Kind: kind, Args: args, App: appName(v.app), Page: v.page, At: time.Now()})
	return p.seq
}
