package autoglm

import (
	"bytes"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"testing"
)

// boxMean is the box filter written plainly: each output pixel the mean
// of its source rectangle, per channel.
func boxMean(src *image.RGBA, nw, nh int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	for oy := range nh {
		for ox := range nw {
			var sum [3]int
			n := 0
			for y := oy * sh / nh; y < (oy+1)*sh/nh; y++ {
				for x := ox * sw / nw; x < (ox+1)*sw/nw; x++ {
					p := src.Pix[src.PixOffset(x, y):]
					sum[0], sum[1], sum[2] = sum[0]+int(p[0]), sum[1]+int(p[1]), sum[2]+int(p[2])
					n++
				}
			}
			o := dst.Pix[dst.PixOffset(ox, oy):]
			for c := range sum {
				o[c] = byte((sum[c] + n/2) / n)
			}
			o[3] = 0xff
		}
	}
	return dst
}

func noise(w, h int, seed uint64) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 1))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(r.IntN(256))
		if i%4 == 3 {
			img.Pix[i] = 0xff
		}
	}
	return img
}

// The box scaler, the exact halving and every other ratio, gives each
// output pixel the mean of its source block (within one level of
// rounding).
func TestBoxScaleMeans(t *testing.T) {
	for _, c := range []struct{ sw, sh, nw, nh int }{
		{1080, 2400, 540, 1200}, // halved
		{1440, 3200, 540, 1200}, // 2.67×
		{720, 1600, 540, 1200},  // 1.33×
		{37, 53, 11, 7},
	} {
		src := noise(c.sw, c.sh, uint64(c.sw))
		got, want := boxScale(src, c.nw, c.nh), boxMean(src, c.nw, c.nh)
		for i := range want.Pix {
			d := int(got.Pix[i]) - int(want.Pix[i])
			if d < -1 || d > 1 {
				x, y := i/4%c.nw, i/4/c.nw
				t.Fatalf("%dx%d to %dx%d: pixel (%d,%d) channel %d is %d, mean %d", c.sw, c.sh, c.nw, c.nh, x, y, i%4, got.Pix[i], want.Pix[i])
			}
		}
	}
}

// EncodePixels sends a raw 1080×2400 screen as a 540×1200 JPEG under the
// default settings.
func TestEncodePixelsDefault(t *testing.T) {
	img, scaled, err := EncodePixels(noise(1080, 2400, 7), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	c, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil || img.MIME != "image/jpeg" || c.Width != 540 || c.Height != 1200 || scaled.Rect.Dx() != 540 {
		t.Fatalf("sent %s %dx%d (%v)", img.MIME, c.Width, c.Height, err)
	}
}
