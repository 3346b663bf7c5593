package phonesim

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"

	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Colours of the simulated UI (0xRRGGBB).
const (
	colBG       = 0xffffff
	colBar      = 0xf1f3f4
	colStatus   = 0xe8eaed
	colText     = 0x202124
	colGrey     = 0x5f6368
	colHint     = 0x80868b
	colPrimary  = 0x1a73e8
	colTrackOn  = 0x8ab4f8
	colTrackOff = 0xbdc1c6
	colDivider  = 0xe0e0e0
	colField    = 0xf8f9fa
	colError    = 0xc5221f
	colBubbleIn = 0xe8eaed
	colBubbleMe = 0xd2e3fc
	colShadow   = 0xbdc1c6
)

func rgb(c uint32) color.RGBA {
	return color.RGBA{R: uint8(c >> 16), G: uint8(c >> 8), B: uint8(c), A: 0xff}
}

var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	reg, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	bold, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{reg, bold}, err
})

type faceKey struct {
	bold bool
	size int
}

// renderer draws screens and caches their PNG encodings by content hash.
// Font faces are not safe for concurrent use, so one mutex covers drawing.
type renderer struct {
	w, h  int
	mu    sync.Mutex
	faces map[faceKey]font.Face
	cache map[uint64][]byte
	order []uint64
	// The last raw capture and its screen's hash: a phone is captured
	// again and again on the same screen, and drawing it is most of a
	// raw capture's cost.
	rawKey uint64
	raw    []byte
	// The home screen's photo wallpaper, drawn once for its seed.
	paper     *image.RGBA
	paperSeed uint64
}

const renderCacheSize = 48

func newRenderer(w, h int) *renderer {
	return &renderer{w: w, h: h, faces: map[faceKey]font.Face{}, cache: map[uint64][]byte{}}
}

func (r *renderer) face(bold bool, size int) font.Face {
	k := faceKey{bold, size}
	if f, ok := r.faces[k]; ok {
		return f
	}
	fs, err := fonts()
	if err != nil {
		panic(fmt.Sprintf("phonesim: embedded Go fonts do not parse: %v", err))
	}
	f := fs[0]
	if bold {
		f = fs[1]
	}
	primary, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("phonesim: font face %d px: %v", size, err))
	}
	set, err := cjkGlyphs()
	if err != nil {
		panic(err.Error())
	}
	face := &withCJK{primary: primary, cjk: &cjkFace{set: set, size: size, bold: bold, cache: map[rune]*image.Alpha{}}}
	r.faces[k] = face
	return face
}

// hash identifies everything that affects the pixels of a screen.
func (s *screen) hash() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %d %q %t %+v %q\n", s.w, s.h, s.density, s.keyboard, s.asleep, s.status, s.clock)
	if s.wallpaper != 0 {
		fmt.Fprintf(h, "wallpaper %d\n", s.wallpaper)
	}
	for _, w := range s.widgets {
		fmt.Fprintf(h, "%d %q %q %q %v %v %t %t %q %q %x %d\n", w.kind, w.text, w.desc, w.id, w.full, w.bounds,
			w.checked, w.focused, w.value, w.hint, w.color, w.level)
	}
	return h.Sum64()
}

// PNG returns the screen as PNG bytes, from the cache when it was drawn before.
func (r *renderer) PNG(s *screen) ([]byte, error) {
	key := s.hash()
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.cache[key]; ok {
		return b, nil
	}
	img := r.draw(s)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("phonesim: encode screenshot: %w", err)
	}
	if len(r.order) >= renderCacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[key] = buf.Bytes()
	r.order = append(r.order, key)
	return buf.Bytes(), nil
}

