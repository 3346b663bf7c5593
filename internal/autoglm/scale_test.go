package autoglm

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"golang.org/x/image/draw"
)

// screenLike is an opaque image with flat areas, hard edges and fine
// detail, as a UI screenshot has.
func screenLike(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{byte(x * 255 / w), byte(y * 255 / h), 200, 255}
			if (y/40)%3 == 0 && (x/7+y/5)%4 == 0 {
				c = color.RGBA{20, 20, 20, 255} // "text"
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func TestScaleDownMatchesBilinear(t *testing.T) {
	src := screenLike(1080, 2400)
	for _, size := range [][2]int{{671, 1490}, {540, 1200}, {100, 222}} {
		got := scaleDown(src, size[0], size[1])
		want := image.NewRGBA(got.Rect)
		draw.ApproxBiLinear.Scale(want, want.Rect, src, src.Rect, draw.Src, nil)
		var sum, worst int
		for i := range got.Pix {
			d := int(got.Pix[i]) - int(want.Pix[i])
			if d < 0 {
				d = -d
			}
			sum += d
			worst = max(worst, d)
		}
		mean := float64(sum) / float64(len(got.Pix))
		t.Logf("%v: mean %.3f worst %d", size, mean, worst)
		if mean > 0.6 || worst > 8 {
			t.Errorf("%v: differs from the generic bilinear scaler by %.2f on average, %d at worst", size, mean, worst)
		}
	}
	// Other image types take the generic scaler.
	gray := image.NewGray(image.Rect(0, 0, 300, 600))
	for i := range gray.Pix {
		gray.Pix[i] = byte(i)
	}
	if g := scaleDown(gray, 150, 300); g.Rect.Dx() != 150 || g.Pix[3] != 0xff {
		t.Errorf("gray: %v alpha %d", g.Rect, g.Pix[3])
	}
}

func BenchmarkScaleDown(b *testing.B) {
	src := screenLike(1080, 2400)
	for b.Loop() {
		scaleDown(src, 671, 1490)
	}
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// DecodeScaled gives the image that decoding whole and scaling gives, and
// every full-size row on the way, for RGB and RGBA PNGs (all five row
// filters occur in them), and decodes other PNGs whole.
func TestDecodeScaledMatchesDecodeThenScale(t *testing.T) {
	rgb := screenLike(1080, 2400)
	nrgba := image.NewNRGBA(image.Rect(0, 0, 900, 1600))
	for i := range nrgba.Pix {
		nrgba.Pix[i] = byte(i*13 + i/900)
		if i%4 == 3 {
			nrgba.Pix[i] = 0xff // screenshots are opaque
		}
	}
	pal := image.NewPaletted(image.Rect(0, 0, 1200, 1200), color.Palette{color.Black, color.White})
	for i := range pal.Pix {
		pal.Pix[i] = byte(i / 37 % 2)
	}
	for name, src := range map[string]image.Image{"RGB": rgb, "RGBA": nrgba, "paletted": pal} {
		data := encodePNG(t, src)
		full, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		b := full.Bounds()
		rowsSeen := 0
		got, w, h, err := DecodeScaled(data, Config{MaxPixels: 500_000}, func(y int, row []byte, bpp int) {
			if y%97 == 0 {
				for x := 0; x < b.Dx(); x++ {
					c := color.NRGBAModel.Convert(full.At(x, y)).(color.NRGBA)
					p := row[bpp*x:]
					if p[0] != c.R || p[1] != c.G || p[2] != c.B || bpp == 4 && p[3] != c.A {
						t.Fatalf("%s: row %d pixel %d is %v, the decoded image's %v", name, y, x, p[:bpp], c)
					}
				}
			}
			if y != rowsSeen {
				t.Fatalf("%s: row %d after %d rows", name, y, rowsSeen)
			}
			rowsSeen++
		})
		if err != nil || w != b.Dx() || h != b.Dy() || rowsSeen != h {
			t.Fatalf("%s: %v, %dx%d, %d rows", name, err, w, h, rowsSeen)
		}
		nw, nh := ScaledSize(w, h, 500_000)
		if name == "paletted" {
			// Decoded whole; EncodeImage scales it.
			if got.Bounds() != b {
				t.Errorf("paletted: got %v", got.Bounds())
			}
			continue
		}
		want := scaleDown(full, nw, nh)
		if g, ok := got.(*image.RGBA); !ok || !bytes.Equal(g.Pix, want.Pix) {
			t.Errorf("%s: the scaled image differs from decoding whole and scaling", name)
		}
	}
	// A small screenshot is not scaled, and PNG format sends it as it is.
	small := encodePNG(t, screenLike(300, 600))
	img, _, _, err := Encode(small, Config{Format: "png"})
	if err != nil || !bytes.Equal(img.Data, small) {
		t.Errorf("small PNG not sent as is: %v", err)
	}
	// A scaled screenshot in PNG format is the scaled image, not the
	// original.
	big := encodePNG(t, rgb)
	img, w, _, err := Encode(big, Config{Format: "png"})
	if err != nil || bytes.Equal(img.Data, big) || w != 540 {
		t.Errorf("scaled PNG: %d bytes, width %d, %v", len(img.Data), w, err)
	}
	if _, _, _, err := DecodeScaled(append(append([]byte(nil), big[:len(big)/2]...), make([]byte, 64)...), Config{}, nil); err == nil || !strings.Contains(err.Error(), "not a readable PNG") {
		t.Errorf("truncated PNG: %v", err)
	}
}

func TestPremultiplyAsColorModel(t *testing.T) {
	for _, c := range []color.NRGBA{{200, 100, 7, 128}, {255, 255, 255, 1}, {13, 0, 250, 254}, {90, 91, 92, 255}} {
		row := []byte{c.R, c.G, c.B, c.A}
		premultiply(row)
		want := color.RGBAModel.Convert(c).(color.RGBA)
		if row[0] != want.R || row[1] != want.G || row[2] != want.B || row[3] != want.A {
			t.Errorf("%v: got %v, want %v", c, row, want)
		}
	}
}
