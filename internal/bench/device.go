package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
)

// capturesPerRun is how many screenshots one screenshot-pipeline run takes
// of each screen.
const capturesPerRun = 5

func (r *runner) screenshot(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasureScreenshot],
		Note: fmt.Sprintf("The simulated phone (1080×2400) through the private adb server, %d captures per screen per run. "+
			"Full PNG = what `screencap -p` returns (`device.Screenshot`), the reference for the bytes sent. "+
			"Sent = the image an executor request carries with the default settings (at most 648,000 pixels, 540×1200 for this screen, JPEG quality 80), "+
			"made as the Step activity makes it: the raw capture (`screencap` without -p, `activities.CaptureScreen`) hashed, box-scaled and encoded (`activities.PrepareScreen`); "+
			"the request carries it base64-encoded in a data URL, and the blob store keeps it as the step's screen. Only the current screenshot goes into a request. "+
			"Home over a photo = the home screen with the simulator's photo wallpaper (a landscape drawn from the seed, with sensor grain; off on every other screen), as real phones show photographs where the simulator draws flat colour. "+
			"Worker CPU per step = the worker's own work on one executor step's screen, each part timed as "+threadCPUNote+": "+
			"the capture (read through adb), the app in front, the UI tree dump and its parse, the screen hash, scaling and encoding of the image sent, and the blob writes of UI tree (JSON) and image; "+
			"waiting (the phone drawing, the model answering) is not CPU and not counted; one unmeasured step per screen comes first.", capturesPerRun),
		Header: []string{"screen", "full PNG bytes", "sent image bytes", "sent base64 bytes", "sent / full PNG", "capture ms", "prepare ms",
			"worker CPU ms per step", "CPU: capture", "app, UI tree", "hash, scale, encode", "blob writes", "sent size"},
	}
	env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1, NoWorker: true})
	if err != nil {
		return []Table{t}, err
	}
	defer env.Stop()
	d, err := env.Acts.Devices.Get(ctx, env.Serials[0])
	if err != nil {
		return []Table{t}, err
	}
	cfg := app.ExecConfig(env.Config)
	screens := []struct {
		name  string
		setup func() error
	}{
		{"Launcher (home)", func() error { env.Phones[0].Reset(); return nil }},
		{"Settings list", func() error { env.Phones[0].Reset(); return d.Launch(ctx, "Settings") }},
		{"Messages", func() error { env.Phones[0].Reset(); return d.Launch(ctx, "Messages") }},
	}
	// Photo-like screens: the home screen over a photo wallpaper
	// (docs/design.md §15), as real phones show photographs; off on every
	// other screen and in every other measurement.
	for _, seed := range photoSeeds {
		screens = append(screens, struct {
			name  string
			setup func() error
		}{fmt.Sprintf("%s %d)", photoScreen, seed), func() error { env.Phones[0].Reset(); env.Phones[0].SetWallpaper(seed); return nil }})
	}
	defer env.Phones[0].Reset()
	var flatShare, photoShare Sample
	for _, sc := range screens {
		if err := sc.setup(); err != nil {
			return []Table{t}, fmt.Errorf("%s: %w", sc.name, err)
		}
		var full, sent, b64, share, capMs, prepMs Sample
		var cpu, warm stepCPU
		// One step's work unmeasured first: the CPU figures are the steady
		// state, not the first step after the stack started.
		if err := warm.measure(ctx, d, env.Acts.Blobs, cfg); err != nil {
			return []Table{t}, fmt.Errorf("worker CPU on %s: %w", sc.name, err)
		}
		size := ""
		for range r.o.Runs * capturesPerRun {
			ref, err := d.Screenshot(ctx)
			if err != nil {
				return []Table{t}, fmt.Errorf("screenshot of %s: %w", sc.name, err)
			}
			began := time.Now()
			shot, err := activities.CaptureScreen(ctx, d, cfg)
			if err != nil {
				return []Table{t}, fmt.Errorf("screenshot of %s: %w", sc.name, err)
			}
			capMs = append(capMs, Ms(time.Since(began)))
			began = time.Now()
			img, w, h, err := sentImage(shot, cfg)
			if err != nil {
				return []Table{t}, err
			}
			prepMs = append(prepMs, Ms(time.Since(began)))
			full, sent = append(full, float64(len(ref.PNG))), append(sent, float64(len(img.Data)))
			b64 = append(b64, float64(len(img.DataURL())))
			share = append(share, float64(len(img.Data))/float64(len(ref.PNG)))
			size = fmt.Sprintf("%d×%d %s", w, h, img.MIME)
			if img.MIME == "image/jpeg" {
				size += fmt.Sprintf(" q%d", cfg.JPEGQuality)
			}
			if err := cpu.measure(ctx, d, env.Acts.Blobs, cfg); err != nil {
				return []Table{t}, fmt.Errorf("worker CPU on %s: %w", sc.name, err)
			}
		}
		if strings.HasPrefix(sc.name, photoScreen) {
			photoShare = append(photoShare, share...)
		} else {
			flatShare = append(flatShare, share...)
		}
		t.Rows = append(t.Rows, []string{sc.name, full.Summary(0), sent.Summary(0), b64.Summary(0), share.Summary(2), capMs.Summary(1), prepMs.Summary(1),
			cpu.total.Summary(1), cpu.capture.Summary(1), cpu.tree.Summary(1), cpu.prepare.Summary(1), cpu.blobs.Summary(1), size})
	}
	if len(flatShare) > 0 && len(photoShare) > 0 {
		t.Findings = append(t.Findings, fmt.Sprintf("Sent / full PNG: %.1f%%–%.1f%% on the flat screens, %.1f%%–%.1f%% on the photo-like ones (the target is at most 15%%).",
			100*slices.Min(flatShare), 100*slices.Max(flatShare), 100*slices.Min(photoShare), 100*slices.Max(photoShare)))
	}
	return []Table{t}, nil
}

