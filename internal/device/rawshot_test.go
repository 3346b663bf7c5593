package device

import (
	"encoding/binary"
	"strings"
	"testing"
)

func rawOut(w, h int, format uint32, header int, px func(i int) []byte) []byte {
	out := make([]byte, header)
	binary.LittleEndian.PutUint32(out[0:], uint32(w))
	binary.LittleEndian.PutUint32(out[4:], uint32(h))
	binary.LittleEndian.PutUint32(out[8:], format)
	if header == 16 {
		binary.LittleEndian.PutUint32(out[12:], 1)
	}
	for i := range w * h {
		out = append(out, px(i)...)
	}
	return out
}

// Raw captures with and without the colour-space field, in each pixel
// format phones use, read as the same opaque RGBA pixels.
func TestParseRawFormats(t *testing.T) {
	want := []byte{200, 100, 50, 0xff}
	for _, c := range []struct {
		name   string
		format uint32
		header int
		px     []byte
	}{
		{"RGBA_8888, Android 9+ header", rawRGBA8888, 16, []byte{200, 100, 50, 0xff}},
		{"RGBA_8888, older header", rawRGBA8888, 12, []byte{200, 100, 50, 0xff}},
		{"RGBX_8888", rawRGBX8888, 16, []byte{200, 100, 50, 0}},
		{"BGRA_8888", rawBGRA8888, 16, []byte{50, 100, 200, 0xff}},
		{"RGB_888", rawRGB888, 16, []byte{200, 100, 50}},
	} {
		out := rawOut(3, 2, c.format, c.header, func(int) []byte { return c.px })
		shot, reason, readable := parseRaw(out)
		if !readable || reason != "" || shot.Pixels == nil || shot.Width != 3 || shot.Height != 2 {
			t.Fatalf("%s: readable %v, reason %q, %dx%d", c.name, readable, reason, shot.Width, shot.Height)
		}
		for i := 0; i < len(shot.Pixels.Pix); i += 4 {
			if got := shot.Pixels.Pix[i : i+4]; string(got) != string(want) {
				t.Fatalf("%s: pixel %d is %v, want %v", c.name, i/4, got, want)
			}
		}
	}
	// RGB_565: white stays white.
	shot, _, _ := parseRaw(rawOut(2, 2, rawRGB565, 16, func(int) []byte { return []byte{0xff, 0xff} }))
	if shot.Pixels == nil || shot.Pixels.Pix[0] != 0xff || shot.Pixels.Pix[1] != 0xff || shot.Pixels.Pix[2] != 0xff {
		t.Fatalf("RGB_565 white read as %v", shot.Pixels)
	}
}

// A secure screen (nothing written, Status: -1, all black) is a reason,
// not an image; a format the reader does not know is unreadable, so the
// device falls back to screencap -p.
func TestParseRawRefusals(t *testing.T) {
	for _, c := range []struct {
		name     string
		out      []byte
		readable bool
		reason   string
	}{
		{"empty", nil, true, "returned nothing"},
		{"status", []byte("screencap: Capture failed: Status: -1\n"), true, "Status: -1"},
		{"black", rawOut(4, 4, rawRGBA8888, 16, func(int) []byte { return []byte{0, 0, 0, 0xff} }), true, "all black"},
		{"fp16", rawOut(2, 2, 0x16, 16, func(int) []byte { return make([]byte, 8) }), false, "pixel format 22"},
		{"truncated", rawOut(4, 4, rawRGBA8888, 16, func(int) []byte { return []byte{9, 9, 9, 9} })[:40], false, "bytes"},
	} {
		shot, reason, readable := parseRaw(c.out)
		if shot.Pixels != nil || readable != c.readable || !strings.Contains(reason, c.reason) {
			t.Errorf("%s: readable %v, reason %q; want readable %v and a reason with %q", c.name, readable, reason, c.readable, c.reason)
		}
	}
}
