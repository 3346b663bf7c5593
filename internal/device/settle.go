package device

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
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

// LastSettle returns the stats of the most recent settle wait.
func (d *adbDevice) LastSettle() SettleStats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last
}

// Settle waits according to the device's policy.
func (d *adbDevice) Settle(ctx context.Context) (SettleStats, error) {
	p := d.opts.Settle
	st := SettleStats{Mode: p.Mode}
	start := time.Now()
	var err error
	switch p.Mode {
	case SettleNone:
		st.Settled = true
	case SettleFixed:
		err = sleep(ctx, p.Fixed)
		st.Settled = err == nil
	default:
		st, err = d.settleWait(ctx, p)
	}
	st.Waited = time.Since(start)
	d.mu.Lock()
	d.last = st
	d.mu.Unlock()
	if d.opts.OnSettle != nil {
		d.opts.OnSettle(st)
	}
	if err != nil {
		return st, fmt.Errorf("device %s: waiting for the screen to settle: %w", d.serial, err)
	}
	return st, nil
}

func (d *adbDevice) settleWait(ctx context.Context, p SettlePolicy) (SettleStats, error) {
	st := SettleStats{Mode: p.Mode}
	start := time.Now()
	d.mu.Lock()
	before := d.lastProbe
	d.mu.Unlock()
	var prev uint64
	run := 0
	for {
		t0 := time.Now()
		h, err := d.probe(ctx)
		if err != nil {
			return st, err
		}
		st.Captures++
		if run > 0 && h == prev {
			run++
		} else {
			run = 1
		}
		prev = h
		d.mu.Lock()
		d.lastProbe = h
		d.mu.Unlock()
		elapsed := time.Since(start)
		// A capture shows the screen as it was when the capture began, so a
		// slow capture begun within ChangeWait still counts as early.
		unchanged := before != 0 && h == before && t0.Sub(start) < p.ChangeWait
		if run >= p.Stable && !unchanged {
			st.Settled = true
			return st, nil
		}
		if elapsed >= p.Max {
			return st, nil
		}
		wait := min(p.Interval-time.Since(t0), p.Max-elapsed)
		if err := sleep(ctx, wait); err != nil {
			return st, err
		}
	}
}

// probe captures the screen and hashes it. The first probe on a device
// times one raw capture (no PNG encoding on the phone, but 4 bytes a pixel
// on the wire) against one `screencap -p` and keeps the faster: raw wins on
// most real phones, PNG where encoding is cheap or cached (the simulator).
func (d *adbDevice) probe(ctx context.Context) (uint64, error) {
	d.mu.Lock()
	mode := d.probeRaw
	d.mu.Unlock()
	switch mode {
	case 1:
		out, err := d.c.Exec(ctx, d.serial, "screencap")
		return hash(out), err
	case -1:
		out, err := d.c.Exec(ctx, d.serial, "screencap -p")
		return hash(out), err
	}
	t0 := time.Now()
	raw, err := d.c.Exec(ctx, d.serial, "screencap")
	if err != nil {
		return 0, err
	}
	tRaw := time.Since(t0)
	t0 = time.Now()
	pngOut, err := d.c.Exec(ctx, d.serial, "screencap -p")
	if err != nil {
		return 0, err
	}
	tPNG := time.Since(t0)
	rawOK, pngOK := rawScreencapOK(raw), bytes.HasPrefix(pngOut, pngSig)
	switch {
	case rawOK && (!pngOK || tRaw <= tPNG):
		mode = 1
	case pngOK:
		mode = -1
	}
	if mode != 0 {
		d.mu.Lock()
		d.probeRaw = mode
		d.mu.Unlock()
		d.log.Debug("settle probe chosen", "raw", mode == 1, "raw_ms", tRaw.Milliseconds(), "png_ms", tPNG.Milliseconds())
	}
	if mode == 1 {
		return hash(raw), nil
	}
	// PNG chosen, or neither usable yet (a secure screen): compare PNG output.
	return hash(pngOut), nil
}

// rawScreencapOK reports whether out is a raw screencap: a 12- or 16-byte
// header (width, height, format[, color space]) and 4 bytes per pixel.
func rawScreencapOK(out []byte) bool {
	if len(out) < 16 {
		return false
	}
	w := int(binary.LittleEndian.Uint32(out[0:]))
	h := int(binary.LittleEndian.Uint32(out[4:]))
	if w <= 0 || h <= 0 || w > 1<<14 || h > 1<<14 {
		return false
	}
	n := w * h * 4
	return len(out) == n+12 || len(out) == n+16
}

func hash(b []byte) uint64 {
	// maphash reads a raw capture (4 bytes a pixel, 10 MB at 1080x2400)
	// at memory speed; the probes only compare within this process.
	v := maphash.Bytes(probeSeed, b)
	if v == 0 {
		v = 1 // 0 means "no capture yet"
	}
	return v
}

// probeSeed seeds the probes' hash for the life of the process.
var probeSeed = maphash.MakeSeed()
