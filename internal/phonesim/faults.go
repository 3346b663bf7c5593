package phonesim

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Fault kinds accepted by SetFault and `simctl fault <kind> [arg]`.
const (
	// FaultDisconnect drops every transport and resets new connections for
	// Duration, then accepts again.
	FaultDisconnect = "disconnect"
	// FaultOffline drops every transport and, for Duration, holds back the
	// CNXN answer on new connections (adb lists the phone as "offline") and
	// refuses services; after Duration the held connections come online.
	FaultOffline = "offline"
	// FaultScreencapSlow delays every screencap by Duration.
	FaultScreencapSlow = "screencap-slow"
	// FaultScreencapFail makes the next Count screencaps fail.
	FaultScreencapFail = "screencap-fail"
	// FaultScreenDelay makes the display (screencap and uiautomator) show
	// the old screen for Duration after each input.
	FaultScreenDelay = "screen-delay"
	// FaultNoIME uninstalls the ADB Keyboard.
	FaultNoIME = "no-ime"
	// FaultPopup shows a pop-up dialog over the next app launched (a
	// feature announcement with a "Not now" button), as apps do after an
	// update: the screen differs from the usual one until it is dismissed
	// (the button or Back).
	FaultPopup = "popup"
	// FaultDropInput cuts the connection (every transport, as a cable
	// pulled out) when each of the next Count input commands (input, an
	// ADB Keyboard broadcast, an app launch) arrives, before the phone
	// runs it: the host sees its command fail with the phone's input log
	// unchanged.
	FaultDropInput = "drop-input"
	// FaultDataFull fills the /data partition: every write under /data
	// (/data/local/tmp included) fails with "No space left on device", as
	// on a phone whose storage is full.
	FaultDataFull = "data-full"
	// FaultClear switches every fault off and reinstalls the ADB Keyboard.
	FaultClear = "clear"
)

// Fault is one fault to switch on.
type Fault struct {
	Kind     string
	Duration time.Duration // disconnect, offline, screencap-slow, screen-delay
	Count    int           // screencap-fail, drop-input
}

type faults struct {
	refuseUntil  time.Time
	offlineUntil time.Time
	capSlow      time.Duration
	capFail      int
	screenDelay  time.Duration
	popup        bool // the next launch shows a pop-up
	dropInput    int  // input commands still to cut off
	dropped      int  // input commands cut off so far
	dataFull     bool // writes under /data fail
}

// SetFault switches a fault on (or all off with FaultClear).
func (p *Phone) SetFault(f Fault) error {
	now := time.Now()
	p.mu.Lock()
	switch f.Kind {
	case FaultDisconnect:
		p.faults.refuseUntil = now.Add(f.Duration)
	case FaultOffline:
		p.faults.offlineUntil = now.Add(f.Duration)
	case FaultScreencapSlow:
		p.faults.capSlow = f.Duration
	case FaultScreencapFail:
		p.faults.capFail = f.Count
	case FaultScreenDelay:
		p.faults.screenDelay = f.Duration
	case FaultPopup:
		p.faults.popup = true
	case FaultDropInput:
		p.faults.dropInput = f.Count
	case FaultDataFull:
		p.faults.dataFull = true
	case FaultNoIME:
		p.st.IMEInstalled = false
		if p.st.InputMethod == imeADB {
			p.st.InputMethod = imeLatin
		}
	case FaultClear:
		p.faults = faults{dropped: p.faults.dropped}
		p.frozen = nil
		p.st.IMEInstalled = true
	default:
		p.mu.Unlock()
		return fmt.Errorf("phonesim: unknown fault %q; use one of disconnect, offline, screencap-slow, screencap-fail, screen-delay, popup, drop-input, data-full, no-ime, clear", f.Kind)
	}
	p.mu.Unlock()
	if f.Kind == FaultDisconnect || f.Kind == FaultOffline {
		// Drop the connections open now, after the simctl command that
		// asked for the fault had time to answer.
		ts := p.liveTransports()
		time.AfterFunc(50*time.Millisecond, func() {
			for _, t := range ts {
				t.close()
			}
		})
	}
	return nil
}

// ParseFault parses the arguments of `simctl fault`: a kind and, for kinds
// that take one, seconds (disconnect, offline), milliseconds
// (screencap-slow, screen-delay) or a count (screencap-fail).
func ParseFault(args []string) (Fault, error) {
	if len(args) == 0 {
		return Fault{}, fmt.Errorf("usage: simctl fault disconnect <s> | offline <s> | screencap-slow <ms> | screencap-fail <count> | screen-delay <ms> | popup | drop-input <count> | data-full | no-ime | clear")
	}
	f := Fault{Kind: args[0]}
	needNum := func(unit string) (int, error) {
		if len(args) < 2 {
			return 0, fmt.Errorf("simctl fault %s needs a number of %s", f.Kind, unit)
		}
		n, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil || n < 0 {
			return 0, fmt.Errorf("simctl fault %s: %q is not a number of %s", f.Kind, args[1], unit)
		}
		return n, nil
	}
	switch f.Kind {
	case FaultDisconnect, FaultOffline:
		n, err := needNum("seconds")
		f.Duration = time.Duration(n) * time.Second
		return f, err
	case FaultScreencapSlow, FaultScreenDelay:
		n, err := needNum("milliseconds")
		f.Duration = time.Duration(n) * time.Millisecond
		return f, err
	case FaultScreencapFail:
		n, err := needNum("screencaps")
		f.Count = n
		return f, err
	case FaultDropInput:
		n, err := needNum("input commands")
		f.Count = n
		return f, err
	case FaultNoIME, FaultClear, FaultPopup, FaultDataFull:
		return f, nil
	}
	return f, fmt.Errorf("simctl fault: unknown fault %q; use one of disconnect, offline, screencap-slow, screencap-fail, screen-delay, popup, drop-input, data-full, no-ime, clear", f.Kind)
}

func (p *Phone) refusing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Now().Before(p.faults.refuseUntil)
}

func (p *Phone) isOffline() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Now().Before(p.faults.offlineUntil)
}

// waitOnline blocks while the phone is offline; false if ctx or the
// connection ended first.
func (p *Phone) waitOnline(ctx context.Context, done <-chan struct{}) bool {
	for {
		p.mu.Lock()
		wait := time.Until(p.faults.offlineUntil)
		p.mu.Unlock()
		if wait <= 0 {
			return true
		}
		tm := time.NewTimer(wait)
		select {
		case <-tm.C:
		case <-ctx.Done():
			tm.Stop()
			return false
		case <-done:
			tm.Stop()
			return false
		}
	}
}

// inputCommand reports whether a shell command line sends input: what
// FaultDropInput cuts off.
func inputCommand(cmd string) bool {
	cmd = strings.TrimSpace(cmd)
	return strings.HasPrefix(cmd, "input ") || strings.HasPrefix(cmd, "monkey ") || strings.HasPrefix(cmd, "am start") ||
		strings.Contains(cmd, "ADB_INPUT_") || strings.Contains(cmd, "ADB_CLEAR_TEXT")
}

// dropInput takes one input command off the drop-input fault's count, and
// reports whether this one is to be cut off.
func (p *Phone) dropInput(cmd string) bool {
	if !inputCommand(cmd) {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.faults.dropInput <= 0 {
		return false
	}
	p.faults.dropInput--
	p.faults.dropped++
	return true
}

// Dropped is how many input commands the drop-input fault cut off.
func (p *Phone) Dropped() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.faults.dropped
}
