package activities

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// simScreen is the simulated phone's home screen as screencap -p gives it
// and as raw pixels.
func simScreen(t testing.TB) ([]byte, *image.RGBA) {
	t.Helper()
	sim := phonesim.New(phonesim.Config{Serial: "raw-1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	data, ok, err := sim.Screenshot()
	if err != nil || !ok {
		t.Fatalf("screenshot: ok %v, %v", ok, err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return data, rgba
}

// A raw capture gives the same screen hash as the PNG of the same screen:
// stuck detection and Act's check of a retried action compare hashes
// taken before and after a worker changed how it captures.
func TestRawScreenSameHashAsPNG(t *testing.T) {
	data, rgba := simScreen(t)
	cfg := autoglm.DefaultConfig()
	fromPNG, err := PrepareScreen(device.Screenshot{PNG: data, Width: 1080, Height: 2400}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fromRaw, err := PrepareScreen(device.Screenshot{Pixels: rgba, Width: 1080, Height: 2400}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if fromPNG.Hash != fromRaw.Hash {
		t.Fatalf("hash from the PNG %s, from raw pixels %s", fromPNG.Hash, fromRaw.Hash)
	}
	if fromRaw.MIME != "image/jpeg" || fromRaw.Decoded != nil {
		t.Fatalf("raw capture stored as %s (decoded %v), want the JPEG sent", fromRaw.MIME, fromRaw.Decoded != nil)
	}
	c, err := jpeg.DecodeConfig(bytes.NewReader(fromRaw.Stored))
	if err != nil || c.Width != 540 || c.Height != 1200 {
		t.Fatalf("stored image %dx%d (%v), want 540x1200", c.Width, c.Height, err)
	}
	// Read back from the blob store (the Think and Verify activities), the
	// stored image is sent as it is, not encoded again.
	sent, w, h, err := autoglm.Encode(fromRaw.Stored, cfg)
	if err != nil || !bytes.Equal(sent.Data, fromRaw.Stored) || w != 540 || h != 1200 {
		t.Fatalf("stored JPEG sent again as %d bytes %dx%d (%v), want it unchanged", len(sent.Data), w, h, err)
	}
}

// The autoglm profile sends the device's PNG as it is: the capture is the
// PNG, stored and sent unchanged, with nothing encoded.
func TestDevicePNGSentAsIs(t *testing.T) {
	data, _ := simScreen(t)
	cfg := autoglm.Config{Format: "png", MaxPixels: autoglm.FullSize}
	if !sendsDevicePNG(cfg) {
		t.Fatal("full-size PNG profile does not ask for the device's PNG")
	}
	sc, err := PrepareScreen(device.Screenshot{PNG: data}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sent, _, _, err := autoglm.EncodeImage(sc.Decoded, sc.Stored, cfg)
	if err != nil || !bytes.Equal(sent.Data, data) {
		t.Fatalf("device PNG sent as %d bytes (%v), want its %d bytes unchanged", len(sent.Data), err, len(data))
	}
}

// BenchmarkPrepareScreen compares a step's screen work from the PNG
// (decode, hash, scale, JPEG) with the same from raw pixels (hash, box
// scale, JPEG): go test -run X -bench PrepareScreen ./activities
func BenchmarkPrepareScreen(b *testing.B) {
	data, rgba := simScreen(b)
	cfg := autoglm.DefaultConfig()
	cfg.JPEGQuality = 80
	b.Run("png", func(b *testing.B) {
		for b.Loop() {
			sc, err := PrepareScreen(device.Screenshot{PNG: data}, cfg)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, _, err := autoglm.EncodeImage(sc.Decoded, sc.Stored, cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			if _, err := PrepareScreen(device.Screenshot{Pixels: rgba}, cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
}
