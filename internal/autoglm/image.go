package autoglm

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Defaults for Config fields left zero.
const (
	DefaultMaxPixels   = 648_000 // 540×1200 for a 1080×2400 screen
	DefaultJPEGQuality = 85
	// FullSize as MaxPixels never scales the screenshot down.
	FullSize = -1
	// DefaultHistoryTokens is the estimated token budget of the earlier
	// turns of a request.
	DefaultHistoryTokens = 8000
)

// Config shapes executor requests.
type Config struct {
	// MaxPixels caps width*height of the screenshot sent to the model;
	// larger screenshots are scaled down keeping their aspect ratio.
	// 0 means DefaultMaxPixels, FullSize never scales.
	MaxPixels int
	// Format of the image sent: "jpeg" (default) or "png".
	Format string
	// JPEGQuality is 1..100; 0 means DefaultJPEGQuality.
	JPEGQuality int
	// IncludeElements adds the UI element list to each request.
	IncludeElements bool
	// Lang of the system prompt: "en" (default) or "zh".
	Lang string
	// Protocol is the conversation layout: ProtocolPhoneflow (default) or
	// ProtocolAutoGLM (docs/design.md §3).
	Protocol string
	// SystemPrompt, when set, replaces phoneflow's system prompt; "{date}"
	// in it becomes the date written the way Lang writes it.
	SystemPrompt string
	// HistoryTokens bounds the estimated tokens of the earlier turns of a
	// request (KeepHistory); 0 means DefaultHistoryTokens.
	HistoryTokens int
	// Coordinates is the space the answers' points are in for the uitars
	// and mobile_use protocols: CoordsPixels or CoordsRelative (the other
	// protocols always use the 0-999 grid).
	Coordinates string
	// PromptAdvice appends the task-type advice to a SystemPrompt of the
	// user's own too; by default a user's prompt goes out as written.
	PromptAdvice bool
}

// DefaultConfig returns the settings used when nothing is configured.
func DefaultConfig() Config {
	return Config{MaxPixels: DefaultMaxPixels, Format: "jpeg", JPEGQuality: DefaultJPEGQuality, IncludeElements: true, Lang: "en"}
}

func (c Config) withDefaults() Config {
	if c.MaxPixels == 0 {
		c.MaxPixels = DefaultMaxPixels
	}
	if c.Format == "" {
		c.Format = "jpeg"
	}
	if c.JPEGQuality == 0 {
		c.JPEGQuality = DefaultJPEGQuality
	}
	if c.Lang == "" {
		c.Lang = "en"
	}
	if c.Protocol == "" {
		c.Protocol = ProtocolPhoneflow
	}
	if c.HistoryTokens == 0 {
		c.HistoryTokens = DefaultHistoryTokens
	}
	return c
}

// Validate reports every bad setting in one error.
func (c Config) Validate() error {
	var errs []error
	if c.MaxPixels < FullSize || (c.MaxPixels > 0 && c.MaxPixels < 10_000) {
		errs = append(errs, fmt.Errorf("autoglm: max pixels %d is too small: use at least 10000 (0 = %d, %d = never scale)", c.MaxPixels, DefaultMaxPixels, FullSize))
	}
	if c.HistoryTokens < 0 {
		errs = append(errs, fmt.Errorf("autoglm: history token budget %d is negative", c.HistoryTokens))
	}
	if c.Format != "" && c.Format != "jpeg" && c.Format != "png" {
		errs = append(errs, fmt.Errorf("autoglm: image format %q: use jpeg or png", c.Format))
	}
	if c.JPEGQuality < 0 || c.JPEGQuality > 100 {
		errs = append(errs, fmt.Errorf("autoglm: JPEG quality %d is outside 1..100", c.JPEGQuality))
	}
	switch c.Protocol {
	case "", ProtocolPhoneflow, ProtocolAutoGLM, ProtocolUITARS, ProtocolMobileUse, ProtocolTools:
	default:
		errs = append(errs, fmt.Errorf("autoglm: protocol %q: use %s, %s, %s, %s or %s", c.Protocol, ProtocolAutoGLM, ProtocolPhoneflow, ProtocolUITARS, ProtocolMobileUse, ProtocolTools))
	}
	if c.Coordinates != "" && c.Coordinates != CoordsPixels && c.Coordinates != CoordsRelative {
		errs = append(errs, fmt.Errorf("autoglm: coordinates %q: use %s or %s", c.Coordinates, CoordsPixels, CoordsRelative))
	}
	if c.Lang != "" && c.Lang != "en" && c.Lang != "zh" {
		errs = append(errs, fmt.Errorf("autoglm: prompt language %q: use en or zh", c.Lang))
	}
	return errors.Join(errs...)
}

