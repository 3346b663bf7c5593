package phonesim

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cost profiles accepted by CostProfile (the sim.costs key and `starter
// sim --costs`).
const (
	// CostsNone answers every command at once, as a socket does: the
	// default, so tests and the demo do not slow down.
	CostsNone = "none"
	// CostsPhone takes as long as a real phone over adb, and fails
	// `uiautomator dump` on a screen that does not go idle.
	CostsPhone = "phone"
)

// Span is a range a duration is drawn from, uniformly.
type Span struct{ Min, Max time.Duration }

// Costs is how long a phone takes to answer the commands a host sends
// it, and when `uiautomator dump` cannot get an idle state. Every draw
// comes from the phone's seed (Life.Seed), in the order the commands
// arrive. The figures of the phone profile and their sources are in
// docs/phones.md#a-phones-costs. The zero Costs costs nothing.
type Costs struct {
	Screencap Span // `screencap` (capture, PNG encoding, transfer)
	// IdleWindow and IdleTimeout are uiautomator's wait for an idle
	// screen before it dumps: the screen must stay still IdleWindow,
	// and after IdleTimeout of waiting the dump gives up with "ERROR:
	// could not get idle state." (exit status 0, nothing written).
	IdleWindow  time.Duration
	IdleTimeout time.Duration
	DumpWalk    Span // the tree's walk and write, after the idle wait
	// Transition is how long a screen animates after it changes (an
	// activity transition, a dialog's fade, a banner dropping in).
	Transition time.Duration
	// AnimateChance is the chance that a screen, when it comes up, keeps
	// animating (a progress indicator, a carousel, a video) for a time
	// drawn from Animate.
	AnimateChance float64
	Animate       Span
	Input         Span          // `input tap`, `keyevent`, `text`; a swipe adds its duration
	PerChar       time.Duration // typing, per character (`input text`, the ADB Keyboard)
	Broadcast     Span          // `am broadcast` (the ADB Keyboard's intents)
	Launch        Span          // `am start`, `monkey -p … 1`
}

// DefaultSwipe is the duration of `input swipe` given none (AOSP
// InputShellCommand).
const DefaultSwipe = 300 * time.Millisecond

// PhoneCosts is the phone profile (docs/phones.md#a-phones-costs).
func PhoneCosts() Costs {
	ms := time.Millisecond
	return Costs{
		Screencap:     Span{450 * ms, 950 * ms},
		IdleWindow:    1000 * ms,
		IdleTimeout:   10000 * ms,
		DumpWalk:      Span{150 * ms, 1200 * ms},
		Transition:    400 * ms,
		AnimateChance: 0.15,
		Animate:       Span{2 * time.Second, 20 * time.Second},
		Input:         Span{30 * ms, 90 * ms},
		PerChar:       15 * ms,
		Broadcast:     Span{150 * ms, 400 * ms},
		Launch:        Span{300 * ms, 900 * ms},
	}
}

// CostProfile returns the profile a name stands for.
func CostProfile(name string) (Costs, error) {
	switch strings.TrimSpace(name) {
	case "", CostsNone:
		return Costs{}, nil
	case CostsPhone:
		return PhoneCosts(), nil
	}
	return Costs{}, fmt.Errorf("phonesim: unknown cost profile %q; use %s (answer at once) or %s (a real phone's latencies and dump failures)", name, CostsNone, CostsPhone)
}

// costState is what the profile remembers between commands: its draws,
// and the screen on display with when it changed and until when it
// animates.
type costState struct {
	mu        sync.Mutex
	rng       *rand.Rand
	key       string
	changedAt time.Time
	animUntil time.Time
	failed    int // dumps that found no idle state
	dumps     int // uiautomator dumps
	captures  int // screencaps
}

func newCostState(seed uint64) *costState {
	return &costState{rng: rand.New(rand.NewPCG(seed, 0x636f737473))}
}

// draw is a duration from s; the caller holds c.mu.
func (c *costState) draw(s Span) time.Duration {
	if s.Max <= s.Min {
		return s.Min
	}
	return s.Min + time.Duration(c.rng.Int64N(int64(s.Max-s.Min)+1))
}

// costly reports whether the phone has a cost profile.
func (p *Phone) costly() bool { return p.cfg.Costs != (Costs{}) }

// screenKey names what is on display as far as animation goes: the page
// in front, a dialog or pop-up over it, the keyguard, a dark screen.
func (p *Phone) screenKey() string {
	v := p.top()
	return fmt.Sprintf("%s|%s|%s|%s|%t|%t|%t|%t", v.app, v.page, v.arg, v.popup,
		p.life.dialog != nil, p.life.locked, p.life.bouncer, p.st.Awake)
}