// Raw returns what `screencap` without -p writes on Android 9 and later: a
// 16-byte header (width, height, pixel format 1 = RGBA_8888, colour space
// 1 = sRGB, little-endian u32s) followed by the RGBA pixels, rows without
// padding.
func (r *renderer) Raw(s *screen) []byte {
	key := s.hash()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.raw != nil && r.rawKey == key {
		return r.raw
	}
	img := r.draw(s)
	out := make([]byte, 16, 16+len(img.Pix))
	binary.LittleEndian.PutUint32(out[0:], uint32(img.Rect.Dx()))
	binary.LittleEndian.PutUint32(out[4:], uint32(img.Rect.Dy()))
	binary.LittleEndian.PutUint32(out[8:], 1)
	binary.LittleEndian.PutUint32(out[12:], 1)
	out = append(out, img.Pix...)
	r.rawKey, r.raw = key, out
	return out
}

func fill(dst *image.RGBA, r image.Rectangle, c uint32) {
	r = r.Intersect(dst.Bounds())
	col := rgb(c)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		off := dst.PixOffset(r.Min.X, y)
		for x := r.Min.X; x < r.Max.X; x++ {
			dst.Pix[off], dst.Pix[off+1], dst.Pix[off+2], dst.Pix[off+3] = col.R, col.G, col.B, col.A
			off += 4
		}
	}
}

// fillRound fills r with corners of radius rad.
// dim darkens r to half its brightness, as a dialog's scrim does.
func dim(dst *image.RGBA, r image.Rectangle) {
	r = r.Intersect(dst.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[dst.PixOffset(r.Min.X, y):dst.PixOffset(r.Max.X, y)]
		for i := 0; i+3 < len(row); i += 4 {
			row[i], row[i+1], row[i+2] = row[i]/2, row[i+1]/2, row[i+2]/2
		}
	}
}

func fillRound(dst *image.RGBA, r image.Rectangle, rad int, c uint32) {
	rad = min(rad, r.Dx()/2, r.Dy()/2)
	clip := r.Intersect(dst.Bounds())
	col := rgb(c)
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		for x := clip.Min.X; x < clip.Max.X; x++ {
			cx, cy := x, y
			switch {
			case x < r.Min.X+rad:
				cx = r.Min.X + rad
			case x >= r.Max.X-rad:
				cx = r.Max.X - rad - 1
			}
			switch {
			case y < r.Min.Y+rad:
				cy = r.Min.Y + rad
			case y >= r.Max.Y-rad:
				cy = r.Max.Y - rad - 1
			}
			dx, dy := x-cx, y-cy
			if dx*dx+dy*dy <= rad*rad {
				dst.SetRGBA(x, y, col)
			}
		}
	}
}

func fillCircle(dst *image.RGBA, cx, cy, rad int, c uint32) {
	fillRound(dst, image.Rect(cx-rad, cy-rad, cx+rad+1, cy+rad+1), rad, c)
}

// fit shortens s with an ellipsis until it is at most maxW pixels wide.
func fit(f font.Face, s string, maxW int) string {
	if maxW <= 0 || font.MeasureString(f, s).Ceil() <= maxW {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 {
		rs = rs[:len(rs)-1]
		t := string(rs) + "…"
		if font.MeasureString(f, t).Ceil() <= maxW {
			return t
		}
	}
	return ""
}

// drawable is s with the characters the embedded fonts have no glyph
// for drawn as their look-alikes: Settings' non-breaking hyphen (U+2011,
// "Wi‑Fi") as a hyphen.
func drawable(s string) string { return strings.ReplaceAll(s, "\u2011", "-") }

// text draws s with its left edge at x, vertically centred on midY.
func (r *renderer) text(dst *image.RGBA, bold bool, size int, c uint32, x, midY, maxW int, s string) {
	f := r.face(bold, size)
	s = drawable(s)
	s = fit(f, s, maxW)
	m := f.Metrics()
	base := midY + (m.Ascent.Ceil()-m.Descent.Ceil())/2
	d := font.Drawer{Dst: dst, Src: image.NewUniform(rgb(c)), Face: f, Dot: fixed.P(x, base)}
	d.DrawString(s)
}

// centered draws s centred in b.
func (r *renderer) centered(dst *image.RGBA, bold bool, size int, c uint32, b image.Rectangle, s string) {
	f := r.face(bold, size)
	s = drawable(s)
	s = fit(f, s, b.Dx())
	w := font.MeasureString(f, s).Ceil()
	r.text(dst, bold, size, c, b.Min.X+(b.Dx()-w)/2, (b.Min.Y+b.Max.Y)/2, 0, s)
}

// wrap splits s into lines no wider than maxW.
func wrap(f font.Face, s string, maxW int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			try := word
			if line != "" {
				try = line + " " + word
			}
			if line != "" && font.MeasureString(f, try).Ceil() > maxW {
				lines = append(lines, line)
				try = word
			}
			line = try
		}
		lines = append(lines, line)
	}
	return lines
}

