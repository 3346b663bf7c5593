package phonesim

import (
	"context"
	"math/rand/v2"
	"time"
)

// Life makes a phone change its screens by itself, as a phone in someone's
// pocket does: messages arrive from contacts (the conversation grows and
// moves to the top of the list, a notification is posted and a heads-up
// banner drops over whatever is on the screen), a system dialog takes the
// focus, the clock in the status bar ticks, and the screen times out to the
// keyguard. The zero value is a phone that changes only on input.
//
// What happens and when is drawn from Seed on the phone's own clock, which
// moves only with Advance (or, unless Manual, with real time while the
// phone serves): the same seed and the same inputs at the same clock times
// give the same screens.
type Life struct {
	// Seed picks the events: who writes, what, which dialog, and when.
	Seed uint64
	// Messages is the mean time between incoming messages; 0 means none.
	Messages time.Duration
	// Dialogs is the mean time between system dialogs taking the focus
	// (a low-battery warning, an app that is not responding); 0 means none.
	Dialogs time.Duration
	// ScreenTimeout turns the screen off and locks the phone after this
	// long without input; 0 means never. A locked phone wakes to the
	// keyguard (KEYCODE_WAKEUP, POWER), which a swipe up dismisses.
	ScreenTimeout time.Duration
	// Banner is how long a heads-up banner stays; 0 means 5 s.
	Banner time.Duration
	// Start is the time the phone's clock shows at start; zero means
	// 09:00 on 2 March 2026 (a Monday).
	Start time.Time
	// Manual leaves the clock to Advance: the phone does not follow real
	// time. Tests use it to step through events deterministically.
	Manual bool
	// PIN gives the keyguard a screen lock: after the swipe up its
	// bouncer asks for this PIN (digits), and a wrong one is rejected.
	// Empty is a keyguard a swipe up dismisses.
	PIN string
	// Pattern gives the keyguard a pattern lock, which no typed input
	// passes: only the owner at the phone (Unlock, `simctl unlock`) does.
	Pattern bool
}

// On reports whether anything happens on the phone by itself.
func (l Life) On() bool {
	return l.Messages > 0 || l.Dialogs > 0 || l.ScreenTimeout > 0 || l.PIN != "" || l.Pattern
}

// DefaultLifeStart is the phone clock's start when Life.Start is zero.
var DefaultLifeStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

const defaultBanner = 5 * time.Second

// incomingTexts are the messages contacts send by themselves.
var incomingTexts = []string{
	"Running 10 minutes late", "Did you see the game last night?", "Can you call me later?",
	"Thanks!", "Where are you?", "Ok, see you there", "Lunch tomorrow?", "Happy Monday",
	"Don't forget the tickets", "I'm outside", "Got it", "How was the trip?",
}

// Notification is one notification posted on the phone, newest last.
type Notification struct {
	App  string    `json:"app"`   // display name of the posting app
	From string    `json:"from"`  // a message's sender
	Text string    `json:"text"`  // a message's text
	At   time.Time `json:"at"`    // phone clock time it was posted
	Read bool      `json:"read"`  // its conversation was opened since
	Seq  int       `json:"event"` // number of the life event that posted it
}

// LifeEvent is one thing the phone did by itself, for tests and drills to
// place against inputs.
type LifeEvent struct {
	Seq    int       `json:"seq"`
	Kind   string    `json:"kind"` // message, dialog, screen_off
	Detail string    `json:"detail"`
	At     time.Time `json:"at"` // phone clock time
}

// sysDialog is a system window that takes the focus over the app: a tap
// outside it does nothing, Back or Home or its negative button closes it.
type sysDialog struct {
	pkg      string // owning package, reported as the focused window
	title    string
	text     string
	pos, neg string // button labels: android:id/button1 and button2
}

var sysDialogs = []sysDialog{
	{pkg: "com.android.systemui", title: "Battery is low", text: "15% remaining. Turn on Battery Saver to make it last longer.", pos: "Turn on", neg: "No thanks"},
	{pkg: "android", title: "App isn't responding", text: "Do you want to close it?", pos: "Close app", neg: "Wait"},
}

// banner is a heads-up notification over the top of the screen.
type banner struct {
	from, text string
	until      time.Time
}

// life is the state of a phone's own behaviour; guarded by Phone.mu.
type life struct {
	cfg       Life
	rng       *rand.Rand
	now       time.Time
	lastInput time.Time
	nextMsg   time.Time
	nextDlg   time.Time
	locked    bool
	// The bouncer of a secure keyguard: showing, the digits entered,
	// whether it says the last PIN was wrong, and wrong PINs so far.
	bouncer    bool
	entry      string
	wrongShown bool
	wrongPINs  int
	banner     *banner
	dialog     *sysDialog
	notifs     []Notification
	events     []LifeEvent
}

func newLife(cfg Life) life {
	if cfg.Banner <= 0 {
		cfg.Banner = defaultBanner
	}
	if cfg.Start.IsZero() {
		cfg.Start = DefaultLifeStart
	}
	l := life{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x70686f6e65)), now: cfg.Start, lastInput: cfg.Start}
	l.nextMsg = l.after(cfg.Messages)
	l.nextDlg = l.after(cfg.Dialogs)
	return l
}

