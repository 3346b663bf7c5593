package activities

import (
	"context"
	"image"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// CaptureScreen takes a step's screenshot in the form that costs the
// worker least for what cfg sends (docs/design.md §3): the device's PNG
// when cfg sends it as it is (full size, PNG: the autoglm profile), so
// nothing is encoded; the raw pixels otherwise, when the device can
// capture them, so no PNG is compressed on the phone and decompressed
// here only to be scaled and encoded as JPEG.
func CaptureScreen(ctx context.Context, d device.Device, cfg autoglm.Config) (device.Screenshot, error) {
	pc, ok := d.(device.PixelCapturer)
	if !ok || sendsDevicePNG(cfg) {
		return d.Screenshot(ctx)
	}
	return pc.ScreenPixels(ctx)
}

// sendsDevicePNG reports whether cfg sends the capture's PNG unchanged.
func sendsDevicePNG(cfg autoglm.Config) bool {
	return cfg.Format == "png" && cfg.MaxPixels == autoglm.FullSize
}

// Screen is a step's screenshot made ready for the step: what the blob
// store keeps (and the viewer shows), its content type, the coarse screen
// hash, and the decoded image sent when there is one.
type Screen struct {
	Stored  []byte
	MIME    string
	Hash    string
	Decoded image.Image
}

// PrepareScreen reads a screenshot that is not Sensitive. A PNG is kept
// as captured and decoded once, scaled as cfg says, with the hash taken on
// the way (DecodeScreen). Raw pixels are hashed where they lie, with the
// same samples and so the same hash as their PNG would give; the image
// kept is the one sent (scaled and encoded as cfg says: a 540×1200 JPEG
// for a 1080×2400 screen by default), not a full-size PNG that would cost
// an encode on every step. The step viewer then shows the image the
// model saw.
func PrepareScreen(shot device.Screenshot, cfg autoglm.Config) (Screen, error) {
	if shot.Pixels == nil {
		img, hash, err := DecodeScreen(shot.PNG, cfg)
		if err != nil {
			return Screen{}, err
		}
		return Screen{Stored: shot.PNG, MIME: "image/png", Hash: hash, Decoded: img}, nil
	}
	hash := HashImage(shot.Pixels)
	sent, _, err := autoglm.EncodePixels(shot.Pixels, cfg)
	if err != nil {
		return Screen{}, err
	}
	return Screen{Stored: sent.Data, MIME: sent.MIME, Hash: hash}, nil
}

// shotHash is the coarse hash of a screenshot that is not Sensitive, in
// either form.
func shotHash(shot device.Screenshot) (string, error) {
	if shot.Pixels != nil {
		return HashImage(shot.Pixels), nil
	}
	return ScreenHash(shot.PNG)
}