// draw paints a screen at the renderer's size: laid out in layout units,
// then scaled to the screen's pixels when its density is not the layout's.
// Callers hold r.mu.
func (r *renderer) draw(s *screen) *image.RGBA {
	img := r.drawLayout(s)
	if img.Rect.Dx() == r.w && img.Rect.Dy() == r.h {
		return img
	}
	out := image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	draw.BiLinear.Scale(out, out.Rect, img, img.Rect, draw.Src, nil)
	return out
}

// drawLayout paints a screen in layout units.
func (r *renderer) drawLayout(s *screen) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, s.w, s.h))
	if s.asleep {
		fill(img, img.Bounds(), 0)
		return img
	}
	onPhoto := s.wallpaper != 0
	if onPhoto {
		copy(img.Pix, r.wallpaperFor(s.wallpaper, s.w, s.h).Pix)
	} else {
		fill(img, img.Bounds(), colBG)
	}
	// Text drawn on the photo is white, as a launcher draws it.
	onBG := uint32(colText)
	if onPhoto {
		onBG = colBG
	}
	for _, w := range s.widgets {
		if w.kind == kAppBar {
			fill(img, image.Rect(0, statusBarH, s.w, contentTop), colBar)
		}
	}
	var clip *image.RGBA // current list viewport
	clipDepth := 1       // the list's depth: what sits deeper is in it
	for _, w := range s.widgets {
		full := image.Rect(w.full.X1, w.full.Y1, w.full.X2, w.full.Y2)
		if clip != nil && clipDepth > 1 && w.depth <= clipDepth {
			clip = nil // a nested list's siblings after it are outside it
		}
		dst := img
		if w.depth > clipDepth && clip != nil {
			dst = clip
		}
		switch w.kind {
		case kList:
			clip, clipDepth = img.SubImage(full).(*image.RGBA), max(w.depth, 1)
		case kAppBar:
			r.text(img, true, 60, colText, full.Min.X, (full.Min.Y+full.Max.Y)/2, full.Dx(), w.text)
		case kUp:
			r.centered(img, true, 64, colText, full, "←")
		case kRow:
			r.text(dst, false, 46, colText, full.Min.X+48, (full.Min.Y+full.Max.Y)/2, full.Dx()-96, w.text)
			fill(dst, image.Rect(full.Min.X+48, full.Max.Y-2, full.Max.X, full.Max.Y), colDivider)
		case kSwitchRow:
			r.text(dst, false, 46, colText, full.Min.X+48, (full.Min.Y+full.Max.Y)/2, full.Dx()-320, w.text)
			r.toggle(dst, image.Rect(full.Max.X-220, full.Min.Y+30, full.Max.X-40, full.Max.Y-30), w.checked)
			fill(dst, image.Rect(full.Min.X+48, full.Max.Y-2, full.Max.X, full.Max.Y), colDivider)
		case kSwitch:
			r.toggle(dst, full, w.checked)
		case kText, kSubText:
			c := uint32(colText)
			if strings.HasSuffix(w.id, ":id/error") {
				c = colError
			}
			r.text(dst, false, 42, c, full.Min.X, (full.Min.Y+full.Max.Y)/2, full.Dx(), cmp.Or(w.drawn, w.text))
		case kButton:
			fillRound(dst, full, 28, colPrimary)
			size := 44
			if len(w.text) == 1 {
				size = 64
			}
			r.centered(dst, true, size, colBG, full, w.text)
		case kEdit:
			r.edit(dst, full, w)
		case kIcon:
			cx := (full.Min.X + full.Max.X) / 2
			fillCircle(dst, cx, full.Min.Y+105, 85, w.color)
			letter := string([]rune(w.text)[:1])
			r.centered(dst, true, 80, colBG, image.Rect(cx-85, full.Min.Y+20, cx+85, full.Min.Y+190), letter)
			r.centered(dst, false, 38, onBG, image.Rect(full.Min.X, full.Min.Y+220, full.Max.X, full.Min.Y+290), w.text)
		case kBigText:
			r.centered(dst, false, 160, onBG, full, cmp.Or(w.drawn, w.text))
		case kGlyph:
			if d := []rune(w.desc); len(d) > 0 {
				c := uint32(colText)
				if w.disabled {
					c = colGrey
				}
				r.centered(dst, true, 48, c, full, string(d[:1]))
			}
		case kAppIcon:
			cx, cy := (full.Min.X+full.Max.X)/2, (full.Min.Y+full.Max.Y)/2
			rad := min(full.Dx(), full.Dy()) / 2
			fillCircle(dst, cx, cy, rad, w.color)
			if d := []rune(w.desc); len(d) > 0 {
				r.centered(dst, true, rad, colBG, full, string(d[:1]))
			}
		case kIconTitle:
			r.centered(dst, false, 38, onBG, full, w.text)
		case kBanner:
			clip = nil
			fillRound(img, full, 36, colShadow)
			fillRound(img, full.Inset(3), 34, colBG)
			r.text(img, true, 40, colText, full.Min.X+48, full.Min.Y+70, full.Dx()-96, w.text)
			r.text(img, false, 38, colGrey, full.Min.X+48, full.Min.Y+160, full.Dx()-96, w.desc)
		case kScrim:
			clip = nil
			dim(img, full)
		case kDialog:
			fillRound(img, full, 40, colBG)
		case kSlider:
			r.slider(dst, full, w.level)
		case kSwitchBar:
			c := uint32(colBar)
			if w.checked {
				c = colTrackOn
			}
			fillRound(dst, full, full.Dy()/2, c)
		case kPanel:
			clip = nil
			fill(img, full, colStatus)
		case kTile:
			r.tile(img, full, w)
		case kDot:
			fillCircle(img, (full.Min.X+full.Max.X)/2, (full.Min.Y+full.Max.Y)/2, full.Dx()/2, colGrey)
			if strings.HasSuffix(w.class, "RadialPickerTouchHelper") {
				r.centered(img, true, 48, colBG, full, w.desc) // a dial's number is drawn, not in its text
			}
		case kBubbleIn, kBubbleOut:
			c := uint32(colBubbleIn)
			if w.kind == kBubbleOut {
				c = colBubbleMe
			}
			fillRound(dst, full, 40, c)
			r.text(dst, false, 40, colText, full.Min.X+36, (full.Min.Y+full.Max.Y)/2, full.Dx()-72, w.text)
		}
	}
	r.statusBar(img, s)
	if s.keyboard != "" {
		kb := image.Rect(0, s.h-keyboardH, s.w, s.h)
		fill(img, kb, colStatus)
		fill(img, image.Rect(0, kb.Min.Y, s.w, kb.Min.Y+3), colTrackOff)
		r.centered(img, false, 40, colGrey, kb, s.keyboard)
	}
	return img
}

