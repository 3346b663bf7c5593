package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// capturesPerRun is how many screenshots one screenshot-pipeline run takes
// of each screen.
const capturesPerRun = 5

func (r *runner) screenshot(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: "4. Screenshot pipeline",
		Note: fmt.Sprintf("`device.Screenshot` through the private adb server (`exec:screencap -p` from the simulated phone, 1080×2400), %d captures per screen per run. "+
			"Sent = the image `autoglm.Encode` puts into an executor request with the default settings (scaled to at most 1 MP, JPEG quality 80); "+
			"the request carries it base64-encoded in a data URL. Only the current screenshot goes into a request.", capturesPerRun),
		Header: []string{"screen", "full PNG bytes", "sent image bytes", "sent base64 bytes", "sent / full PNG", "capture ms", "encode ms"},
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
	for _, sc := range screens {
		if err := sc.setup(); err != nil {
			return []Table{t}, fmt.Errorf("%s: %w", sc.name, err)
		}
		var full, sent, b64, share, capMs, encMs Sample
		for range r.o.Runs * capturesPerRun {
			began := time.Now()
			shot, err := d.Screenshot(ctx)
			if err != nil {
				return []Table{t}, fmt.Errorf("screenshot of %s: %w", sc.name, err)
			}
			capMs = append(capMs, Ms(time.Since(began)))
			began = time.Now()
			img, _, _, err := autoglm.Encode(shot.PNG, cfg)
			if err != nil {
				return []Table{t}, err
			}
			encMs = append(encMs, Ms(time.Since(began)))
			full, sent = append(full, float64(len(shot.PNG))), append(sent, float64(len(img.Data)))
			b64 = append(b64, float64(len(img.DataURL())))
			share = append(share, float64(len(img.Data))/float64(len(shot.PNG)))
		}
		t.Rows = append(t.Rows, []string{sc.name, full.Summary(0), sent.Summary(0), b64.Summary(0), share.Summary(2), capMs.Summary(1), encMs.Summary(1)})
	}
	return []Table{t}, nil
}

// settleActions is how many inputs one settle run sends.
const settleActions = 10

func (r *runner) settle(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: "5. Settle waiting against a fixed 1 s delay",
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
