package activities

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/metrics"
)

// Act performs one action on the phone. A retried attempt first compares
// the current screen with the one the decision was based on: if it
// changed, the first attempt's input already reached the phone and the
// action is reported as already applied instead of being sent twice.
func (a *Activities) Act(ctx context.Context, in ActInput) (ActResult, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return ActResult{}, err
	}
	return a.act(ctx, d, attempt(ctx), in.Action, in.ScreenHash, in.Width, in.Height)
}

// attempt is the activity's attempt number (1 outside an activity).
func attempt(ctx context.Context) int {
	if activity.IsActivity(ctx) {
		return int(activity.GetInfo(ctx).Attempt)
	}
	return 1
}

func (a *Activities) act(ctx context.Context, d device.Device, attempt int, act autoglm.Action, hash string, w, h int) (ActResult, error) {
	if _, err := a.typedText(act); err != nil {
		return ActResult{}, err // nothing typed, nothing else either
	}
	if attempt > 1 && hash != "" && act.TouchesDevice() {
		s, err := a.observe(ctx, d, false)
		if err != nil {
			return ActResult{}, err
		}
		if s.obs.Hash != hash {
			metrics.StepReplayed(strings.ReplaceAll(strings.ToLower(act.Name), " ", "_"))
			return ActResult{Result: ActAlreadyApplied}, nil
		}
	}
	if w <= 0 || h <= 0 {
		var err error
		if w, h, err = d.ScreenSize(ctx); err != nil {
			return ActResult{}, deviceError("screen size", err)
		}
	}
	return a.perform(ctx, d, act, w, h)
}

func (a *Activities) perform(ctx context.Context, d device.Device, act autoglm.Action, w, h int) (ActResult, error) {
	res, err := a.input(ctx, d, act, w, h)
	if isSealedUnreadable(err) {
		return ActResult{}, err
	}
	if err != nil {
		return ActResult{}, deviceError(act.Name, err)
	}
	return res, nil
}

// input sends act to the phone. Errors the model can act on are results;
// an error after the input took place (the settle wait) is logged and the
// action reported done; other errors are the device's, unmapped, so a
// caller can tell an input that never reached the phone
// (device.NotSent).
func (a *Activities) input(ctx context.Context, d device.Device, act autoglm.Action, w, h int) (ActResult, error) {
	pt := func(p *autoglm.Point) (int, int, bool) {
		if p == nil {
			return 0, 0, false
		}
		x, y := autoglm.ToPixel(*p, w, h)
		return x, y, true
	}
	var err error
	missing := func(what string) (ActResult, error) {
		return ActResult{Result: fmt.Sprintf("error: %s needs %s", act.Name, what)}, nil
	}
	switch act.Name {
	case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
		x, y, ok := pt(act.Element)
		if !ok {
			return missing("element=[x,y]")
		}
		switch act.Name {
		case autoglm.ActionTap:
			err = d.Tap(ctx, x, y)
		case autoglm.ActionDoubleTap:
			err = d.DoubleTap(ctx, x, y)
		default:
			err = d.LongPress(ctx, x, y)
		}
	case autoglm.ActionSwipe:
		x1, y1, ok1 := pt(act.Start)
		x2, y2, ok2 := pt(act.End)
		if !ok1 || !ok2 {
			return missing("start=[x,y] and end=[x,y]")
		}
		err = d.Swipe(ctx, x1, y1, x2, y2, 0)
	case autoglm.ActionBack:
		err = d.Back(ctx)
	case autoglm.ActionHome:
		err = d.Home(ctx)
	case autoglm.ActionLaunch:
		if strings.TrimSpace(act.App) == "" {
			return missing(`app="..."`)
		}
		err = d.Launch(ctx, act.App)
	case autoglm.ActionType, autoglm.ActionTypeName:
		text, terr := a.typedText(act)
		if terr != nil {
			return ActResult{}, terr
		}
		err = hideTyped(d.Type(ctx, text), act, text)
	case autoglm.ActionWait:
		return a.wait(ctx, act.Duration)
	default:
		return ActResult{Result: fmt.Sprintf("error: %s is not an action the phone can perform", act.Name)}, nil
	}
	if err == nil {
		return ActResult{Result: "ok", Touched: true}, nil
	}
	if device.Sent(err) {
		a.logger(ctx).Warn("the phone took the input; what followed it failed", "serial", d.Serial(), "action", act.Name, "error", err)
		return ActResult{Result: "ok", Touched: true}, nil
	}
	// Errors the model can act on go back to it as the action's result.
	if device.NeedsPerson(err) {
		// No model can fix this: a person must install the keyboard,
		// or turn on the phone setting that lets adb switch to it.
		return ActResult{Result: err.Error(), NeedsHuman: err.Error()}, nil
	}
	var nf *device.AppNotFoundError
	if errors.As(err, &nf) {
		return ActResult{Result: err.Error()}, nil
	}
	return ActResult{}, err
}

// wait sleeps for a Wait action ("2 seconds", "500ms"), capped by MaxWait.
func (a *Activities) wait(ctx context.Context, duration string) (ActResult, error) {
	limit := a.MaxWait
	if limit <= 0 {
		limit = 10 * time.Second
	}
	d := ParseWait(duration)
	if d > limit {
		d = limit
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ActResult{}, ctx.Err()
	case <-t.C:
	}
	return ActResult{Result: "ok"}, nil
}

// maxWaitParsed bounds what ParseWait returns; Activities.MaxWait caps the
// actual wait further.
const maxWaitParsed = time.Hour

// ParseWait reads a Wait duration as models write it: "2 seconds", "2s",
// "1.5 second", "500ms", "3". Unreadable values wait one second.
func ParseWait(s string) time.Duration {
	s = strings.ToLower(strings.TrimSpace(s))
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return min(d, maxWaitParsed)
	}
	var v float64
	var unit string
	if n, _ := fmt.Sscanf(s, "%g %s", &v, &unit); n >= 1 && v >= 0 && v <= maxWaitParsed.Seconds() {
		switch {
		case strings.HasPrefix(unit, "ms"), strings.HasPrefix(unit, "milli"):
			return time.Duration(v * float64(time.Millisecond))
		case strings.HasPrefix(unit, "min"):
			return min(time.Duration(v*float64(time.Minute)), maxWaitParsed)
		default:
			return time.Duration(v * float64(time.Second))
		}
	}
	return time.Second
}
