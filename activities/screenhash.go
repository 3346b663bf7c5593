package activities

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"

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
	return hashImage(img), nil
}

func hashImage(img image.Image) string {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	top := b.Min.Y + int(float64(h)*statusBarFraction)
	h = b.Max.Y - top
	if w <= 0 || h <= 0 {
		return "empty"
	}
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
					r, g, bl, _ := img.At(x, y).RGBA()
					sum += (299*r + 587*g + 114*bl) / 1000 >> 8
				}
			}
			cells[cy*hashGridW+cx] = byte(sum / (samples * samples) >> 4)
		}
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
