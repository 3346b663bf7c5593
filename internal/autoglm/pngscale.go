package autoglm

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
)

// RowFunc sees each row of a screenshot as it is decoded: y from 0, the
// row's pixels as 8-bit RGB (bpp 3) or RGBA not premultiplied (bpp 4, as
// PNG and image.NRGBA store it), valid only during the call.
type RowFunc func(y int, pix []byte, bpp int)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// errNotStreamable says a PNG is of a kind DecodeScaled leaves to the
// standard decoder.
var errNotStreamable = errors.New("not an 8-bit truecolour non-interlaced PNG")

// ScaledSize is the size a w x h screenshot is sent at under maxPixels
// (the config's MaxPixels with its default applied), keeping its aspect
// ratio.
func ScaledSize(w, h, maxPixels int) (int, int) {
	if maxPixels <= 0 || w*h <= maxPixels {
		return w, h
	}
	s := math.Sqrt(float64(maxPixels) / float64(w*h))
	return max(int(float64(w)*s), 1), max(int(float64(h)*s), 1)
}

// DecodeScaled decodes a screenshot PNG straight into the image a request
// sends (scaled to cfg's MaxPixels, bilinear), calling onRow with every
// row of the full-size image on the way, without building the full-size
// image: the largest CPU cost of a step was decoding into a full-size
// image and scaling that (BENCHMARKS.md#screenshot-pipeline). It returns the image and the
// full size. A PNG that needs no scaling, or that is not 8-bit RGB or RGBA
// without interlacing, is decoded whole by image/png (onRow still sees its
// rows).
func DecodeScaled(pngData []byte, cfg Config, onRow RowFunc) (image.Image, int, int, error) {
	cfg = cfg.withDefaults()
	img, w, h, err := decodeScaled(pngData, cfg.MaxPixels, onRow)
	if errors.Is(err, errNotStreamable) {
		return decodeWhole(pngData, onRow)
	}
	return img, w, h, err
}

func decodeWhole(pngData []byte, onRow RowFunc) (image.Image, int, int, error) {
	src, err := decodePNG(pngData)
	if err != nil {
		return nil, 0, 0, err
	}
	b := src.Bounds()
	if onRow != nil {
		rows(src, onRow)
	}
	return src, b.Dx(), b.Dy(), nil
}

// rows calls onRow with each row of img as non-premultiplied RGBA.
func rows(img image.Image, onRow RowFunc) {
	b := img.Bounds()
	if m, ok := img.(*image.NRGBA); ok {
		for y := 0; y < b.Dy(); y++ {
			o := m.PixOffset(b.Min.X, b.Min.Y+y)
			onRow(y, m.Pix[o:o+4*b.Dx()], 4)
		}
		return
	}
	row := make([]byte, 4*b.Dx())
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
		}
		onRow(y, row, 4)
	}
}

func decodeScaled(data []byte, maxPixels int, onRow RowFunc) (image.Image, int, int, error) {
	if !bytes.HasPrefix(data, pngSignature) {
		return nil, 0, 0, errNotStreamable
	}
	var idat [][]byte
	var w, h, bpp int
	for p := len(pngSignature); p+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[p:]))
		if n < 0 || p+12+n > len(data) {
			return nil, 0, 0, errNotStreamable
		}
		body := data[p+8 : p+8+n]
		switch string(data[p+4 : p+8]) {
		case "IHDR":
			if n != 13 {
				return nil, 0, 0, errNotStreamable
			}
			w, h = int(binary.BigEndian.Uint32(body)), int(binary.BigEndian.Uint32(body[4:]))
			depth, ct, interlace := body[8], body[9], body[12]
			switch {
			case depth != 8 || interlace != 0:
				return nil, 0, 0, errNotStreamable
			case ct == 2:
				bpp = 3
			case ct == 6:
				bpp = 4
			default:
				return nil, 0, 0, errNotStreamable
			}
		case "IDAT":
			idat = append(idat, body)
		case "IEND":
			p = len(data)
			continue
		}
		p += 12 + n
	}
	if bpp == 0 || len(idat) == 0 || w <= 0 || h <= 0 || w > 1<<15 || h > 1<<15 {
		return nil, 0, 0, errNotStreamable
	}
	nw, nh := ScaledSize(w, h, maxPixels)
	if nw == w && nh == h {
		return nil, 0, 0, errNotStreamable
	}
	readers := make([]io.Reader, len(idat))
	for i, b := range idat {
		readers[i] = bytes.NewReader(b)
	}
	z, err := zlib.NewReader(io.MultiReader(readers...))
	if err != nil {
		return nil, 0, 0, fmt.Errorf("autoglm: screenshot is not a readable PNG (%w): check the device's screencap output", err)
	}
	defer z.Close()
	dst := image.NewRGBA(image.Rect(0, 0, nw, nh))
	xs, ys := tapsFor(nw, w), tapsFor(nh, h)
	// used marks the source rows some output row reads.
	used := make([]bool, h)
	for _, t := range ys {
		used[t.i0], used[t.i1] = true, true
	}
	stride := w * bpp
	cur, prev := make([]byte, stride+1), make([]byte, stride+1)
	// Each used source row is scaled across once, into spread pixels; an
	// output row then blends the across-scaled rows it reads.
	hCur, hPrev := make([]uint64, nw), make([]uint64, nw)
	out := 0
	for y := 0; y < h; y++ {
		if _, err := io.ReadFull(z, cur); err != nil {
			return nil, 0, 0, fmt.Errorf("autoglm: screenshot is not a readable PNG (row %d: %w): check the device's screencap output", y, err)
		}
		if err := unfilter(cur[0], cur[1:], prev[1:], bpp); err != nil {
			return nil, 0, 0, fmt.Errorf("autoglm: screenshot is not a readable PNG (row %d: %w): check the device's screencap output", y, err)
		}
		row := cur[1:]
		if onRow != nil {
			onRow(y, row, bpp)
		}
		if used[y] {
			across(hCur, row, bpp, xs)
		}
		// Output rows whose lower source row is this one.
		for out < nh && ys[out].i1 <= y {
			h0 := hCur
			if ys[out].i0 < y {
				h0 = hPrev
			}
			o := dst.Pix[out*dst.Stride : out*dst.Stride+4*nw]
			wy := ys[out].w
			for x := range hCur {
				v := mix(h0[x], hCur[x], wy)
				p := o[4*x : 4*x+4 : 4*x+4]
				p[0], p[1], p[2], p[3] = byte(v), byte(v>>16), byte(v>>32), byte(v>>48)
			}
			out++
		}
		cur, prev = prev, cur
		if used[y] {
			hCur, hPrev = hPrev, hCur
		}
	}
	return dst, w, h, nil
}

