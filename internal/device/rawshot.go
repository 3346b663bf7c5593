package device

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"sync"
)

// PixelCapturer is a device that can capture the screen as raw pixels
// (`screencap` without -p): no PNG is compressed on the phone nor
// decompressed by the worker, which was half of a step's CPU
// (docs/design.md §3). ScreenPixels returns a Screenshot with Pixels set,
// or with PNG set when the phone's raw form is one it cannot read, or
// Sensitive as Screenshot does.
type PixelCapturer interface {
	ScreenPixels(ctx context.Context) (Screenshot, error)
}

var _ PixelCapturer = (*adbDevice)(nil)

// rawBuffers keeps the buffers of raw captures given back by Release.
var rawBuffers sync.Pool

// rawBuffer is a buffer of at least n bytes' capacity, from rawBuffers
// when one fits.
func rawBuffer(n int) []byte {
	if b, ok := rawBuffers.Get().(*[]byte); ok && cap(*b) >= n {
		return *b
	}
	return make([]byte, 0, n+512)
}

// Release gives the buffer of a raw capture back for the next capture to
// reuse (a 10 MB allocation and its zeroing on every step otherwise): call
// it once, when nothing reads shot.Pixels any more. Any other screenshot
// is left alone.
func Release(shot Screenshot) {
	if shot.raw != nil {
		b := shot.raw
		rawBuffers.Put(&b)
	}
}

// Raw screencap pixel formats (Android's PixelFormat values).
const (
	rawRGBA8888 = 1
	rawRGBX8888 = 2
	rawRGB888   = 3
	rawRGB565   = 4
	rawBGRA8888 = 5
)

func (d *adbDevice) ScreenPixels(ctx context.Context) (Screenshot, error) {
	d.mu.Lock()
	off, hint := d.rawOff, d.rawSize
	d.mu.Unlock()
	if off {
		return d.Screenshot(ctx)
	}
	var reason string
	for attempt := 0; attempt < 2; attempt++ {
		out, err := d.c.ExecInto(ctx, d.serial, "screencap", rawBuffer(hint))
		if err != nil {
			rawBuffers.Put(&out)
			return Screenshot{}, fmt.Errorf("device %s: screencap: %w", d.serial, err)
		}
		var shot Screenshot
		var readable bool
		shot, reason, readable = parseRaw(out)
		if shot.Pixels != nil {
			shot.raw = out
		} else {
			rawBuffers.Put(&out)
		}
		if !readable {
			// A pixel format this reader does not know (a wide-gamut
			// or HDR buffer): PNG from now on.
			d.mu.Lock()
			d.rawOff = true
			d.mu.Unlock()
			d.log.Debug("raw screencap unreadable: using screencap -p", "reason", reason)
			return d.Screenshot(ctx)
		}
		if reason == "" {
			d.mu.Lock()
			d.rawSize = len(out)
			d.mu.Unlock()
			return shot, nil
		}
		d.log.Debug("screencap unusable", "attempt", attempt+1, "reason", reason)
	}
	return d.unusableShot(ctx, reason), nil
}

// parseRaw reads the output of `screencap` without -p: width, height and
// pixel format as little-endian u32s, a fourth u32 (the colour space:
// 0 unknown, 1 sRGB, 2 Display P3) on Android 9 and later, then the rows
// with no padding. It returns the screenshot, or the reason it is not a
// usable image (a secure screen); readable is false when the output looks
// like a capture in a form it cannot convert.
func parseRaw(out []byte) (shot Screenshot, reason string, readable bool) {
	if len(out) == 0 {
		return Screenshot{}, secureReason + ": screencap returned nothing", true
	}
	if bytes.Contains(out[:min(len(out), 256)], []byte("Status: -1")) {
		return Screenshot{}, secureReason + ": screencap failed (Status: -1)", true
	}
	if len(out) < 12 {
		return Screenshot{}, fmt.Sprintf("%s: screencap output is too short for a raw image (%d bytes)", secureReason, len(out)), false
	}
	w := int(binary.LittleEndian.Uint32(out[0:]))
	h := int(binary.LittleEndian.Uint32(out[4:]))
	f := binary.LittleEndian.Uint32(out[8:])
	bpp := 0
	switch f {
	case rawRGBA8888, rawRGBX8888, rawBGRA8888:
		bpp = 4
	case rawRGB888:
		bpp = 3
	case rawRGB565:
		bpp = 2
	}
	if w <= 0 || h <= 0 || w > 1<<14 || h > 1<<14 || bpp == 0 {
		return Screenshot{}, fmt.Sprintf("raw screencap of %d×%d in pixel format %d", w, h, f), false
	}
	n := w * h * bpp
	var pix []byte
	switch len(out) {
	case 16 + n:
		pix = out[16:]
	case 12 + n:
		pix = out[12:]
	default:
		return Screenshot{}, fmt.Sprintf("raw screencap of %d×%d has %d bytes, not %d and a header", w, h, len(out), n), false
	}
	img := toRGBA(pix, w, h, f)
	if allBlackRGBA(img.Pix) {
		return Screenshot{}, secureReason + ": screenshot is all black", true
	}
	return Screenshot{Pixels: img, Width: w, Height: h}, "", true
}

// toRGBA makes the raw pixels an opaque *image.RGBA, in place where the
// layout allows (RGBA and RGBX need no copy at all).
func toRGBA(pix []byte, w, h int, f uint32) *image.RGBA {
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	switch f {
	case rawRGBA8888, rawRGBX8888:
		// The screen is opaque; RGBX leaves alpha undefined.
		if f == rawRGBX8888 {
			for i := 3; i < len(pix); i += 4 {
				pix[i] = 0xff
			}
		}
	case rawBGRA8888:
		for i := 0; i+3 < len(pix); i += 4 {
			pix[i], pix[i+2], pix[i+3] = pix[i+2], pix[i], 0xff
		}
	case rawRGB888:
		img.Pix = make([]byte, 4*w*h)
		for i, j := 0, 0; j+2 < len(pix); i, j = i+4, j+3 {
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = pix[j], pix[j+1], pix[j+2], 0xff
		}
	case rawRGB565:
		img.Pix = make([]byte, 4*w*h)
		for i, j := 0, 0; j+1 < len(pix); i, j = i+4, j+2 {
			v := uint32(binary.LittleEndian.Uint16(pix[j:]))
			r, g, b := v>>11, v>>5&0x3f, v&0x1f
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(r<<3|r>>2), byte(g<<2|g>>4), byte(b<<3|b>>2), 0xff
		}
	}
	return img
}

// allBlackRGBA reports whether no pixel is brighter than 8 in any colour
// (as allBlack judges a PNG). It stops at the first lit pixel, which on a
// real screen comes within the first rows.
func allBlackRGBA(pix []byte) bool {
	for i := 0; i+3 < len(pix); i += 4 {
		if pix[i] > 8 || pix[i+1] > 8 || pix[i+2] > 8 {
			return false
		}
	}
	return true
}
