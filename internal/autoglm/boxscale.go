package autoglm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// EncodePixels prepares a raw screen capture (full size, opaque) for a
// request: scaled down to cfg.MaxPixels with a box filter, every source
// pixel counted once, then encoded in cfg.Format. No PNG is decoded or
// encoded on the way, which was most of a step's CPU (BENCHMARKS.md#screenshot-pipeline). It
// returns the image sent and its size; the image decoded is the scaled
// one, for callers that keep it.
func EncodePixels(src *image.RGBA, cfg Config) (llm.Image, *image.RGBA, error) {
	cfg = cfg.withDefaults()
	b := src.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return llm.Image{}, nil, fmt.Errorf("autoglm: screenshot is empty")
	}
	img := src
	if nw, nh := ScaledSize(b.Dx(), b.Dy(), cfg.MaxPixels); nw != b.Dx() || nh != b.Dy() {
		img = boxScale(src, nw, nh)
	}
	out, _, _, err := EncodeImage(img, nil, cfg)
	return out, img, err
}

// boxScale averages each output pixel's rectangle of src pixels. Four
// channels are summed at once in 16-bit lanes of a 64-bit word, which holds
// up to 257 pixels a box; a larger reduction (never a phone screen) takes
// the bilinear scaler.
func boxScale(src *image.RGBA, nw, nh int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	bw, bh := (sw+nw-1)/nw, (sh+nh-1)/nh
	if bw*bh > 257 || nw > sw || nh > sh {
		return scaleDown(src, nw, nh)
	}
	if sw == 2*nw && sh == 2*nh {
		return halve(src, nw, nh)
	}
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	xs := make([]int, nw+1)
	for i := range xs {
		xs[i] = i * sw / nw
	}
	acc := make([]uint64, nw)
	for oy := range nh {
		y0, y1 := oy*sh/nh, (oy+1)*sh/nh
		clear(acc)
		for y := y0; y < y1; y++ {
			o := src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+y)
			row := src.Pix[o : o+4*sw]
			for ox := range acc {
				var s uint64
				for x := xs[ox]; x < xs[ox+1]; x++ {
					s += spread32(binary.LittleEndian.Uint32(row[4*x:]))
				}
				acc[ox] += s
			}
		}
		out := dst.Pix[oy*dst.Stride : oy*dst.Stride+4*nw]
		rows := y1 - y0
		for ox, s := range acc {
			// s/n per lane, as a multiplication by 2^24/n (rounded up).
			n := uint64(rows * (xs[ox+1] - xs[ox]))
			r := (1<<24 + n - 1) / n
			p := out[4*ox : 4*ox+4 : 4*ox+4]
			p[0] = byte((s & 0xffff) * r >> 24)
			p[1] = byte((s >> 16 & 0xffff) * r >> 24)
			p[2] = byte((s >> 32 & 0xffff) * r >> 24)
			p[3] = 0xff
		}
	}
	return dst
}

// halve is boxScale for exactly half the size each way (1080×2400 to
// 540×1200, the default): each output pixel is the rounded mean of a 2×2
// block, two pixels read as one 64-bit word, red and blue summed in the
// 16-bit lanes of one word and green in another.
func halve(src *image.RGBA, nw, nh int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	const even = 0x00ff_00ff_00ff_00ff
	for oy := range nh {
		o0 := src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+2*oy)
		r0 := src.Pix[o0 : o0+8*nw]
		r1 := src.Pix[o0+src.Stride : o0+src.Stride+8*nw]
		out := dst.Pix[oy*dst.Stride : oy*dst.Stride+4*nw]
		for ox := range nw {
			a := binary.LittleEndian.Uint64(r0[8*ox:])
			b := binary.LittleEndian.Uint64(r1[8*ox:])
			rb := a&even + b&even       // R, B of both columns
			ga := a>>8&even + b>>8&even // G (and alpha) of both columns
			rb = (rb + rb>>32 + 0x0002_0002) >> 2 & 0x00ff_00ff
			g := (ga + ga>>32 + 2) >> 2 & 0xff
			binary.LittleEndian.PutUint32(out[4*ox:], uint32(rb|g<<8)|0xff00_0000)
		}
	}
	return dst
}

// spread32 is spread for a pixel read as one little-endian word.
func spread32(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000_ffff_0000_ffff
	return (x | x<<8) & laneMask
}

// asIs returns data unchanged when it already is what cfg sends: an image
// in cfg.Format no larger than cfg.MaxPixels (the stored image sent at an
// earlier step, read back from the blob store).
func asIs(data []byte, cfg Config) (llm.Image, int, int, bool) {
	cfg = cfg.withDefaults()
	fits := func(w, h int) bool { return w > 0 && h > 0 && (cfg.MaxPixels <= 0 || w*h <= cfg.MaxPixels) }
	switch {
	case cfg.Format == "jpeg" && isJPEG(data):
		if c, err := jpeg.DecodeConfig(bytes.NewReader(data)); err == nil && fits(c.Width, c.Height) {
			return llm.Image{MIME: "image/jpeg", Data: data}, c.Width, c.Height, true
		}
	case cfg.Format == "png" && bytes.HasPrefix(data, pngSignature):
		if w, h, ok := pngSize(data); ok && fits(w, h) {
			return llm.Image{MIME: "image/png", Data: data}, w, h, true
		}
	}
	return llm.Image{}, 0, 0, false
}

func isJPEG(data []byte) bool {
	return len(data) > 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff
}

// pngSize reads a PNG's size from its header.
func pngSize(data []byte) (int, int, bool) {
	if len(data) < 24 || string(data[12:16]) != "IHDR" {
		return 0, 0, false
	}
	return int(binary.BigEndian.Uint32(data[16:])), int(binary.BigEndian.Uint32(data[20:])), true
}
