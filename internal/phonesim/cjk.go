package phonesim

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"sync"

	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// cjkFont is a bitmap font of GB2312's level-1 hanzi, its punctuation and
// the CJK text this repository uses, drawn from Noto Sans CJK SC (SIL OFL
// 1.1, fonts/OFL.txt) by fonts/gen; fonts/README.md says how. The Go fonts
// have no CJK glyphs, so without it Chinese text draws as empty boxes.
//
//go:embed fonts/cjk.bin.gz
var cjkFont []byte

// cjkGlyph is one glyph of the bitmap font, in pixels at its em size:
// the bitmap's top-left corner relative to the dot, its size, the advance
// and the coverage bits, row after row.
type cjkGlyph struct {
	adv, x0, y0, w, h int
	bits              []byte
}

type cjkSet struct {
	em, depth int // pixel size drawn at; bits per pixel
	glyphs    map[rune]cjkGlyph
}

var cjkGlyphs = sync.OnceValues(func() (*cjkSet, error) { return parseCJK(cjkFont) })

// parseCJK reads the font fonts/gen writes: "PSCJK1", the em size (u16),
// the bits per pixel (u8), the glyph count (u32), then each glyph's rune
// (u32), advance (u8), x0, y0 (i8), width, height (u8) and bits.
func parseCJK(gz []byte) (*cjkSet, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("phonesim: CJK font: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("phonesim: CJK font: %w", err)
	}
	if len(raw) < 13 || string(raw[:6]) != "PSCJK1" {
		return nil, errors.New("phonesim: CJK font: not a PSCJK1 file; regenerate it (fonts/README.md)")
	}
	s := &cjkSet{em: int(binary.LittleEndian.Uint16(raw[6:])), depth: int(raw[8]), glyphs: map[rune]cjkGlyph{}}
	n := int(binary.LittleEndian.Uint32(raw[9:]))
	p := raw[13:]
	for range n {
		if len(p) < 9 {
			return nil, errors.New("phonesim: CJK font: truncated")
		}
		r := rune(binary.LittleEndian.Uint32(p))
		g := cjkGlyph{adv: int(p[4]), x0: int(int8(p[5])), y0: int(int8(p[6])), w: int(p[7]), h: int(p[8])}
		size := (g.w*g.h*s.depth + 7) / 8
		if len(p) < 9+size {
			return nil, errors.New("phonesim: CJK font: truncated")
		}
		g.bits, p = p[9:9+size], p[9+size:]
		s.glyphs[r] = g
	}
	return s, nil
}

// alpha is the glyph's coverage as an image.
func (g cjkGlyph) alpha(depth int) *image.Alpha {
	img := image.NewAlpha(image.Rect(0, 0, g.w, g.h))
	top := byte(1<<depth - 1)
	for i := range g.w * g.h {
		bit := i * depth
		v := g.bits[bit/8] >> (bit % 8) & top
		img.Pix[i] = v * (255 / top)
	}
	return img
}

// cjkFace draws the bitmap font at one pixel size, scaling each glyph
// once. Not safe for concurrent use, like the faces it stands beside.
type cjkFace struct {
	set   *cjkSet
	size  int
	bold  bool
	cache map[rune]*image.Alpha
}

func (f *cjkFace) scale(v int) int { return (v*f.size + f.set.em/2) / f.set.em }

func (f *cjkFace) glyph(r rune) (cjkGlyph, *image.Alpha, bool) {
	g, ok := f.set.glyphs[r]
	if !ok {
		return g, nil, false
	}
	if m, ok := f.cache[r]; ok {
		return g, m, true
	}
	w, h := max(1, f.scale(g.w)), max(1, f.scale(g.h))
	m := image.NewAlpha(image.Rect(0, 0, w, h))
	draw.BiLinear.Scale(m, m.Rect, g.alpha(f.set.depth), image.Rect(0, 0, g.w, g.h), draw.Src, nil)
	if f.bold {
		embolden(m, max(1, f.size/24))
	}
	f.cache[r] = m
	return g, m, true
}

// embolden thickens strokes by d pixels to the right, as a bold face's
// wider stems do.
func embolden(m *image.Alpha, d int) {
	w := m.Rect.Dx()
	for y := range m.Rect.Dy() {
		row := m.Pix[y*m.Stride : y*m.Stride+w]
		for x := w - 1; x >= 0; x-- {
			for k := 1; k <= d && x-k >= 0; k++ {
				row[x] = max(row[x], row[x-k])
			}
		}
	}
}

// withCJK is a face that draws what primary has and falls back to the CJK
// bitmap font for the rest; a character neither has draws as primary's
// missing-glyph box.
type withCJK struct {
	primary font.Face
	cjk     *cjkFace
}

var _ font.Face = (*withCJK)(nil)

func (f *withCJK) has(r rune) bool {
	_, ok := f.cjk.set.glyphs[r]
	return ok
}

func (f *withCJK) Close() error { return f.primary.Close() }

func (f *withCJK) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	if !f.has(r) {
		return f.primary.Glyph(dot, r)
	}
	g, m, _ := f.cjk.glyph(r)
	x, y := dot.X.Round()+f.cjk.scale(g.x0), dot.Y.Round()+f.cjk.scale(g.y0)
	return m.Rect.Add(image.Pt(x, y)), m, image.Point{}, fixed.I(f.cjk.scale(g.adv)), true
}

func (f *withCJK) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	if !f.has(r) {
		return f.primary.GlyphBounds(r)
	}
	g := f.cjk.set.glyphs[r]
	s := f.cjk.scale
	return fixed.R(s(g.x0), s(g.y0), s(g.x0+g.w), s(g.y0+g.h)), fixed.I(s(g.adv)), true
}

func (f *withCJK) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if !f.has(r) {
		return f.primary.GlyphAdvance(r)
	}
	return fixed.I(f.cjk.scale(f.cjk.set.glyphs[r].adv)), true
}

func (f *withCJK) Kern(r0, r1 rune) fixed.Int26_6 {
	if f.has(r0) || f.has(r1) {
		return 0
	}
	return f.primary.Kern(r0, r1)
}

func (f *withCJK) Metrics() font.Metrics { return f.primary.Metrics() }
