package autoglm

import (
	"image"

	"golang.org/x/image/draw"
)

// scaleDown scales src to nw x nh with bilinear filtering. Screenshots
// decode to *image.RGBA or *image.NRGBA (opaque, so alike); those take a
// path that reads and writes the pixel bytes directly, four channels at a
// time in one 64-bit word, which costs a fraction of the generic scaler's
// CPU on every executor step (BENCHMARKS.md#screenshot-pipeline). Other image types take the
// generic scaler.
func scaleDown(src image.Image, nw, nh int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	var pix []byte
	var stride int
	b := src.Bounds()
	switch s := src.(type) {
	case *image.RGBA:
		pix, stride = s.Pix[s.PixOffset(b.Min.X, b.Min.Y):], s.Stride
	case *image.NRGBA:
		if !s.Opaque() {
			break
		}
		pix, stride = s.Pix[s.PixOffset(b.Min.X, b.Min.Y):], s.Stride
	}
	if pix == nil {
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
		return dst
	}
	bilinear(dst, pix, stride, b.Dx(), b.Dy())
	return dst
}

// taps are the two source positions an output coordinate reads and the
// weight (0..256) of the second one.
type taps struct {
	i0, i1 int
	w      uint64
}

// tapsFor maps n output positions onto size source positions, sampling at
// pixel centres as draw.ApproxBiLinear does.
func tapsFor(n, size int) []taps {
	out := make([]taps, n)
	for i := range out {
		// Source position of the output pixel's centre, in 1/256 pixel.
		p := ((2*i+1)*size*256/(2*n) - 128)
		if p < 0 {
			p = 0
		}
		i0 := p >> 8
		w := uint64(p & 0xff)
		i1 := i0 + 1
		if i1 >= size {
			i1, w = size-1, 0
		}
		if i0 >= size {
			i0 = size - 1
		}
		out[i] = taps{i0, i1, w}
	}
	return out
}

// spread puts the four bytes of a pixel in four 16-bit lanes.
func spread(p []byte) uint64 {
	return uint64(p[0]) | uint64(p[1])<<16 | uint64(p[2])<<32 | uint64(p[3])<<48
}

const laneMask = 0x00ff_00ff_00ff_00ff

// mix blends two spread pixels: a*(256-w)+b*w, divided by 256, per lane.
// Each lane stays under 2^16 before the division, so lanes never carry
// into each other.
func mix(a, b, w uint64) uint64 {
	return ((a*(256-w) + b*w) >> 8) & laneMask
}

func bilinear(dst *image.RGBA, pix []byte, stride, sw, sh int) {
	nw, nh := dst.Rect.Dx(), dst.Rect.Dy()
	xs, ys := tapsFor(nw, sw), tapsFor(nh, sh)
	for y, ty := range ys {
		r0, r1 := pix[ty.i0*stride:], pix[ty.i1*stride:]
		out := dst.Pix[y*dst.Stride : y*dst.Stride+4*nw]
		for x, tx := range xs {
			a0, a1 := 4*tx.i0, 4*tx.i1
			top := mix(spread(r0[a0:a0+4]), spread(r0[a1:a1+4]), tx.w)
			bot := mix(spread(r1[a0:a0+4]), spread(r1[a1:a1+4]), tx.w)
			v := mix(top, bot, ty.w)
			o := out[4*x : 4*x+4]
			o[0], o[1], o[2], o[3] = byte(v), byte(v>>16), byte(v>>32), byte(v>>48)
		}
	}
}