func (r *renderer) toggle(dst *image.RGBA, b image.Rectangle, on bool) {
	cy := (b.Min.Y + b.Max.Y) / 2
	track := image.Rect(b.Min.X+20, cy-30, b.Max.X-20, cy+30)
	if on {
		fillRound(dst, track, 30, colTrackOn)
		fillCircle(dst, track.Max.X-30, cy, 40, colPrimary)
		return
	}
	fillRound(dst, track, 30, colTrackOff)
	fillCircle(dst, track.Min.X+30, cy, 41, colGrey)
	fillCircle(dst, track.Min.X+30, cy, 38, colBar)
}

// slider draws a SeekBar: the track, the part up to the level filled,
// and the thumb at the level.
func (r *renderer) slider(dst *image.RGBA, b image.Rectangle, level int) {
	cy := (b.Min.Y + b.Max.Y) / 2
	x := b.Min.X + b.Dx()*min(max(level, 0), 100)/100
	fillRound(dst, image.Rect(b.Min.X, cy-12, b.Max.X, cy+12), 12, colTrackOff)
	fillRound(dst, image.Rect(b.Min.X, cy-12, max(x, b.Min.X+24), cy+12), 12, colTrackOn)
	fillCircle(dst, min(max(x, b.Min.X+30), b.Max.X-30), cy, 30, colPrimary)
}

