package app

import (
	"context"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// meteredModel records latency, tokens, errors and a step per request.
type meteredModel struct {
	role string // "planner" or "executor"
	step string // step kind counted per successful request
	m    activities.Model
}

var _ activities.Model = meteredModel{}

func (m meteredModel) Chat(ctx context.Context, msgs []llm.Message) (*llm.Answer, error) {
	a, err := m.m.Chat(ctx, msgs)
	if err != nil {
		metrics.ModelError(m.role, llm.IsRetryable(err))
		return a, err
	}
	metrics.Step(m.step)
	if a != nil {
		metrics.ModelLatency(m.role, "ttft", a.TTFT)
		metrics.ModelLatency(m.role, "think_end", a.ThinkEnd)
		metrics.ModelLatency(m.role, "total", a.Total)
		metrics.Tokens(m.role, a.PromptTokens, a.CompletionTokens)
		if a.ResponseFormat != "" {
			metrics.FormatUsage(m.role, a.ResponseFormat, a.Total, a.PromptTokens, a.CompletionTokens)
		}
	}
	return a, err
}

// meteredPool hands out devices that record action latencies.
type meteredPool struct{ p activities.DevicePool }

var _ activities.DevicePool = meteredPool{}

func (p meteredPool) Get(ctx context.Context, serial string) (device.Device, error) {
	d, err := p.p.Get(ctx, serial)
	if err != nil {
		return nil, err
	}
	return meteredDevice{d}, nil
}

func (p meteredPool) List(ctx context.Context) ([]device.Info, error) { return p.p.List(ctx) }

// meteredDevice times every call; inputs also count as "act" steps.
type meteredDevice struct{ d device.Device }

var _ device.Device = meteredDevice{}

func observe(action string, start time.Time, err error) error {
	metrics.DeviceAction(action, time.Since(start), err)
	return err
}

func act(action string, start time.Time, err error) error {
	if err == nil {
		metrics.Step("act")
	}
	return observe(action, start, err)
}

func (m meteredDevice) Serial() string { return m.d.Serial() }

func (m meteredDevice) Screenshot(ctx context.Context) (device.Screenshot, error) {
	t := time.Now()
	s, err := m.d.Screenshot(ctx)
	return s, observe("screenshot", t, err)
}

func (m meteredDevice) Tap(ctx context.Context, x, y int) error {
	t := time.Now()
	return act("tap", t, m.d.Tap(ctx, x, y))
}

func (m meteredDevice) DoubleTap(ctx context.Context, x, y int) error {
	t := time.Now()
	return act("double_tap", t, m.d.DoubleTap(ctx, x, y))
}

func (m meteredDevice) LongPress(ctx context.Context, x, y int) error {
	t := time.Now()
	return act("long_press", t, m.d.LongPress(ctx, x, y))
}

func (m meteredDevice) Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error {
	t := time.Now()
	return act("swipe", t, m.d.Swipe(ctx, x1, y1, x2, y2, d))
}

func (m meteredDevice) Back(ctx context.Context) error {
	t := time.Now()
	return act("back", t, m.d.Back(ctx))
}

func (m meteredDevice) Home(ctx context.Context) error {
	t := time.Now()
	return act("home", t, m.d.Home(ctx))
}

func (m meteredDevice) Wake(ctx context.Context) error {
	t := time.Now()
	return observe("wake", t, m.d.Wake(ctx))
}

func (m meteredDevice) Launch(ctx context.Context, app string) error {
	t := time.Now()
	return act("launch", t, m.d.Launch(ctx, app))
}

func (m meteredDevice) Type(ctx context.Context, text string) error {
	t := time.Now()
	return act("type", t, m.d.Type(ctx, text))
}

func (m meteredDevice) CurrentApp(ctx context.Context) (device.App, error) {
	t := time.Now()
	a, err := m.d.CurrentApp(ctx)
	return a, observe("current_app", t, err)
}

func (m meteredDevice) ScreenSize(ctx context.Context) (int, int, error) {
	t := time.Now()
	w, h, err := m.d.ScreenSize(ctx)
	return w, h, observe("screen_size", t, err)
}

func (m meteredDevice) UITree(ctx context.Context) ([]uitree.Element, error) {
	t := time.Now()
	e, err := m.d.UITree(ctx)
	return e, observe("ui_tree", t, err)
}
