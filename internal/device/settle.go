package device

import (
	"context"
	"fmt"
	"time"
)

// Settle modes.
const (
	// SettleWait captures the screen after an input until it stops changing.
	SettleWait = "settle"
	// SettleFixed sleeps a fixed time after an input, as the reference did.
	SettleFixed = "fixed"
	// SettleNone returns as soon as the input was sent.
	SettleNone = "none"
)

// SettlePolicy says how long to wait after an input before the next
// observation. Zero fields take DefaultSettle's values.
type SettlePolicy struct {
	Mode string `json:"mode" mapstructure:"mode"` // settle | fixed | none
	// Interval is the time between screen captures in settle mode.
	Interval time.Duration `json:"interval" mapstructure:"interval"`
	// Stable is how many consecutive equal captures count as settled.
	Stable int `json:"stable" mapstructure:"stable"`
	// Max bounds the wait in settle mode.
	Max time.Duration `json:"max" mapstructure:"max"`
	// ChangeWait is how long settle mode keeps waiting while the screen
	// still equals the one seen before the input (the app has not reacted
	// yet), before it accepts an unchanged screen as settled.
	ChangeWait time.Duration `json:"change_wait" mapstructure:"change_wait"`
	// Fixed is the sleep in fixed mode.
	Fixed time.Duration `json:"fixed" mapstructure:"fixed"`
}

// DefaultSettle is the policy used when none is given: capture every
// 150 ms until two consecutive captures match, at most 3 s.
func DefaultSettle() SettlePolicy {
	return SettlePolicy{Mode: SettleWait, Interval: 150 * time.Millisecond, Stable: 2, Max: 3 * time.Second,
		ChangeWait: 400 * time.Millisecond, Fixed: time.Second}
}

// withDefaults fills zero fields from DefaultSettle.
func (p SettlePolicy) withDefaults() SettlePolicy {
	d := DefaultSettle()
	if p.Mode == "" {
		p.Mode = d.Mode
	}
	if p.Interval <= 0 {
		p.Interval = d.Interval
	}
	if p.Stable <= 0 {
		p.Stable = d.Stable
	}
	if p.Max <= 0 {
		p.Max = d.Max
	}
	switch {
	case p.ChangeWait == 0:
		p.ChangeWait = d.ChangeWait
	case p.ChangeWait < 0:
		p.ChangeWait = 0
	}
	if p.Fixed <= 0 {
		p.Fixed = d.Fixed
	}
	return p
}

// Validate reports a policy that cannot be applied.
func (p SettlePolicy) Validate() error {
	switch p.Mode {
	case "", SettleWait, SettleFixed, SettleNone:
	default:
		return fmt.Errorf("settle mode %q is not one of settle, fixed, none", p.Mode)
	}
	if p.Interval < 0 || p.Max < 0 || p.Fixed < 0 {
		return fmt.Errorf("settle durations must not be negative")
	}
	if p.Stable == 1 {
		return fmt.Errorf("settle stable = 1 compares nothing: use 2 or more")
	}
	return nil
}

// SettleStats describes one wait after an input.
type SettleStats struct {
	Mode     string        `json:"mode"`
	Waited   time.Duration `json:"waited"`   // time from the end of the input to settled
	Captures int           `json:"captures"` // screen captures taken (settle mode)
	Settled  bool          `json:"settled"`  // false when Max ran out first
}

// Settler is implemented by devices that wait for the screen to settle. It
// lets callers settle explicitly (after a Wait action) and read the last
// wait, for benchmarks and activity summaries.
type Settler interface {
	Settle(ctx context.Context) (SettleStats, error)
	LastSettle() SettleStats
}
