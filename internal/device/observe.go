package device

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func (d *adbDevice) CurrentApp(ctx context.Context) (App, error) {
	out, err := d.shell(ctx, "dumpsys window")
	if err != nil {
		return App{}, fmt.Errorf("device %s: dumpsys window: %w", d.serial, err)
	}
	f, ok := parseFocus(out)
	if !ok {
		return App{}, fmt.Errorf("device %s: no focused window in `dumpsys window` output (is the screen locked?): %q", d.serial, clip(out))
	}
	if f.window != "" {
		// The shade or the keyguard covers the app: that is what shows.
		return App{Package: f.pkg, Name: SystemUIName, Window: f.window}, nil
	}
	// The name a person sees on this phone, else the built-in table's.
	name := d.AppLabel(ctx, f.pkg)
	if name == "" {
		name = AppName(f.pkg)
	}
	if name == "" {
		name = f.pkg
	}
	return App{Package: f.pkg, Name: name, Activity: f.activity}, nil
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

// dumpAttempts bounds the dumps one UITree makes when the screen does
// not go idle: each already waited uiautomator's whole idle timeout (ten
// seconds on a phone), and an animation that outlasts two of them is not
// waited out (docs/phones.md#a-phones-costs).
const dumpAttempts = 2

func (d *adbDevice) UITree(ctx context.Context) ([]uitree.Element, error) {
	var err error
	for attempt := 1; attempt <= dumpAttempts; attempt++ {
		var elems []uitree.Element
		if elems, err = d.dumpTree(ctx); !errors.Is(err, ErrNotIdle) {
			return elems, err
		}
		d.log.Debug("uiautomator found no idle state", "attempt", attempt)
	}
	return nil, fmt.Errorf("device %s: uiautomator dump, %d times: %w", d.serial, dumpAttempts, err)
}

// notIdle reports whether uiautomator's output says the screen did not
// go idle. It says so on stderr and exits 0, writing no file, so only
// its words tell (AOSP DumpCommand).
func notIdle(out []byte) bool {
	return bytes.Contains(out[:min(len(out), 512)], []byte("could not get idle state"))
}

// dumpTree runs uiautomator once: to /dev/tty, else to a file it pulls.
func (d *adbDevice) dumpTree(ctx context.Context) ([]uitree.Element, error) {
	out, err := d.c.Exec(ctx, d.serial, "uiautomator dump /dev/tty")
	if err != nil {
		return nil, fmt.Errorf("device %s: uiautomator dump: %w", d.serial, err)
	}
	if notIdle(out) {
		return nil, ErrNotIdle
	}
	elems, perr := uitree.ParseXML(out)
	if perr == nil {
		return elems, nil
	}
	if !errors.Is(perr, uitree.ErrNoHierarchy) {
		return nil, fmt.Errorf("device %s: %w", d.serial, perr)
	}
	// Some phones refuse /dev/tty: dump to a file and pull it. The old
	// file goes first, so a dump that writes nothing is never read as
	// this screen's.
	const path = "/sdcard/window_dump.xml"
	msg, err := d.shell(ctx, "rm -f "+path+"; uiautomator dump "+path)
	if err != nil {
		return nil, fmt.Errorf("device %s: uiautomator dump: %w", d.serial, err)
	}
	if notIdle([]byte(msg)) {
		return nil, ErrNotIdle
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
	return d.unusableShot(ctx, reason), nil
}

// unusableShot is the screenshot of a screen no capture could read (a
// secure screen): no image, the reason, and the screen's size when the
// phone tells it.
func (d *adbDevice) unusableShot(ctx context.Context, reason string) Screenshot {
	shot := Screenshot{Sensitive: true, Reason: reason}
	if w, h, err := d.ScreenSize(ctx); err == nil {
		shot.Width, shot.Height = w, h
	}
	return shot
}
