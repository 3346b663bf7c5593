package activities

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// BenchmarkScreenHash measures hashing a full-size 1080x2400 screenshot,
// which every Observe pays once: go test -bench ScreenHash ./activities
func BenchmarkScreenHash(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	for y := range 2400 {
		for x := range 1080 {
			img.Set(x, y, color.RGBA{uint8(x / 5), uint8(y / 10), uint8((x + y) / 7), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := ScreenHash(data); err != nil {
			b.Fatal(err)
		}
	}
}
