package activities

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// The direct path for *image.RGBA hashes as the generic one does, so
// hashes recorded before it compare equal.
func TestHashImageDirectPathMatchesGeneric(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	for i := range img.Pix {
		img.Pix[i] = byte(i*7 + i/4096)
		if i%4 == 3 {
			img.Pix[i] = 0xff
		}
	}
	generic := struct{ image.Image }{img} // hides the concrete type
	if a, b := HashImage(img), HashImage(generic); a != b {
		t.Fatalf("direct %s, generic %s", a, b)
	}
	// And the hash of the rows as they are decoded is the same.
	for _, size := range [][2]int{{1080, 2400}, {97, 301}} {
		img := image.NewNRGBA(image.Rect(0, 0, size[0], size[1]))
		for i := range img.Pix {
			img.Pix[i] = byte(i*7 + i/4096)
		}
		r := newRowHasher(size[0], size[1])
		for y := range size[1] {
			r.row(y, img.Pix[y*img.Stride:(y+1)*img.Stride], 4)
		}
		if a, b := HashImage(img), r.sum(); a != b {
			t.Fatalf("%v: image %s, rows %s", size, a, b)
		}
	}
}

// DecodeScreen, which hashes the rows while it decodes and scales, gives
// ScreenHash's hash for RGB and RGBA screenshots, scaled or not.
func TestDecodeScreenHashesAsScreenHash(t *testing.T) {
	for _, opaque := range []bool{true, false} {
		for _, size := range [][2]int{{1080, 2400}, {200, 400}} {
			var img image.Image
			if opaque {
				m := image.NewRGBA(image.Rect(0, 0, size[0], size[1]))
				for i := range m.Pix {
					m.Pix[i] = byte(i*7 + i/4096)
					if i%4 == 3 {
						m.Pix[i] = 0xff
					}
				}
				img = m
			} else {
				m := image.NewNRGBA(image.Rect(0, 0, size[0], size[1]))
				for i := range m.Pix {
					m.Pix[i] = byte(i*7 + i/4096)
				}
				img = m
			}
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				t.Fatal(err)
			}
			want, err := ScreenHash(b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if _, got, err := DecodeScreen(b.Bytes(), autoglm.Config{}); err != nil || got != want {
				t.Errorf("opaque %t %v: DecodeScreen hash %s, ScreenHash %s (%v)", opaque, size, got, want, err)
			}
		}
	}
}