// noteScreen records a change of what is on display at now: it animates
// for the transition, and with AnimateChance for longer.
func (p *Phone) noteScreen(now time.Time) {
	p.mu.Lock()
	key := p.screenKey()
	p.mu.Unlock()
	c := p.cost
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == c.key {
		return
	}
	c.key, c.changedAt, c.animUntil = key, now, now.Add(p.cfg.Costs.Transition)
	if p.cfg.Costs.AnimateChance > 0 && c.rng.Float64() < p.cfg.Costs.AnimateChance {
		c.animUntil = now.Add(c.draw(p.cfg.Costs.Animate))
	}
}

// dumpWait waits as `uiautomator dump` does for an idle screen (AOSP
// DumpCommand: waitForIdle(1000, 10000)) and then for the walk, and
// reports whether the screen went idle in time.
func (p *Phone) dumpWait() bool {
	if !p.costly() {
		return true
	}
	start := time.Now()
	p.noteScreen(start)
	cs, c := p.cfg.Costs, p.cost
	c.mu.Lock()
	quiet := c.animUntil
	walk := c.draw(cs.DumpWalk)
	ready := start
	if quiet.After(ready) {
		ready = quiet
	}
	ready = ready.Add(cs.IdleWindow)
	idle := !ready.After(start.Add(cs.IdleTimeout))
	if !idle {
		c.failed++
	}
	c.mu.Unlock()
	if !idle {
		time.Sleep(cs.IdleTimeout)
		return false
	}
	time.Sleep(time.Until(ready) + walk)
	return true
}

// Looks is how many `uiautomator dump` and `screencap` commands the
// phone has answered.
func (p *Phone) Looks() (dumps, captures int) {
	p.cost.mu.Lock()
	defer p.cost.mu.Unlock()
	return p.cost.dumps, p.cost.captures
}

// countLook counts a dump or a capture.
func (p *Phone) countLook(name string) {
	if name != "uiautomator" && name != "screencap" {
		return
	}
	p.cost.mu.Lock()
	if name == "uiautomator" {
		p.cost.dumps++
	} else {
		p.cost.captures++
	}
	p.cost.mu.Unlock()
}

// DumpsNotIdle is how many `uiautomator dump` commands found no idle
// state under the cost profile.
func (p *Phone) DumpsNotIdle() int {
	p.cost.mu.Lock()
	defer p.cost.mu.Unlock()
	return p.cost.failed
}

// afterCommand is the time a command took beyond its effect, under the
// cost profile, and notes the screen it may have changed. uiautomator's
// cost is its own (dumpWait).
func (p *Phone) afterCommand(name string, args []string) {
	if !p.costly() {
		return
	}
	d, input := p.commandCost(name, args)
	if input {
		p.noteScreen(time.Now())
	}
	time.Sleep(d)
}

// commandCost draws the time command name args takes under the cost
// profile, and says whether it is input (a tap, a swipe, text, a launch).
func (p *Phone) commandCost(name string, args []string) (d time.Duration, input bool) {
	args = append([]string{name}, args...)
	cs, c := p.cfg.Costs, p.cost
	c.mu.Lock()
	defer c.mu.Unlock()
	switch args[0] {
	case "screencap":
		d = c.draw(cs.Screencap)
	case "input":
		input = true
		d = c.draw(cs.Input) + inputExtra(args[1:], cs.PerChar)
	case "am":
		if len(args) > 1 {
			switch args[1] {
			case "broadcast":
				input = true
				d = c.draw(cs.Broadcast) + time.Duration(broadcastChars(args[2:]))*cs.PerChar
			case "start", "start-activity":
				input = true
				d = c.draw(cs.Launch)
			}
		}
	case "monkey":
		input = true
		d = c.draw(cs.Launch)
	}
	return d, input
}

// inputExtra is what an `input` command takes beyond its start: a
// swipe's duration, a text's characters.
func inputExtra(args []string, perChar time.Duration) time.Duration {
	if len(args) > 0 && inputSources[args[0]] {
		args = args[1:]
	}
	if len(args) == 0 {
		return 0
	}
	switch args[0] {
	case "swipe", "draganddrop":
		if len(args) == 6 {
			if ms, err := strconv.Atoi(args[5]); err == nil && ms >= 0 {
				return time.Duration(ms) * time.Millisecond
			}
		}
		return DefaultSwipe
	case "text":
		return time.Duration(len([]rune(strings.Join(args[1:], " ")))) * perChar
	}
	return 0
}

// broadcastChars is the length of the text an ADB Keyboard broadcast
// types.
func broadcastChars(args []string) int {
	action, msg := "", ""
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-a":
			if i+1 < len(args) {
				action = args[i+1]
				i++
			}
		case "--es":
			if i+2 < len(args) {
				if args[i+1] == "msg" {
					msg = args[i+2]
				}
				i += 2
			}
		}
	}
	switch action {
	case "ADB_INPUT_TEXT":
		return len([]rune(msg))
	case "ADB_INPUT_B64":
		if b, err := base64.StdEncoding.DecodeString(msg); err == nil {
			return len([]rune(string(b)))
		}
	}
	return 0
}
