package autoglm

import "testing"

func TestSmartResize(t *testing.T) {
	for _, c := range []struct{ w, h, ww, wh int }{
		{1080, 2400, 1092, 2408}, // the Qwen cookbook's phone screenshot
		{1920, 1080, 1932, 1092},
		{670, 1490, 672, 1484},
		{10, 10, 280, 280}, // raised to the minimum area
	} {
		w, h := SmartResize(c.w, c.h, 28, 100*28*28, 16384*28*28)
		if w != c.ww || h != c.wh {
			t.Errorf("%dx%d: got %dx%d, want %dx%d", c.w, c.h, w, h, c.ww, c.wh)
		}
	}
	if w, h := SmartResize(4000, 9000, 28, 3136, 1_000_000); w*h > 1_000_000 || w%28 != 0 || h%28 != 0 {
		t.Errorf("capped: %dx%d", w, h)
	}
}

func TestFrameGrid(t *testing.T) {
	px := Frame{W: 1092, H: 2408}
	if p, ok := px.Grid(935, 406); !ok || p != (Point{856, 169}) {
		t.Errorf("pixels: %v %v", p, ok)
	}
	if _, ok := px.Grid(1200, 10); ok {
		t.Error("a point outside the image was accepted")
	}
	rel := Frame{Relative: true}
	if p, ok := rel.Grid(1000, 0); !ok || p != (Point{999, 0}) {
		t.Errorf("relative: %v %v", p, ok)
	}
	q3 := Frame{Relative: true, Scale: 999}
	if p, ok := q3.Grid(447, 81); !ok || p != (Point{447, 81}) {
		t.Errorf("0-999: %v %v", p, ok)
	}
}