// across scales one decoded row (RGB, or RGBA as PNG stores it) to the
// output width, into spread premultiplied pixels.
func across(dst []uint64, row []byte, bpp int, xs []taps) {
	if bpp == 3 {
		for x, t := range xs {
			a, b := 3*t.i0, 3*t.i1
			p, q := row[a:a+3:a+3], row[b:b+3:b+3]
			dst[x] = mix(uint64(p[0])|uint64(p[1])<<16|uint64(p[2])<<32|0xff<<48,
				uint64(q[0])|uint64(q[1])<<16|uint64(q[2])<<32|0xff<<48, t.w)
		}
		return
	}
	var px [4]byte
	get := func(i int) uint64 {
		copy(px[:], row[4*i:4*i+4])
		if px[3] != 0xff {
			premultiply(px[:])
		}
		return spread(px[:])
	}
	for x, t := range xs {
		dst[x] = mix(get(t.i0), get(t.i1), t.w)
	}
}

// unfilter reverses a PNG row filter in place (the PNG specification's
// filter types 0-4), prev being the previous unfiltered row (zeros for the
// first).
func unfilter(ft byte, row, prev []byte, bpp int) error {
	switch ft {
	case 0:
	case 1: // Sub
		for i := bpp; i < len(row); i++ {
			row[i] += row[i-bpp]
		}
	case 2: // Up
		for i := range row {
			row[i] += prev[i]
		}
	case 3: // Average
		for i := 0; i < bpp; i++ {
			row[i] += prev[i] / 2
		}
		for i := bpp; i < len(row); i++ {
			row[i] += byte((int(row[i-bpp]) + int(prev[i])) / 2)
		}
	case 4: // Paeth
		for i := 0; i < bpp; i++ {
			row[i] += prev[i]
		}
		for i := bpp; i < len(row); i++ {
			a, b, c := int(row[i-bpp]), int(prev[i]), int(prev[i-bpp])
			pa, pb, pc := b-c, a-c, a+b-2*c
			if pa < 0 {
				pa = -pa
			}
			if pb < 0 {
				pb = -pb
			}
			if pc < 0 {
				pc = -pc
			}
			switch {
			case pa <= pb && pa <= pc:
				row[i] += byte(a)
			case pb <= pc:
				row[i] += byte(b)
			default:
				row[i] += byte(c)
			}
		}
	default:
		return fmt.Errorf("unknown filter type %d", ft)
	}
	return nil
}

// premultiply turns a row of non-premultiplied RGBA (as PNG stores it)
// into image.RGBA's premultiplied form. Screenshots are opaque, so this is
// one comparison a pixel.
func premultiply(row []byte) {
	for i := 0; i+3 < len(row); i += 4 {
		a := uint32(row[i+3])
		if a == 0xff {
			continue
		}
		// As color.NRGBA.RGBA does, then to 8 bits.
		row[i] = byte(uint32(row[i]) * 0x101 * a / 0xff >> 8)
		row[i+1] = byte(uint32(row[i+1]) * 0x101 * a / 0xff >> 8)
		row[i+2] = byte(uint32(row[i+2]) * 0x101 * a / 0xff >> 8)
	}
}

func decodePNG(data []byte) (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("autoglm: screenshot is not a readable PNG (%w): check the device's screencap output", err)
	}
	return img, nil
}