// tile draws a Quick Settings tile: its label over its state, on a
// coloured card when on.
func (r *renderer) tile(dst *image.RGBA, b image.Rectangle, w widget) {
	c := uint32(colBG)
	if w.checked {
		c = colTrackOn
	}
	fillRound(dst, b, 60, c)
	label, state, _ := strings.Cut(cmpOr(w.drawn, w.text), ", ")
	fillCircle(dst, b.Min.X+68, (b.Min.Y+b.Max.Y)/2, 26, colGrey)
	r.text(dst, true, 40, colText, b.Min.X+121, b.Min.Y+80, b.Dx()-160, label)
	r.text(dst, false, 36, colGrey, b.Min.X+121, b.Min.Y+130, b.Dx()-160, state)
}

func (r *renderer) edit(dst *image.RGBA, b image.Rectangle, w widget) {
	fill(dst, b, colField)
	line := 3
	lc := uint32(colHint)
	if w.focused {
		line, lc = 6, colPrimary
	}
	fill(dst, image.Rect(b.Min.X, b.Max.Y-line, b.Max.X, b.Max.Y), lc)
	f := r.face(false, 44)
	x := b.Min.X + 32
	if w.value == "" {
		r.text(dst, false, 44, colHint, x, b.Min.Y+80, b.Dx()-64, w.hint)
		if w.focused {
			fill(dst, image.Rect(x, b.Min.Y+50, x+4, b.Min.Y+110), colPrimary)
		}
		return
	}
	lines := wrap(f, w.value, b.Dx()-64)
	maxLines := max(1, (b.Dy()-40)/64)
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	if b.Dy() < 200 && len(lines) > 0 {
		lines = lines[len(lines)-1:]
	}
	for i, l := range lines {
		r.text(dst, false, 44, colText, x, b.Min.Y+80+i*64, b.Dx()-64, l)
	}
	if w.focused {
		last := lines[len(lines)-1]
		cx := x + font.MeasureString(f, last).Ceil() + 4
		cy := b.Min.Y + 80 + (len(lines)-1)*64
		fill(dst, image.Rect(cx, cy-30, cx+4, cy+30), colPrimary)
	}
}

func (r *renderer) statusBar(img *image.RGBA, s *screen) {
	fill(img, image.Rect(0, 0, s.w, statusBarH), colStatus)
	mid := statusBarH / 2
	r.text(img, true, 36, colText, 40, mid, 0, s.clock)
	// Battery: outline, fill and percentage at the right edge.
	x := s.w - 40
	r.text(img, false, 32, colText, x-80, mid, 0, "100%")
	x -= 100
	fill(img, image.Rect(x-56, mid-16, x, mid+16), colText)
	fill(img, image.Rect(x-52, mid-12, x-4, mid+12), colText)
	fill(img, image.Rect(x, mid-7, x+5, mid+7), colText)
	x -= 80
	var icons []string
	if s.status.Airplane {
		icons = append(icons, "Airplane")
	}
	if s.status.Bluetooth {
		icons = append(icons, "BT")
	}
	if s.status.WiFi {
		icons = append(icons, "Wi-Fi")
	}
	f := r.face(true, 30)
	for _, ic := range icons {
		w := font.MeasureString(f, ic).Ceil()
		r.text(img, true, 30, colText, x-w, mid, 0, ic)
		x -= w + 28
	}
}
