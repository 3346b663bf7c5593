package phonesim

import (
	"bytes"
	"image/png"
	"testing"
)

// The photo wallpaper is drawn from its seed alone: two phones with the
// same seed show the same pixels, another seed other pixels, and the
// default phone's home screen is the plain one (docs/design.md §15).
func TestWallpaperDeterministic(t *testing.T) {
	shot := func(p *Phone) []byte {
		t.Helper()
		b, ok, err := p.Screenshot()
		if err != nil || !ok {
			t.Fatalf("screenshot: ok=%t err=%v", ok, err)
		}
		return b
	}
	plain := shot(New(Config{}))
	a := shot(New(Config{Wallpaper: 7}))
	b := shot(New(Config{Wallpaper: 7}))
	c := shot(New(Config{Wallpaper: 8}))
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed drew different home screens")
	}
	if bytes.Equal(a, c) {
		t.Fatal("seeds 7 and 8 drew the same home screen")
	}
	if bytes.Equal(a, plain) {
		t.Fatal("the wallpaper did not change the home screen")
	}
	// Photo-like: its PNG is several times the plain home screen's.
	if len(a) < 10*len(plain) {
		t.Errorf("home screen with a photo: %d PNG bytes, plain %d: not photo-like", len(a), len(plain))
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != DefaultWidth || got.Y != DefaultHeight {
		t.Fatalf("size %v", got)
	}
}

// The wallpaper is the home screen's only: an app drawn over it, and the
// phone after a reset, show what they showed without it.
func TestWallpaperHomeScreenOnly(t *testing.T) {
	p := New(Config{})
	plain, _, _ := p.Screenshot()
	p.SetWallpaper(3)
	if p.Wallpaper() != 3 {
		t.Fatalf("wallpaper %d", p.Wallpaper())
	}
	photo, _, _ := p.Screenshot()
	if bytes.Equal(plain, photo) {
		t.Fatal("SetWallpaper did not change the home screen")
	}
	p.mu.Lock()
	p.launch(pkgSettings)
	p.mu.Unlock()
	withPaper, _, _ := p.Screenshot()
	q := New(Config{})
	q.mu.Lock()
	q.launch(pkgSettings)
	q.mu.Unlock()
	without, _, _ := q.Screenshot()
	if !bytes.Equal(withPaper, without) {
		t.Fatal("Settings looks different with a home-screen wallpaper set")
	}
	p.Reset()
	if p.Wallpaper() != 0 {
		t.Fatal("Reset kept the wallpaper SetWallpaper set")
	}
	if again, _, _ := p.Screenshot(); !bytes.Equal(again, plain) {
		t.Fatal("the home screen after Reset is not the plain one")
	}
}