// photoScreen names the screenshot rows of the home screen over a photo
// wallpaper; photoSeeds are their wallpapers (a midday field and a coast).
const photoScreen = "Home over a photo (wallpaper seed"

var photoSeeds = []uint64{6, 7}

// sentImage is the image an executor request carries for a capture, as
// the Step activity prepares it and autoglm.BuildMessages encodes it.
func sentImage(shot device.Screenshot, cfg autoglm.Config) (llm.Image, int, int, error) {
	sc, err := activities.PrepareScreen(shot, cfg)
	device.Release(shot)
	if err != nil {
		return llm.Image{}, 0, 0, err
	}
	if sc.Decoded != nil {
		return autoglm.EncodeImage(sc.Decoded, sc.Stored, cfg)
	}
	return autoglm.Encode(sc.Stored, cfg)
}

// settleActions is how many inputs one settle run sends.
const settleActions = 10

func (r *runner) settle(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasureSettle],
		Note: fmt.Sprintf("%d inputs (launch Settings, then Home, alternately) on one simulated phone through adb, timed from the first input until the last one's wait ends. "+
			"`settle` (the default) captures the screen every 150 ms until two captures match (at most 3 s); `fixed` sleeps 1 s after each input as the reference did; "+
			"`none` does not wait at all and is shown only as the floor (the next observation could see a half-drawn screen).", settleActions),
		Header: []string{"mode", "device time per 10 actions ms", "mean wait per action ms"},
	}
	env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1, NoWorker: true})
	if err != nil {
		return []Table{t}, err
	}
	defer env.Stop()
	var fixed, settle float64
	for _, mode := range []string{device.SettleWait, device.SettleFixed, device.SettleNone} {
		pol := device.DefaultSettle()
		pol.Mode = mode
		var waits []time.Duration
		pool := device.NewPool(r.st.ADB, device.PoolOptions{Allow: env.Serials, Settle: pol,
			Device: device.Options{OnSettle: func(s device.SettleStats) { waits = append(waits, s.Waited) }}})
		d, err := pool.Get(ctx, env.Serials[0])
		if err != nil {
			return []Table{t}, err
		}
		var per10, wait Sample
		for range r.o.Runs {
			env.Phones[0].Reset()
			waits = waits[:0]
			began := time.Now()
			for i := range settleActions {
				if i%2 == 0 {
					err = d.Launch(ctx, "Settings")
				} else {
					err = d.Home(ctx)
				}
				if err != nil {
					return []Table{t}, fmt.Errorf("%s mode: %w", mode, err)
				}
			}
			per10 = append(per10, Ms(time.Since(began))*10/settleActions)
			var sum time.Duration
			for _, w := range waits {
				sum += w
			}
			if len(waits) > 0 {
				wait = append(wait, Ms(sum)/float64(len(waits)))
			}
		}
		switch mode {
		case device.SettleFixed:
			fixed = per10.Median()
		case device.SettleWait:
			settle = per10.Median()
		}
		t.Rows = append(t.Rows, []string{mode, per10.Summary(0), wait.Summary(0)})
	}
	if fixed > 0 && settle > 0 {
		t.Findings = append(t.Findings, fmt.Sprintf("Settle waiting takes %.0f%% of the fixed-delay device time (%.1f s saved per 10 actions).", 100*settle/fixed, (fixed-settle)/1000))
	}
	return []Table{t}, nil
}

// stepCPU collects the worker's CPU time per step, by part.
type stepCPU struct {
	total, capture, tree, prepare, blobs Sample
}

// measure does a step's screen work once on this goroutine's own OS thread
// and adds its CPU time: capture, UI tree, hash, scale and encode, blob
// writes, as the Step activity does them (docs/design.md §3).
func (c *stepCPU) measure(ctx context.Context, d device.Device, blobs activities.BlobStore, cfg autoglm.Config) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadCPU()
	shot, err := activities.CaptureScreen(ctx, d, cfg)
	if err != nil {
		return err
	}
	t1 := threadCPU()
	if _, err := d.CurrentApp(ctx); err != nil {
		return err
	}
	elems, err := d.UITree(ctx)
	if err != nil {
		return err
	}
	tree, err := json.Marshal(elems)
	if err != nil {
		return err
	}
	t2 := threadCPU()
	sc, err := activities.PrepareScreen(shot, cfg) // the hash is taken here
	device.Release(shot)
	if err != nil {
		return err
	}
	if sc.Decoded != nil {
		if _, _, _, err := autoglm.EncodeImage(sc.Decoded, sc.Stored, cfg); err != nil {
			return err
		}
	} else if _, _, _, err := autoglm.Encode(sc.Stored, cfg); err != nil {
		return err
	}
	t3 := threadCPU()
	if _, err := blobs.Put(ctx, tree, "application/json"); err != nil {
		return err
	}
	if _, err := blobs.Put(ctx, sc.Stored, sc.MIME); err != nil {
		return err
	}
	t4 := threadCPU()
	ms := func(d time.Duration) float64 { return Ms(d) }
	c.capture = append(c.capture, ms(t1-t0))
	c.tree = append(c.tree, ms(t2-t1))
	c.prepare = append(c.prepare, ms(t3-t2))
	c.blobs = append(c.blobs, ms(t4-t3))
	c.total = append(c.total, ms(t4-t0))
	return nil
}
