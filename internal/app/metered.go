package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/internal/tracing"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// meteredModel records latency, tokens, errors and a step per request,
// and traces each request as a child span of the activity's.
type meteredModel struct {
	role string // "planner" or "executor"
	step string // step kind counted per successful request
	m    activities.Model
}

var _ activities.Model = meteredModel{}

func (m meteredModel) Chat(ctx context.Context, msgs []llm.Message) (*llm.Answer, error) {
	span := tracing.None
	if tracing.Active(ctx) {
		ctx, span = tracing.Start(ctx, "ModelCall:"+m.role, attribute.String("phoneflow.model.role", m.role))
	}
	a, err := m.m.Chat(ctx, msgs)
	if a != nil && span.IsRecording() {
		span.SetAttributes(attribute.String("gen_ai.response.model", a.Model),
			attribute.Int("gen_ai.usage.input_tokens", a.PromptTokens),
			attribute.Int("gen_ai.usage.output_tokens", a.CompletionTokens),
			attribute.Int64("phoneflow.model.ttft_ms", a.TTFT.Milliseconds()))
	}
	tracing.End(span, err)
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

// meteredDevice times every call and traces it as a child span of the
// activity's; inputs also count as "act" steps.
type meteredDevice struct{ d device.Device }

var _ device.Device = meteredDevice{}

// begin starts timing and tracing one device call; the returned func ends
// both (counting a successful input as an "act" step) and returns err.
func (m meteredDevice) begin(ctx context.Context, action string, input bool) (context.Context, func(error) error) {
	t := time.Now()
	span := tracing.None
	if tracing.Active(ctx) {
		ctx, span = tracing.Start(ctx, "DeviceAction:"+action,
			attribute.String("phoneflow.device.action", action), attribute.String("phoneflow.device.serial", m.d.Serial()))
	}
	return ctx, func(err error) error {
		metrics.DeviceAction(action, time.Since(t), err)
		if input && err == nil {
			metrics.Step("act")
		}
		tracing.End(span, err)
		return err
	}
}

func (m meteredDevice) Serial() string { return m.d.Serial() }

func (m meteredDevice) Screenshot(ctx context.Context) (device.Screenshot, error) {
	ctx, done := m.begin(ctx, "screenshot", false)
	s, err := m.d.Screenshot(ctx)
	return s, done(err)
}

func (m meteredDevice) Tap(ctx context.Context, x, y int) error {
	ctx, done := m.begin(ctx, "tap", true)
	return done(m.d.Tap(ctx, x, y))
}

func (m meteredDevice) DoubleTap(ctx context.Context, x, y int) error {
	ctx, done := m.begin(ctx, "double_tap", true)
	return done(m.d.DoubleTap(ctx, x, y))
}

func (m meteredDevice) LongPress(ctx context.Context, x, y int) error {
	ctx, done := m.begin(ctx, "long_press", true)
	return done(m.d.LongPress(ctx, x, y))
}

func (m meteredDevice) Swipe(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error {
	ctx, done := m.begin(ctx, "swipe", true)
	return done(m.d.Swipe(ctx, x1, y1, x2, y2, d))
}

func (m meteredDevice) Back(ctx context.Context) error {
	ctx, done := m.begin(ctx, "back", true)
	return done(m.d.Back(ctx))
}

func (m meteredDevice) Home(ctx context.Context) error {
	ctx, done := m.begin(ctx, "home", true)
	return done(m.d.Home(ctx))
}

func (m meteredDevice) Wake(ctx context.Context) error {
	ctx, done := m.begin(ctx, "wake", false)
	return done(m.d.Wake(ctx))
}

// ScreenOn reports whether the display is on, when the device can tell.
func (m meteredDevice) ScreenOn(ctx context.Context) (bool, error) {
	sw, ok := m.d.(interface {
		ScreenOn(context.Context) (bool, error)
	})
	if !ok {
		return true, nil
	}
	ctx, done := m.begin(ctx, "screen_on", false)
	on, err := sw.ScreenOn(ctx)
	return on, done(err)
}

// Unlock wakes and unlocks the phone when the device can (docs/design.md
// §15); the PIN is not traced.
func (m meteredDevice) Unlock(ctx context.Context, pin string) (bool, error) {
	u, ok := m.d.(interface {
		Unlock(context.Context, string) (bool, error)
	})
	if !ok {
		return false, nil
	}
	ctx, done := m.begin(ctx, "unlock", false)
	changed, err := u.Unlock(ctx, pin)
	return changed, done(err)
}

// Notifications lists the phone's notifications when the device can.
func (m meteredDevice) Notifications(ctx context.Context) ([]device.Notification, error) {
	nl, ok := m.d.(interface {
		Notifications(context.Context) ([]device.Notification, error)
	})
	if !ok {
		return nil, fmt.Errorf("phone %s cannot list its notifications", m.d.Serial())
	}
	ctx, done := m.begin(ctx, "notifications", false)
	ns, err := nl.Notifications(ctx)
	return ns, done(err)
}

func (m meteredDevice) Launch(ctx context.Context, app string) error {
	ctx, done := m.begin(ctx, "launch", true)
	return done(m.d.Launch(ctx, app))
}

func (m meteredDevice) Type(ctx context.Context, text string) error {
	ctx, done := m.begin(ctx, "type", true)
	return done(m.d.Type(ctx, text))
}

func (m meteredDevice) CurrentApp(ctx context.Context) (device.App, error) {
	ctx, done := m.begin(ctx, "current_app", false)
	a, err := m.d.CurrentApp(ctx)
	return a, done(err)
}

func (m meteredDevice) ScreenSize(ctx context.Context) (int, int, error) {
	ctx, done := m.begin(ctx, "screen_size", false)
	w, h, err := m.d.ScreenSize(ctx)
	return w, h, done(err)
}

func (m meteredDevice) UITree(ctx context.Context) ([]uitree.Element, error) {
	ctx, done := m.begin(ctx, "ui_tree", false)
	e, err := m.d.UITree(ctx)
	return e, done(err)
}

var _ device.Identifier = meteredDevice{}

// Identity is the wrapped phone's identity, "" when it cannot tell (then
// device.IdentityOf takes the serial).
func (m meteredDevice) Identity(ctx context.Context) (string, error) {
	id, ok := m.d.(device.Identifier)
	if !ok {
		return "", nil
	}
	ctx, done := m.begin(ctx, "identity", false)
	s, err := id.Identity(ctx)
	return s, done(err)
}

var _ device.Notes = meteredDevice{}

// ReadNotes reads the wrapped phone's notes; device.ErrNoNotes when it
// keeps none.
func (m meteredDevice) ReadNotes(ctx context.Context, files []string, list string) (map[string]string, []string, error) {
	n, ok := m.d.(device.Notes)
	if !ok {
		return nil, nil, device.ErrNoNotes
	}
	ctx, done := m.begin(ctx, "read_notes", false)
	got, listed, err := n.ReadNotes(ctx, files, list)
	return got, listed, done(err)
}

// PhoneTime reads the wrapped phone's clock, when it can be read.
func (m meteredDevice) PhoneTime(ctx context.Context) (time.Time, error) {
	c, ok := m.d.(device.PhoneClock)
	if !ok {
		return time.Time{}, errors.New("this phone's clock cannot be read")
	}
	ctx, done := m.begin(ctx, "phone_time", false)
	t, err := c.PhoneTime(ctx)
	return t, done(err)
}

// WriteNotes writes the wrapped phone's notes; device.ErrNoNotes when it
// keeps none.
func (m meteredDevice) WriteNotes(ctx context.Context, w device.NotesWrite) ([]string, error) {
	n, ok := m.d.(device.Notes)
	if !ok {
		return nil, device.ErrNoNotes
	}
	ctx, done := m.begin(ctx, "write_notes", false)
	listed, err := n.WriteNotes(ctx, w)
	return listed, done(err)
}

var _ device.Dragger = meteredDevice{}

// DragUnsettled drags without the settle wait when the wrapped phone can,
// and swipes with it otherwise.
func (m meteredDevice) DragUnsettled(ctx context.Context, x1, y1, x2, y2 int, d time.Duration) error {
	dr, ok := m.d.(device.Dragger)
	if !ok {
		return m.Swipe(ctx, x1, y1, x2, y2, d)
	}
	ctx, done := m.begin(ctx, "swipe", true)
	return done(dr.DragUnsettled(ctx, x1, y1, x2, y2, d))
}
