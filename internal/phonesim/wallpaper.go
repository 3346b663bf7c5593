package phonesim

import (
	"image"
)

// A photo wallpaper for the home screen (docs/design.md §15). Real phones
// show photographs there and in most apps; the simulator's own screens are
// flat colour fields and a few lines of text, which compress far better as
// PNG than any photograph does. The wallpaper is a landscape drawn from a
// seed: a sky gradient with soft clouds, a ridge of hills, a field with
// texture, and sensor grain, all in integer arithmetic so the same seed
// gives the same pixels on every machine. It is off unless a seed is set
// (Config.Wallpaper, SetWallpaper), so the other screens and their costs
// do not change; it is drawn once per seed and size and kept.

// Wallpaper returns the seed of the home screen's photo wallpaper, 0 for
// none.
func (p *Phone) Wallpaper() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.wallpaper
}

// SetWallpaper shows a photo wallpaper drawn from seed on the home screen
// until the next Reset (which goes back to Config.Wallpaper); 0 removes it.
func (p *Phone) SetWallpaper(seed uint64) {
	p.mu.Lock()
	p.wallpaper = seed
	p.mu.Unlock()
}

// mix64 is SplitMix64's finaliser: a well-spread hash of x.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// lattice is the value, 0..255, of the noise lattice point (ix, iy).
func lattice(seed uint64, ix, iy int) int {
	return int(mix64(seed^uint64(uint32(ix))<<32^uint64(uint32(iy))) & 0xff)
}

// valueNoise is smooth noise, 0..255, with features cell pixels apart:
// the lattice values around (x, y), interpolated with a smoothstep.
func valueNoise(seed uint64, x, y, cell int) int {
	ix, iy := floorDiv(x, cell), floorDiv(y, cell)
	fx, fy := x-ix*cell, y-iy*cell
	// smoothstep weights in 0..1024
	sx, sy := smooth(fx, cell), smooth(fy, cell)
	a, b := lattice(seed, ix, iy), lattice(seed, ix+1, iy)
	c, d := lattice(seed, ix, iy+1), lattice(seed, ix+1, iy+1)
	top := a*(1024-sx) + b*sx
	bot := c*(1024-sx) + d*sx
	return (top*(1024-sy) + bot*sy) >> 20
}

func smooth(f, cell int) int {
	t := f * 1024 / cell // 0..1023
	return t * t / 1024 * (3*1024 - 2*t) / 1024
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// fractal sums octaves of value noise from cell down to cell/2^(n-1), each
// half the weight of the one before; the result is 0..255.
func fractal(seed uint64, x, y, cell, octaves int) int {
	sum, weight, total := 0, 256, 0
	for o := range octaves {
		sum += valueNoise(seed+uint64(o)*0x51, x, y, max(cell>>o, 2)) * weight
		total += weight
		weight /= 2
	}
	return sum / total
}

// palette is the picture's colours, picked by the seed: a sky from top to
// horizon, hills, and a field from horizon to the bottom.
type palette struct {
	skyTop, skyLow, hill, fieldNear, fieldFar [3]int
}

var palettes = []palette{
	{[3]int{38, 92, 170}, [3]int{176, 208, 232}, [3]int{70, 96, 120}, [3]int{52, 92, 34}, [3]int{120, 150, 70}},    // midday
	{[3]int{64, 52, 120}, [3]int{246, 160, 96}, [3]int{80, 56, 80}, [3]int{70, 50, 40}, [3]int{170, 110, 70}},      // sunset
	{[3]int{90, 120, 140}, [3]int{200, 206, 210}, [3]int{96, 110, 104}, [3]int{60, 74, 60}, [3]int{140, 150, 130}}, // overcast
	{[3]int{20, 70, 140}, [3]int{130, 190, 220}, [3]int{40, 80, 70}, [3]int{196, 170, 120}, [3]int{230, 210, 160}}, // coast
}

func lerp(a, b [3]int, t, scale int) [3]int {
	var out [3]int
	for i := range out {
		out[i] = a[i] + (b[i]-a[i])*t/scale
	}
	return out
}

func clamp8(v int) uint8 {
	return uint8(min(max(v, 0), 255))
}

// wallpaperImage draws the photo wallpaper of seed at w×h pixels.
func wallpaperImage(w, h int, seed uint64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	pal := palettes[mix64(seed)%uint64(len(palettes))]
	s := mix64(seed ^ 0x70686f746f) // the noise's own seed
	horizon := h * (50 + int(mix64(seed+1)%12)) / 100
	// The ridge: hills whose top varies along x around the horizon.
	ridge := make([]int, w)
	for x := range w {
		ridge[x] = horizon - h/14 + (fractal(s+7, x, 0, w/3, 4)-128)*h/900
	}
	for y := range h {
		row := img.Pix[img.PixOffset(0, y):img.PixOffset(w, y)]
		for x := range w {
			var c [3]int
			switch {
			case y < ridge[x]:
				c = lerp(pal.skyTop, pal.skyLow, y, max(horizon, 1))
				// Clouds: soft noise brightens the sky where it is high.
				if cl := fractal(s+1, x, y*2, 360, 4) - 140; cl > 0 {
					for i := range c {
						c[i] += cl * (250 - c[i]) / 120
					}
				}
			case y < horizon+h/40:
				c = pal.hill
				shade := fractal(s+2, x, y, 90, 4) - 128
				for i := range c {
					c[i] += shade / 3
				}
			default:
				c = lerp(pal.fieldFar, pal.fieldNear, y-horizon, max(h-horizon, 1))
				// Texture grows towards the viewer, as grass and sand do.
				amp := 10 + 40*(y-horizon)/max(h-horizon, 1)
				tex := fractal(s+3, x, y, 48, 5) - 128
				for i := range c {
					c[i] += tex * amp / 128
				}
			}
			// Sensor grain, the same on every channel and a little more on blue.
			g := int(mix64(s^uint64(y*w+x))&0x0f) - 8
			j := x * 4
			row[j], row[j+1], row[j+2], row[j+3] = clamp8(c[0]+g), clamp8(c[1]+g), clamp8(c[2]+g+g/2), 0xff
		}
	}
	return img
}

// wallpaperFor returns the wallpaper of seed at the layout size w×h, drawn
// once and kept for the last seed and size. Callers hold r.mu.
func (r *renderer) wallpaperFor(seed uint64, w, h int) *image.RGBA {
	if r.paper == nil || r.paperSeed != seed || r.paper.Rect.Dx() != w || r.paper.Rect.Dy() != h {
		r.paper, r.paperSeed = wallpaperImage(w, h, seed), seed
	}
	return r.paper
}