// Encode prepares a PNG screenshot for a request: it scales the image down
// to at most cfg.MaxPixels (keeping the aspect ratio) and re-encodes it in
// cfg.Format. It returns the image and its new size. Coordinates need no
// mapping back: the protocol's 0-999 grid is relative to the whole screen,
// whatever the image size (see ToPixel).
//
// An image that already is what cfg sends (the JPEG a raw capture was
// stored as, EncodePixels) goes out unchanged, and a JPEG that is not is
// decoded and encoded again.
func Encode(pngData []byte, cfg Config) (llm.Image, int, int, error) {
	if img, w, h, ok := asIs(pngData, cfg); ok {
		return img, w, h, nil
	}
	if isJPEG(pngData) {
		src, err := jpeg.Decode(bytes.NewReader(pngData))
		if err != nil {
			return llm.Image{}, 0, 0, fmt.Errorf("autoglm: screenshot is not a readable JPEG: %w", err)
		}
		return EncodeImage(src, nil, cfg)
	}
	src, _, _, err := DecodeScaled(pngData, cfg, nil)
	if err != nil {
		return llm.Image{}, 0, 0, err
	}
	return EncodeImage(src, pngData, cfg)
}

// EncodeImage is Encode for a screenshot already decoded from pngData, at
// full size or scaled by DecodeScaled (pngData is sent as is when it needs
// neither scaling nor re-encoding).
func EncodeImage(src image.Image, pngData []byte, cfg Config) (llm.Image, int, int, error) {
	cfg = cfg.withDefaults()
	var err error
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return llm.Image{}, 0, 0, errors.New("autoglm: screenshot is empty")
	}
	img := src
	if cfg.MaxPixels > 0 && w*h > cfg.MaxPixels {
		nw, nh := ScaledSize(w, h, cfg.MaxPixels)
		// Bilinear, as legible at 1 MP as CatmullRom was and
		// a small part of its cost; scaling and encoding are most of a
		// step's CPU (BENCHMARKS.md#screenshot-pipeline).
		img, w, h = scaleDown(src, nw, nh), nw, nh
	} else if cfg.Format == "png" && sameSize(pngData, w, h) {
		// src is pngData decoded (DecodeScaled did not need to scale it).
		return llm.Image{MIME: "image/png", Data: pngData}, w, h, nil
	}
	var buf bytes.Buffer
	switch cfg.Format {
	case "png":
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
		if err == nil {
			return llm.Image{MIME: "image/png", Data: buf.Bytes()}, w, h, nil
		}
	default:
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: cfg.JPEGQuality})
		if err == nil {
			return llm.Image{MIME: "image/jpeg", Data: buf.Bytes()}, w, h, nil
		}
	}
	return llm.Image{}, 0, 0, fmt.Errorf("autoglm: encode screenshot as %s: %w", cfg.Format, err)
}

// ToPixel maps a point on the 0-999 grid to screen pixels of a w x h screen
// (pixel = v * size / 1000). Pass the device's screen size, not the size of
// the scaled image the model saw.
func ToPixel(p Point, w, h int) (x, y int) {
	return uitree.Pixel(p[0], w), uitree.Pixel(p[1], h)
}

// FromPixel maps a screen pixel to the 0-999 grid.
func FromPixel(x, y, w, h int) Point {
	return Point{uitree.Relative(x, w), uitree.Relative(y, h)}
}

// sameSize reports whether a PNG is w x h.
func sameSize(pngData []byte, w, h int) bool {
	c, err := png.DecodeConfig(bytes.NewReader(pngData))
	return err == nil && c.Width == w && c.Height == h
}
