package device

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
)

// AdbIME is the ADB Keyboard's input method id.
const AdbIME = "com.android.adbkeyboard/.AdbIME"

// Options tune a device. The zero value is usable.
type Options struct {
	// Settle is applied after every input; zero fields take DefaultSettle.
	Settle SettlePolicy
	// DoubleTapGap is the pause between the taps of a double tap (100 ms).
	DoubleTapGap time.Duration
	// LongPress is how long a long press holds (3 s).
	LongPress time.Duration
	// KeepIME leaves the ADB Keyboard selected after Type instead of
	// restoring the previous input method.
	KeepIME bool
	// OnSettle, when set, is called after every settle wait.
	OnSettle func(SettleStats)
	// Logger receives debug logs; nil means slog.Default().
	Logger *slog.Logger
}

// adbDevice is a Device driven through an ADB server.
type adbDevice struct {
	c      *adb.Client
	serial string
	opts   Options
	log    *slog.Logger

	mu        sync.Mutex
	lastProbe uint64 // hash of the last settle capture; 0 = none
	probeRaw  int    // settle capture: 0 not chosen yet, 1 raw screencap, -1 screencap -p
	rawOff    bool   // ScreenPixels: the raw form is unreadable, capture PNG
	rawSize   int    // bytes of the last raw capture, the next one's buffer size
	last      SettleStats
	imeOK     bool
	pkgs      []string
	pkgsAt    time.Time
	labels    map[string]appLabel // AppLabel's, per package
	loc       string              // the phone's locale (locale)
	locKnown  bool
}

var (
	_ Device  = (*adbDevice)(nil)
	_ Settler = (*adbDevice)(nil)
)

// New returns the phone with this serial on the client's ADB server. It
// does not contact the phone; the first call does.
func New(c *adb.Client, serial string, o Options) Device {
	o.Settle = o.Settle.withDefaults()
	if o.DoubleTapGap <= 0 {
		o.DoubleTapGap = 100 * time.Millisecond
	}
	if o.LongPress <= 0 {
		o.LongPress = 3 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &adbDevice{c: c, serial: serial, opts: o, log: log.With("serial", serial)}
}

func (d *adbDevice) Serial() string { return d.serial }

// shell runs a command and returns its output as text.
func (d *adbDevice) shell(ctx context.Context, cmd string) (string, error) {
	out, err := d.c.Shell(ctx, d.serial, cmd)
	return string(out), err
}

// commandFailed reports whether shell output is an error message rather
// than a command's normal (usually empty) output.
func commandFailed(out string) bool {
	for _, s := range []string{"Exception", "Error:", "error:", "not found", "Unknown command", "Unknown input method", "Usage:", "inaccessible"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

// input sends an input command and waits for the screen to settle. An
// error before the command began is a NotSentError, one from the settle
// wait after it a SentError.
func (d *adbDevice) input(ctx context.Context, cmd string) error {
	if err := d.send(ctx, cmd); err != nil {
		return err
	}
	_, err := d.Settle(ctx)
	return sent(err)
}

// inputDone is echoed after every input command: its arrival proves the
// command ran to its end on the phone. Without shell protocol v2 there is
// no exit status, and a connection cut before the command ran (a cable
// pulled, the phone's adbd restarting) ends the stream as quietly as a
// command that printed nothing (docs/design.md §4).
const inputDone = "phoneflow:input-done"

// runInput runs an input command followed by the inputDone marker and
// returns the command's output. A stream that ends without the marker is
// an error that says the input may or may not have reached the phone.
func (d *adbDevice) runInput(ctx context.Context, cmd string) (string, error) {
	out, err := d.shell(ctx, cmd+"; echo "+inputDone)
	if err != nil {
		return out, err
	}
	i := strings.LastIndex(out, inputDone)
	if i < 0 {
		return out, fmt.Errorf("the connection to the phone ended before %q was seen to finish: it may or may not have run", cmd)
	}
	return out[:i], nil
}

// runSent runs an input command and returns its output; an error before
// the command began is a NotSentError.
func (d *adbDevice) runSent(ctx context.Context, cmd string) (string, error) {
	out, err := d.runInput(ctx, cmd)
	if err != nil {
		err = fmt.Errorf("device %s: %s: %w", d.serial, cmd, err)
		if adb.NotStarted(err) {
			return "", notSent(err)
		}
		return "", err
	}
	return out, nil
}

// send runs an input command without settling; an error before the
// command began is a NotSentError.
func (d *adbDevice) send(ctx context.Context, cmd string) error {
	out, err := d.runSent(ctx, cmd)
	if err != nil {
		return err
	}
	if commandFailed(out) {
		return fmt.Errorf("device %s: %s failed: %s", d.serial, cmd, clip(out))
	}
	return nil
}

func (d *adbDevice) Tap(ctx context.Context, x, y int) error {
	return d.input(ctx, fmt.Sprintf("input tap %d %d", x, y))
}

func (d *adbDevice) DoubleTap(ctx context.Context, x, y int) error {
	cmd := fmt.Sprintf("input tap %d %d", x, y)
	if err := d.send(ctx, cmd); err != nil {
		return err
	}
	// The first tap reached the phone: whatever fails now, it may count.
	if err := sleep(ctx, d.opts.DoubleTapGap); err != nil {
		return err
	}
	return maybeSent(d.input(ctx, cmd))
}

func (d *adbDevice) LongPress(ctx context.Context, x, y int) error {
	return d.input(ctx, fmt.Sprintf("input swipe %d %d %d %d %d", x, y, x, y, d.opts.LongPress.Milliseconds()))
}

// SwipeDuration is the duration Swipe uses when given none: one
// millisecond per pixel travelled, kept within 1–2 s so that lists scroll
// by about the distance dragged instead of flinging.
func SwipeDuration(x1, y1, x2, y2 int) time.Duration {
	dist := math.Hypot(float64(x2-x1), float64(y2-y1))
	ms := min(max(dist, 1000), 2000)
	return time.Duration(ms) * time.Millisecond
}

func (d *adbDevice) Swipe(ctx context.Context, x1, y1, x2, y2 int, dur time.Duration) error {
	if dur <= 0 {
		dur = SwipeDuration(x1, y1, x2, y2)
	}
	return d.input(ctx, fmt.Sprintf("input swipe %d %d %d %d %d", x1, y1, x2, y2, dur.Milliseconds()))
}

func (d *adbDevice) Back(ctx context.Context) error { return d.input(ctx, "input keyevent 4") }

func (d *adbDevice) Home(ctx context.Context) error {
	return d.input(ctx, "input keyevent KEYCODE_HOME")
}

// ScreenOn reports whether the display is on, from `dumpsys power`.
func (d *adbDevice) ScreenOn(ctx context.Context) (bool, error) {
	out, err := d.shell(ctx, "dumpsys power")
	if err != nil {
		return false, fmt.Errorf("device %s: dumpsys power: %w", d.serial, err)
	}
	on, ok := parseScreenOn(out)
	if !ok {
		return false, fmt.Errorf("device %s: cannot tell the screen state from `dumpsys power` output %q", d.serial, clip(out))
	}
	return on, nil
}

// Wake turns the screen on when it is off.
func (d *adbDevice) Wake(ctx context.Context) error {
	on, err := d.ScreenOn(ctx)
	if err == nil && on {
		return nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		d.log.Debug("screen state unknown, waking anyway", "err", err)
	}
	return d.input(ctx, "input keyevent KEYCODE_WAKEUP")
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