// after draws the time of the next event of a kind with mean gap mean:
// uniform between half and one and a half times the mean. Zero for a kind
// that is off.
func (l *life) after(mean time.Duration) time.Time {
	if mean <= 0 {
		return time.Time{}
	}
	return l.now.Add(mean/2 + time.Duration(l.rng.Int64N(int64(mean)+1)))
}

func (l *life) record(kind, detail string) int {
	seq := len(l.events) + 1
	l.events = append(l.events, LifeEvent{Seq: seq, Kind: kind, Detail: detail, At: l.now})
	return seq
}

// Advance moves the phone's clock on by d and lets everything that falls
// due meanwhile happen, in time order.
func (p *Phone) Advance(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advanceLocked(d)
}

func (p *Phone) advanceLocked(d time.Duration) {
	l := &p.life
	end := l.now.Add(d)
	for {
		at, kind := l.nextDue()
		if kind == "" || at.After(end) {
			break
		}
		l.now = at
		p.happen(kind)
	}
	l.now = end
	if l.banner != nil && !l.now.Before(l.banner.until) {
		l.banner = nil
	}
}

// nextDue is the earliest pending event and its kind ("" when none).
func (l *life) nextDue() (time.Time, string) {
	var at time.Time
	kind := ""
	consider := func(t time.Time, k string) {
		if !t.IsZero() && (kind == "" || t.Before(at)) {
			at, kind = t, k
		}
	}
	consider(l.nextMsg, "message")
	consider(l.nextDlg, "dialog")
	if l.cfg.ScreenTimeout > 0 && !l.locked {
		consider(l.lastInput.Add(l.cfg.ScreenTimeout), "screen_off")
	}
	return at, kind
}

// happen makes one event of kind take place at the clock's time.
func (p *Phone) happen(kind string) {
	l := &p.life
	switch kind {
	case "message":
		l.nextMsg = l.after(l.cfg.Messages)
		c := contacts[l.rng.IntN(len(contacts))]
		text := incomingTexts[l.rng.IntN(len(incomingTexts))]
		p.receive(c.Name, text)
	case "dialog":
		l.nextDlg = l.after(l.cfg.Dialogs)
		d := sysDialogs[l.rng.IntN(len(sysDialogs))]
		if !p.st.Awake || l.locked || l.dialog != nil {
			// Nobody would see it: the warning waits for the next one.
			return
		}
		if d.pkg == "android" {
			// An app that is not responding is the one in front.
			d.title = appName(p.top().app) + " isn't responding"
		}
		l.dialog = &d
		l.record("dialog", d.title)
	case "screen_off":
		p.sleepLocked()
		l.record("screen_off", "no input for "+l.cfg.ScreenTimeout.String())
	}
}

// receive delivers a message from a contact: it joins the conversation,
// which moves to the top of the list; unless that conversation is open
// on an unlocked, lit screen, a notification is posted and, on a lit
// screen, a heads-up banner shows it.
func (p *Phone) receive(from, text string) {
	l := &p.life
	p.st.talk(from, bubble{text: text})
	seq := l.record("message", from+": "+text)
	v := p.top()
	if p.st.Awake && !l.locked && v.app == pkgMessages && v.page == pageConversation && v.arg == from {
		return
	}
	at := l.now
	if n := len(l.notifs); n > 0 && !at.After(l.notifs[n-1].At) {
		// Posted after the last one, even on a clock that stands still
		// (no Life, or Manual between Advances), as a phone's are.
		at = l.notifs[n-1].At.Add(time.Millisecond)
	}
	l.notifs = append(l.notifs, Notification{App: appName(pkgMessages), From: from, Text: text, At: at, Seq: seq})
	if p.st.Awake && !l.locked {
		l.banner = &banner{from: from, text: text, until: l.now.Add(l.cfg.Banner)}
	}
}

// Receive delivers a message from a contact now, as a scheduled one is.
func (p *Phone) Receive(from, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.receive(from, text)
}

// sleepLocked turns the screen off; with Life on the phone locks, as a
// phone with a keyguard does.
func (p *Phone) sleepLocked() {
	p.st.Awake = false
	p.shade.open = false // the shade collapses as the screen goes off
	p.life.banner = nil
	p.life.closeBouncer()
	if p.cfg.Life.On() {
		p.life.locked = true
	}
}

// touched notes an input: it keeps the screen on.
func (l *life) touched() { l.lastInput = l.now }

// readConversation marks a contact's notifications read when their
// conversation shows.
func (l *life) readConversation(name string) {
	for i := range l.notifs {
		if l.notifs[i].From == name {
			l.notifs[i].Read = true
		}
	}
}

// Clock is the phone clock's time now.
func (p *Phone) Clock() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.life.now
}

// LifeEvents returns what the phone did by itself so far, oldest first.
func (p *Phone) LifeEvents() []LifeEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]LifeEvent{}, p.life.events...)
}

// live follows real time with the phone's clock until ctx ends, when Life
// is on and not Manual.
func (p *Phone) live(ctx context.Context) {
	if !p.cfg.Life.On() || p.cfg.Life.Manual {
		return
	}
	const tick = 250 * time.Millisecond
	t := time.NewTicker(tick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			p.Advance(now.Sub(last))
			last = now
		}
	}
}

// clockText is what the status bar and the launcher show: "12:00" on a
// phone without Life, else the phone clock's hours and minutes.
func (p *Phone) clockText() string {
	if !p.cfg.Life.On() {
		return "12:00"
	}
	return p.life.now.Format("15:04")
}
