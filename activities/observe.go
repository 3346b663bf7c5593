package activities

import (
	"context"
	"encoding/json"
	"image"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// screen is an observation with its bytes, kept in memory within a Step.
type screen struct {
	obs   Observation
	png   []byte
	img   image.Image // png decoded once, for the hash and the executor request
	elems []uitree.Element
}

// Observe captures the screen (and the UI tree when asked) into the blob
// store and returns only references and facts.
func (a *Activities) Observe(ctx context.Context, in ObserveInput) (Observation, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return Observation{}, err
	}
	s, err := a.observe(ctx, d, in.UITree)
	return s.obs, err
}

func (a *Activities) observe(ctx context.Context, d device.Device, withTree bool) (screen, error) {
	s, err := a.look(ctx, d, withTree)
	if err != nil || !withTree || s.elems != nil || !a.wake(ctx, d) {
		return s, err
	}
	if _, err := a.unlock(ctx, d); err != nil {
		return s, err
	}
	return a.look(ctx, d, withTree)
}

// screenSwitch is a device that tells whether its display is on.
type screenSwitch interface {
	ScreenOn(ctx context.Context) (bool, error)
}

// wake turns on a display that is off (it timed out, or nobody has used
// the phone for a while), as a person picks the phone up before using it:
// a dark screen shows nothing to decide on, and its UI tree cannot be
// read. It reports whether it woke the phone. Waking is the same once or
// twice, so it is not journalled; what the screen then shows (a keyguard,
// say) is for the executor to get past (docs/design.md §15).
func (a *Activities) wake(ctx context.Context, d device.Device) bool {
	sw, ok := d.(screenSwitch)
	if !ok {
		return false
	}
	if on, err := sw.ScreenOn(ctx); err != nil || on {
		return false
	}
	if err := d.Wake(ctx); err != nil {
		a.logger(ctx).Warn("the screen is off and waking it failed", "serial", d.Serial(), "error", err)
		return false
	}
	a.logger(ctx).Warn("the screen was off: woke it", "serial", d.Serial())
	return true
}

// look captures the screen once: screenshot, app in front and, withTree,
// the UI tree.
func (a *Activities) look(ctx context.Context, d device.Device, withTree bool) (screen, error) {
	var s screen
	shot, err := CaptureScreen(ctx, d, a.Exec)
	if err != nil {
		return s, deviceError("screenshot", err)
	}
	s.obs.Width, s.obs.Height = shot.Width, shot.Height
	s.obs.Sensitive, s.obs.SensitiveReason = shot.Sensitive, shot.Reason
	if app, err := d.CurrentApp(ctx); err == nil {
		s.obs.App, s.obs.AppPackage = app.Name, app.Package
	} else {
		a.logger(ctx).Warn("current app unknown", "serial", d.Serial(), "error", err)
	}
	if s.obs.Width == 0 || s.obs.Height == 0 {
		if w, h, err := d.ScreenSize(ctx); err == nil {
			s.obs.Width, s.obs.Height = w, h
		}
	}
	if withTree {
		elems, err := d.UITree(ctx)
		if err != nil {
			// Some screens (video, games) cannot be dumped; the screenshot
			// is enough to go on.
			a.logger(ctx).Warn("UI tree unavailable", "serial", d.Serial(), "error", err)
		} else {
			s.elems = elems
			s.obs.TextHash = textHash(elems)
			data, err := json.Marshal(elems)
			if err != nil {
				return s, err
			}
			if s.obs.TreeRef, err = a.put(ctx, data, "application/json"); err != nil {
				return s, err
			}
		}
	}
	if !shot.Sensitive {
		sc, err := PrepareScreen(shot, a.Exec)
		device.Release(shot)
		if err != nil {
			return s, temporal.NewApplicationError("screenshot: not a readable image: "+err.Error(), ErrTypeDevice)
		}
		s.png, s.img, s.obs.Hash = sc.Stored, sc.Decoded, sc.Hash
		if s.obs.ScreenRef, err = a.put(ctx, sc.Stored, sc.MIME); err != nil {
			return s, err
		}
	} else {
		s.obs.Hash = sensitiveHash(s.obs.AppPackage, s.elems)
	}
	return s, nil
}
