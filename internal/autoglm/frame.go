package autoglm

import "math"

// Coordinate spaces an executor protocol's answers may use
// (Config.Coordinates, docs/models.md).
const (
	// CoordsPixels: absolute pixels of the image the model saw after its
	// processor resized it (SmartResize of the image sent).
	CoordsPixels = "pixels"
	// CoordsRelative: a grid over the whole screen, 0-999 or 0-1000
	// whatever the image size.
	CoordsRelative = "relative"
)

// Frame is the coordinate frame of one answer: the size of the image the
// model saw, and whether its numbers are relative to the screen instead.
type Frame struct {
	W, H     int  // pixels of the image as the model saw it
	Relative bool // numbers are on a 0-1000 grid over the screen
	// Scale is the grid size of a relative frame: 1000 (UI-TARS v1,
	// AutoGLM) or 999 (Qwen3-VL, whose prompt says the screen is
	// 999x999); 0 means 1000.
	Scale int
}

// Grid maps an answer's x,y in this frame onto the protocol's 0-999 grid,
// or ok false when the point lies outside the image.
func (f Frame) Grid(x, y float64) (Point, bool) {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || x < 0 || y < 0 {
		return Point{}, false
	}
	w, h := float64(f.W), float64(f.H)
	if f.Relative {
		s := float64(f.Scale)
		if s == 0 {
			s = 1000
		}
		w, h = s, s
	}
	if w <= 0 || h <= 0 || x > w || y > h {
		return Point{}, false
	}
	g := func(v, size float64) int { return min(int(math.Round(v*1000/size)), 999) }
	return Point{g(x, w), g(y, h)}, true
}

// SentSize is the size of the image a request built with cfg sends for a
// w x h screenshot.
func SentSize(cfg Config, w, h int) (int, int) {
	cfg = cfg.withDefaults()
	if cfg.MaxPixels > 0 {
		return ScaledSize(w, h, cfg.MaxPixels)
	}
	return w, h
}

// SmartResize is the size Qwen2-VL-family processors (Qwen2.5-VL, Qwen3-VL
// and the models tuned from them: UI-TARS, GUI-Owl, UI-Venus) resize an
// image to before the model sees it: both sides multiples of factor, the
// area between minPixels and maxPixels, the aspect ratio kept as closely as
// that allows. Models that answer in absolute pixels answer in this size.
func SmartResize(w, h, factor, minPixels, maxPixels int) (int, int) {
	if w <= 0 || h <= 0 || factor <= 0 {
		return w, h
	}
	f := float64(factor)
	round := func(v float64) int { return max(factor, int(math.RoundToEven(v/f))*factor) }
	floor := func(v float64) int { return max(factor, int(math.Floor(v/f))*factor) }
	ceil := func(v float64) int { return int(math.Ceil(v/f)) * factor }
	hb, wb := round(float64(h)), round(float64(w))
	switch {
	case hb*wb > maxPixels:
		beta := math.Sqrt(float64(h*w) / float64(maxPixels))
		hb, wb = floor(float64(h)/beta), floor(float64(w)/beta)
	case hb*wb < minPixels:
		beta := math.Sqrt(float64(minPixels) / float64(h*w))
		hb, wb = ceil(float64(h)*beta), ceil(float64(w)*beta)
	}
	return wb, hb
}
