package device

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"image/png"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/uitree"
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

// send runs an input command without settling; an error before the
// command began is a NotSentError.
func (d *adbDevice) send(ctx context.Context, cmd string) error {
	out, err := d.runInput(ctx, cmd)
	if err != nil {
		err = fmt.Errorf("device %s: %s: %w", d.serial, cmd, err)
		if adb.NotStarted(err) {
			return notSent(err)
		}
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

// packages returns the installed packages, cached for a short while.
func (d *adbDevice) packages(ctx context.Context, fresh bool) ([]string, error) {
	d.mu.Lock()
	if !fresh && d.pkgs != nil && time.Since(d.pkgsAt) < 30*time.Second {
		p := d.pkgs
		d.mu.Unlock()
		return p, nil
	}
	d.mu.Unlock()
	out, err := d.shell(ctx, "pm list packages")
	if err != nil {
		return nil, fmt.Errorf("device %s: pm list packages: %w", d.serial, err)
	}
	pkgs := parsePackages(out)
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("device %s: `pm list packages` listed nothing: %q", d.serial, clip(out))
	}
	d.mu.Lock()
	d.pkgs, d.pkgsAt = pkgs, time.Now()
	d.mu.Unlock()
	return pkgs, nil
}

// ResolveApp turns an app name (English or Chinese display name, or a
// package) into an installed package.
func (d *adbDevice) ResolveApp(ctx context.Context, app string) (string, error) {
	app = strings.TrimSpace(app)
	if app == "" {
		return "", &AppNotFoundError{App: app}
	}
	for _, fresh := range []bool{false, true} {
		installed, err := d.packages(ctx, fresh)
		if err != nil {
			if ctx.Err() != nil {
				return "", err
			}
			// Without the package list, trust the table or the package name.
			if cands, ok := LookupApp(app); ok {
				return cands[0], nil
			}
			if looksLikePackage(app) {
				return app, nil
			}
			return "", err
		}
		if pkg, ok := pickPackage(app, installed); ok {
			return pkg, nil
		}
		if fresh {
			nf := &AppNotFoundError{App: app, Suggestions: suggest(app, installed)}
			if cands, ok := LookupApp(app); ok {
				nf.Package = cands[0]
				nf.Suggestions = without(nf.Suggestions, AppName(cands[0]))
			} else if looksLikePackage(app) {
				nf.Package = app
			}
			return "", nf
		}
	}
	panic("unreachable")
}

func without(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// pickPackage finds the installed package for a name: the table's
// packages, the name itself as a package, then a package whose last (or
// any) segment equals the name.
func pickPackage(app string, installed []string) (string, bool) {
	has := make(map[string]bool, len(installed))
	for _, p := range installed {
		has[p] = true
	}
	if cands, ok := LookupApp(app); ok {
		for _, c := range cands {
			if has[c] {
				return c, true
			}
		}
	}
	if has[app] {
		return app, true
	}
	q := normName(app)
	if q == "" {
		return "", false
	}
	for _, p := range installed {
		if normName(p[strings.LastIndexByte(p, '.')+1:]) == q {
			return p, true
		}
	}
	for _, p := range installed {
		for _, seg := range strings.Split(p, ".")[1:] {
			if normName(seg) == q {
				return p, true
			}
		}
	}
	return "", false
}

func (d *adbDevice) Launch(ctx context.Context, app string) error {
	pkg, err := d.ResolveApp(ctx, app)
	if err != nil {
		var nf *AppNotFoundError
		if errors.As(err, &nf) {
			return err
		}
		return notSent(err)
	}
	cmd := "monkey -p " + adb.Quote(pkg) + " -c android.intent.category.LAUNCHER 1"
	out, err := d.runInput(ctx, cmd)
	if err != nil {
		err = fmt.Errorf("device %s: %s: %w", d.serial, cmd, err)
		if adb.NotStarted(err) {
			return notSent(err)
		}
		return err
	}
	if strings.Contains(out, "No activities found") || strings.Contains(out, "monkey aborted") {
		installed, _ := d.packages(ctx, false)
		return &AppNotFoundError{App: app, Package: pkg, Suggestions: without(suggest(app, installed), AppName(pkg))}
	}
	if commandFailed(out) && !strings.Contains(out, "Events injected") {
		return fmt.Errorf("device %s: launching %s failed: %s", d.serial, pkg, clip(out))
	}
	_, err = d.Settle(ctx)
	return sent(err)
}

func (d *adbDevice) Type(ctx context.Context, text string) error {
	out, err := d.shell(ctx, "settings get secure default_input_method")
	if err != nil {
		return notSent(fmt.Errorf("device %s: reading the input method: %w", d.serial, err))
	}
	prev := strings.TrimSpace(out)
	restore := func() error { return nil }
	if prev != AdbIME {
		if err := d.selectAdbIME(ctx); err != nil {
			if errors.Is(err, ErrIMENotInstalled) {
				return err
			}
			// Switching keyboards types nothing into the field.
			return notSent(err)
		}
		if !d.opts.KeepIME && prev != "" && prev != "null" && !commandFailed(prev) {
			restore = func() error {
				// Restore even when typing failed or the context ended.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				defer cancel()
				return d.send(rctx, "ime set "+adb.Quote(prev))
			}
		}
	}
	if err := d.enterText(ctx, text); err != nil {
		if rerr := restore(); rerr != nil {
			d.log.Warn("could not restore the input method", "ime", prev, "err", rerr)
		}
		return err
	}
	// Restore before settling, so the wait covers the keyboard switch too.
	if err := restore(); err != nil {
		return sent(fmt.Errorf("device %s: text entered, but restoring the input method %s failed: %w", d.serial, prev, err))
	}
	_, err = d.Settle(ctx)
	return sent(err)
}

// enterText replaces the focused field's text through ADB Keyboard
// broadcasts; the text travels base64-encoded so any Unicode survives the
// shell.
func (d *adbDevice) enterText(ctx context.Context, text string) error {
	if err := d.send(ctx, "am broadcast -a ADB_CLEAR_TEXT"); err != nil {
		return err
	}
	if text == "" {
		return nil
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(text))
	// The field was cleared: typing again clears it again.
	return maybeSent(d.send(ctx, "am broadcast -a ADB_INPUT_B64 --es msg "+adb.Quote(b64)))
}

// selectAdbIME makes the ADB Keyboard the current input method.
func (d *adbDevice) selectAdbIME(ctx context.Context) error {
	d.mu.Lock()
	known := d.imeOK
	d.mu.Unlock()
	if !known {
		out, err := d.shell(ctx, "ime list -s")
		if err != nil {
			return fmt.Errorf("device %s: ime list: %w", d.serial, err)
		}
		if !strings.Contains(out, AdbIME) {
			pk, err := d.shell(ctx, "pm list packages com.android.adbkeyboard")
			if err != nil {
				return fmt.Errorf("device %s: pm list packages: %w", d.serial, err)
			}
			if !strings.Contains(pk, "package:com.android.adbkeyboard") {
				return fmt.Errorf("device %s: %w", d.serial, ErrIMENotInstalled)
			}
		}
	}
	out, err := d.shell(ctx, "ime enable "+AdbIME)
	if err != nil {
		return fmt.Errorf("device %s: ime enable: %w", d.serial, err)
	}
	if strings.Contains(out, "Unknown input method") || strings.Contains(out, "cannot be enabled") {
		return fmt.Errorf("device %s: %w (phone said: %s)", d.serial, ErrIMENotInstalled, clip(out))
	}
	if err := d.send(ctx, "ime set "+AdbIME); err != nil {
		return err
	}
	d.mu.Lock()
	d.imeOK = true
	d.mu.Unlock()
	return nil
}

func (d *adbDevice) CurrentApp(ctx context.Context) (App, error) {
	out, err := d.shell(ctx, "dumpsys window")
	if err != nil {
		return App{}, fmt.Errorf("device %s: dumpsys window: %w", d.serial, err)
	}
	pkg, act, ok := parseFocus(out)
	if !ok {
		return App{}, fmt.Errorf("device %s: no focused window in `dumpsys window` output (is the screen locked?): %q", d.serial, clip(out))
	}
	name := AppName(pkg)
	if name == "" {
		name = pkg
	}
	return App{Package: pkg, Name: name, Activity: act}, nil
}

func (d *adbDevice) ScreenSize(ctx context.Context) (int, int, error) {
	out, err := d.shell(ctx, "wm size")
	if err != nil {
		return 0, 0, fmt.Errorf("device %s: wm size: %w", d.serial, err)
	}
	w, h, err := parseWmSize(out)
	if err != nil {
		return 0, 0, fmt.Errorf("device %s: %w", d.serial, err)
	}
	return w, h, nil
}

func (d *adbDevice) UITree(ctx context.Context) ([]uitree.Element, error) {
	out, err := d.c.Exec(ctx, d.serial, "uiautomator dump /dev/tty")
	if err != nil {
		return nil, fmt.Errorf("device %s: uiautomator dump: %w", d.serial, err)
	}
	elems, perr := uitree.ParseXML(out)
	if perr == nil {
		return elems, nil
	}
	if !errors.Is(perr, uitree.ErrNoHierarchy) {
		return nil, fmt.Errorf("device %s: %w", d.serial, perr)
	}
	// Some phones refuse /dev/tty: dump to a file and pull it.
	const path = "/sdcard/window_dump.xml"
	msg, err := d.shell(ctx, "uiautomator dump "+path)
	if err != nil {
		return nil, fmt.Errorf("device %s: uiautomator dump: %w", d.serial, err)
	}
	data, err := d.c.Pull(ctx, d.serial, path)
	if err != nil {
		return nil, fmt.Errorf("device %s: uiautomator dump to /dev/tty printed %q and to %s printed %q; pulling it: %w",
			d.serial, clip(string(out)), path, clip(msg), err)
	}
	elems, err = uitree.ParseXML(data)
	if err != nil {
		return nil, fmt.Errorf("device %s: %w", d.serial, err)
	}
	return elems, nil
}

var pngSig = []byte("\x89PNG\r\n\x1a\n")

// secureReason is how a sensitive screenshot is explained.
const secureReason = "screenshot unavailable (secure screen)"

// checkPNG validates screencap -p output. It returns the PNG (leading
// noise removed) and its size, or the reason it is not a usable image.
func checkPNG(out []byte) (Screenshot, string) {
	if len(out) == 0 {
		return Screenshot{}, secureReason + ": screencap returned nothing"
	}
	if bytes.Contains(out[:min(len(out), 256)], []byte("Status: -1")) {
		return Screenshot{}, secureReason + ": screencap failed (Status: -1)"
	}
	// Some phones print a warning line before the image.
	i := bytes.Index(out[:min(len(out), 1024)], pngSig)
	if i < 0 {
		return Screenshot{}, fmt.Sprintf("%s: screencap output is not a PNG: %q", secureReason, clip(string(out[:min(len(out), 80)])))
	}
	out = out[i:]
	cfg, err := png.DecodeConfig(bytes.NewReader(out))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return Screenshot{}, fmt.Sprintf("%s: screencap PNG is unreadable: %v", secureReason, err)
	}
	// A black screen compresses to almost nothing (13-15 KB at 1080x2400);
	// only images under a quarter of a byte per pixel are decoded to check
	// for it, so normal captures cost no decode.
	if len(out) < max(4<<10, cfg.Width*cfg.Height/64) && allBlack(out) {
		return Screenshot{}, secureReason + ": screenshot is all black"
	}
	return Screenshot{PNG: out, Width: cfg.Width, Height: cfg.Height}, ""
}

// allBlack reports whether a PNG decodes to black pixels only.
func allBlack(data []byte) bool {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return false
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r > 0x0808 || g > 0x0808 || bl > 0x0808 {
				return false
			}
		}
	}
	return true
}

func (d *adbDevice) Screenshot(ctx context.Context) (Screenshot, error) {
	var reason string
	for attempt := 0; attempt < 2; attempt++ {
		out, err := d.c.Exec(ctx, d.serial, "screencap -p")
		if err != nil {
			return Screenshot{}, fmt.Errorf("device %s: screencap: %w", d.serial, err)
		}
		var shot Screenshot
		shot, reason = checkPNG(out)
		if reason == "" {
			return shot, nil
		}
		d.log.Debug("screencap unusable", "attempt", attempt+1, "reason", reason)
	}
	shot := Screenshot{Sensitive: true, Reason: reason}
	if w, h, err := d.ScreenSize(ctx); err == nil {
		shot.Width, shot.Height = w, h
	}
	return shot, nil
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
