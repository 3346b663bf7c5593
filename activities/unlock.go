package activities

import (
	"context"
	"errors"
	"sync"

	"github.com/phoneflow/phoneflow/internal/device"
)

// Unlocker gets this host's phones past their lock screens before a todo
// acts on them (docs/design.md §15): the wake key, the keyguard
// dismissed, and the configured PIN typed on the bouncer. The PIN lives
// here, in the worker's memory: it is never an activity's input or
// result, so it reaches no history, and nothing logs it.
type Unlocker struct {
	// PIN is adb.unlock_pin; empty leaves a PIN lock to a person.
	PIN string

	mu sync.Mutex
	// refused holds the phones that did not accept PIN: it is not typed
	// on them again (phones lock out after a few wrong PINs) until the
	// worker restarts, with its setting fixed.
	refused map[string]bool
}

// phoneUnlocker is a device that can unlock itself (internal/device's
// ADB phones).
type phoneUnlocker interface {
	Unlock(ctx context.Context, pin string) (bool, error)
}

// LockedQuestion opens the question a Step asks through
// StepResult.Locked when the phone's lock cannot be passed.
const LockedQuestion = "The phone is locked and phoneflow cannot unlock it"

// unlock makes sure the phone is awake and unlocked. It returns "" when
// the phone is ready (or cannot tell), else the question for the person:
// what the lock is and what to do. A phone whose lock state cannot be
// read is left to the look that follows, as before.
func (a *Activities) unlock(ctx context.Context, d device.Device) (string, error) {
	u := a.Unlock
	pu, ok := d.(phoneUnlocker)
	if u == nil || !ok {
		return "", nil
	}
	pin := u.PIN
	u.mu.Lock()
	if u.refused[d.Serial()] {
		pin = ""
	}
	u.mu.Unlock()
	changed, err := pu.Unlock(ctx, pin)
	var le *device.LockedError
	switch {
	case errors.As(err, &le):
		if le.Kind == device.LockWrongPIN {
			u.mu.Lock()
			if u.refused == nil {
				u.refused = map[string]bool{}
			}
			u.refused[d.Serial()] = true
			u.mu.Unlock()
		}
		if le.Kind == device.LockNoPIN && u.PIN != "" {
			// The configured PIN was refused earlier on this phone.
			le.Kind = device.LockWrongPIN
		}
		a.logger(ctx).Warn("the phone is locked and cannot be unlocked", "serial", d.Serial(), "lock", le.Kind)
		return LockedQuestion + ": " + le.Error() + ". Answer when it is unlocked.", nil
	case err != nil:
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		a.logger(ctx).Debug("lock state unknown; looking at the screen as it is", "serial", d.Serial(), "error", err)
		return "", nil
	case changed:
		a.logger(ctx).Info("woke and unlocked the phone", "serial", d.Serial())
	}
	return "", nil
}
