package activities

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Screen hash grid: the screenshot is reduced to hashGridW x hashGridH cells
// of average brightness, quantised to 16 levels, so that compression noise
// and tiny changes do not count as a new screen. The top statusBarFraction
// of the screen (clock, battery) is left out.
const (
	hashGridW         = 24
	hashGridH         = 48
	statusBarFraction = 0.05
)

// ScreenHash returns a short coarse hash of a PNG screenshot: equal for two
// captures of the same screen whose status bar differs, different when the
// content moved. Stuck detection and Act's duplicate check compare it.
func ScreenHash(pngData []byte) (string, error) {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return "", fmt.Errorf("screenshot is not a readable PNG: %w", err)
	}
	return HashImage(img), nil
}

// HashImage is the coarse screen hash of a decoded screenshot (ScreenHash).
func HashImage(img image.Image) string {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	top := b.Min.Y + int(float64(h)*statusBarFraction)
	h = b.Max.Y - top
	if w <= 0 || h <= 0 {
		return "empty"
	}
	rgba, _ := img.(*image.RGBA)
	var cells [hashGridW * hashGridH]byte
	// Sample a fixed number of points per cell rather than every pixel:
	// enough to see layout changes, cheap on a 1080x2400 screen.
	const samples = 4
	for cy := range hashGridH {
		for cx := range hashGridW {
			var sum uint32
			for sy := range samples {
				for sx := range samples {
					x := b.Min.X + (cx*samples+sx)*w/(hashGridW*samples)
					y := top + (cy*samples+sy)*h/(hashGridH*samples)
					var r, g, bl uint32
					if rgba != nil {
						// What At(x, y).RGBA() returns, without an
						// interface call and a colour value per sample.
						p := rgba.Pix[rgba.PixOffset(x, y):]
						r, g, bl = uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101
					} else {
						r, g, bl, _ = img.At(x, y).RGBA()
					}
					sum += (299*r + 587*g + 114*bl) / 1000 >> 8
				}
			}
			cells[cy*hashGridW+cx] = byte(sum / (samples * samples) >> 4)
		}
	}
	sum := sha256.Sum256(cells[:])
	return hex.EncodeToString(sum[:8])
}

// DecodeScreen reads a step's screenshot in one pass: the image the
// executor is sent (scaled as cfg says) and the screen hash, without
// building the full-size image (BENCHMARKS.md#screenshot-pipeline).
func DecodeScreen(pngData []byte, cfg autoglm.Config) (image.Image, string, error) {
	var w, h int // the image's own size, which the hash samples
	if c, err := png.DecodeConfig(bytes.NewReader(pngData)); err == nil {
		w, h = c.Width, c.Height
	}
	rh := newRowHasher(w, h)
	img, _, _, err := autoglm.DecodeScaled(pngData, cfg, rh.row)
	if err != nil {
		return nil, "", err
	}
	return img, rh.sum(), nil
}

// rowHasher computes HashImage's hash from the rows of a screenshot as they
// are decoded (autoglm.DecodeScaled), so the full-size image need not be
// kept: the same samples, the same sum.
type rowHasher struct {
	w, h int
	// cellRows maps a row to the cell rows it samples for.
	cellRows map[int][]int
	xs       [hashGridW * 4]int
	sums     [hashGridW * hashGridH]uint32
}

func newRowHasher(w, h int) *rowHasher {
	const samples = 4
	r := &rowHasher{w: w, h: h, cellRows: map[int][]int{}}
	top := int(float64(h) * statusBarFraction)
	hh := h - top
	if w <= 0 || hh <= 0 {
		return r
	}
	for cy := range hashGridH {
		for sy := range samples {
			y := top + (cy*samples+sy)*hh/(hashGridH*samples)
			r.cellRows[y] = append(r.cellRows[y], cy)
		}
	}
	for i := range r.xs {
		r.xs[i] = i * w / (hashGridW * samples)
	}
	return r
}

// row takes one decoded row (autoglm.RowFunc): the samples read what
// At(x, y).RGBA() reads from the image image/png decodes.
func (r *rowHasher) row(y int, pix []byte, bpp int) {
	const samples = 4
	if len(pix) < bpp*r.w {
		return
	}
	for _, cy := range r.cellRows[y] {
		for i, x := range r.xs {
			p := pix[bpp*x:]
			red, g, bl := uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101
			if bpp == 4 && p[3] != 0xff {
				a := uint32(p[3])
				red, g, bl = red*a/0xff, g*a/0xff, bl*a/0xff
			}
			r.sums[cy*hashGridW+i/samples] += (299*red + 587*g + 114*bl) / 1000 >> 8
		}
	}
}

func (r *rowHasher) sum() string {
	const samples = 4
	if r.w <= 0 || r.h-int(float64(r.h)*statusBarFraction) <= 0 {
		return "empty"
	}
	var cells [hashGridW * hashGridH]byte
	for i, s := range r.sums {
		cells[i] = byte(s / (samples * samples) >> 4)
	}
	sum := sha256.Sum256(cells[:])
	return hex.EncodeToString(sum[:8])
}

// sensitiveHash stands in for the screen hash when the screen cannot be
// captured: the app and the UI tree (when there is one) identify it.
func sensitiveHash(pkg string, elems []uitree.Element) string {
	h := sha256.New()
	h.Write([]byte("sensitive\x00" + pkg + "\x00"))
	if len(elems) > 0 {
		data, _ := json.Marshal(elems)
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// textHash digests the texts, descriptions and checked states of the
// app's elements in tree order, leaving out the system's own windows (the
// status bar's clock and battery change by themselves). Stuck detection
// reads a changed digest as a screen that moved on (docs/design.md §2
// Guards). "" when the tree shows nothing of the app.
func textHash(elems []uitree.Element) string {
	h := sha256.New()
	n := 0
	for _, e := range elems {
		if systemPackage(e.Package) || (e.Text == "" && e.Desc == "") {
			continue
		}
		fmt.Fprintf(h, "%s\x00%s\x00%t\x00", e.Text, e.Desc, e.Checked)
		n++
	}
	if n == 0 {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}
