package phonesim

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// ink counts the pixels of r that are darker than the white background.
func ink(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c, _, _, _ := img.At(x, y).RGBA(); c < 0x8000 {
				n++
			}
		}
	}
	return n
}

// TestChineseTextDraws: the contact 李四 in Messages draws as two
// different glyphs with ink, neither of them the missing-glyph box; a
// character no font has still draws as something visible.
func TestChineseTextDraws(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgMessages)
	e := element(t, p, "李四")
	shot, _, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	// A row's text starts 48 px in, at 46 px; CJK glyphs are square.
	_, midY := e.Bounds.Center()
	x := e.Bounds.X1 + 48
	li, si := image.Rect(x, midY-26, x+46, midY+26), image.Rect(x+46, midY-26, x+92, midY+26)
	nLi, nSi := ink(img, li), ink(img, si)
	if nLi < 60 || nSi < 60 {
		t.Fatalf("ink where 李四 is drawn: %d and %d pixels, want strokes", nLi, nSi)
	}
	if same(img, li, img, si.Min) {
		t.Fatal("李 and 四 draw the same: missing-glyph boxes, not glyphs")
	}

	r := newRenderer(400, 200)
	box := drawn(r, "\ue000") // a private-use character: in no font
	if ink(box, box.Bounds()) == 0 {
		t.Fatal("a character no font has draws nothing")
	}
	li2 := drawn(r, "李")
	if same(li2, li2.Bounds(), box, image.Point{}) {
		t.Fatal("李 draws as the missing-glyph box")
	}
	if w := font.MeasureString(r.face(false, 46), "李四").Ceil(); w < 80 || w > 100 {
		t.Fatalf("李四 at 46 px measures %d px, want about two ems", w)
	}
}

// drawn draws s at 46 px on a white 400×200 image.
func drawn(r *renderer, s string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 400, 200))
	fill(img, img.Bounds(), colBG)
	d := font.Drawer{Dst: img, Src: image.NewUniform(rgb(colText)), Face: r.face(false, 46), Dot: fixed.P(20, 100)}
	d.DrawString(s)
	return img
}

// same reports whether a's rectangle ra and b's rectangle of the same
// size at rb have ink at the same pixels.
func same(a image.Image, ra image.Rectangle, b image.Image, rb image.Point) bool {
	off := rb.Sub(ra.Min)
	for y := ra.Min.Y; y < ra.Max.Y; y++ {
		for x := ra.Min.X; x < ra.Max.X; x++ {
			c1, _, _, _ := a.At(x, y).RGBA()
			c2, _, _, _ := b.At(x+off.X, y+off.Y).RGBA()
			if (c1 < 0x8000) != (c2 < 0x8000) {
				return false
			}
		}
	}
	return true
}

// TestCJKFontCovers: every character of GB2312's level 1 the generator
// was asked for, and the CJK text of the simulated apps, is in the
// embedded font.
func TestCJKFontCovers(t *testing.T) {
	set, err := cjkGlyphs()
	if err != nil {
		t.Fatal(err)
	}
	if len(set.glyphs) < 3755 {
		t.Fatalf("%d glyphs, want at least GB2312's 3755 level-1 hanzi", len(set.glyphs))
	}
	for _, c := range contacts {
		for _, s := range []string{c.Name, c.Desc} {
			for _, r := range s {
				if r >= 0x2e80 {
					if _, ok := set.glyphs[r]; !ok {
						t.Errorf("%q of contact %q is not in the CJK font", r, c.Name)
					}
				}
			}
		}
	}
	t.Logf("%d glyphs at %d px, %d bits a pixel; %d bytes embedded", len(set.glyphs), set.em, set.depth, len(cjkFont))
}
