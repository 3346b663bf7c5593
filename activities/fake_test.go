package activities

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// fakePhone is a device.Device whose screen is a flat colour that changes
// with every input; it records the inputs it received.
type fakePhone struct {
	mu        sync.Mutex
	w, h      int
	shade     uint8
	sensitive bool
	inputs    []string
	failNext  error // returned by the next input
	failShot  error // returned by every screenshot while set
	apps      map[string]bool
	clock     int    // bumps the status bar only
	pkg       string // the foreground package; empty = Settings
}

var _ device.Device = (*fakePhone)(nil)

func newFakePhone() *fakePhone {
	return &fakePhone{w: 1080, h: 2400, shade: 40, apps: map[string]bool{"Settings": true}}
}

func (p *fakePhone) Serial() string { return "fake-1" }

func (p *fakePhone) render() []byte {
	img := image.NewRGBA(image.Rect(0, 0, p.w/10, p.h/10))
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			c := color.RGBA{p.shade, p.shade, p.shade, 255}
			if y < 3 { // status bar: changes with the clock only
				c = color.RGBA{uint8(p.clock * 50), 0, 0, 255}
			}
			if y > 100 && y < 120 && x < 50 {
				c = color.RGBA{255 - p.shade, 0, 0, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func (p *fakePhone) Screenshot(context.Context) (device.Screenshot, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clock++
	if p.failShot != nil {
		return device.Screenshot{}, p.failShot
	}
	if p.sensitive {
		return device.Screenshot{Width: p.w, Height: p.h, Sensitive: true, Reason: "secure screen"}, nil
	}
	return device.Screenshot{PNG: p.render(), Width: p.w, Height: p.h}, nil
}

func (p *fakePhone) input(format string, args ...any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.failNext; err != nil {
		p.failNext = nil
		return err
	}
	p.inputs = append(p.inputs, fmt.Sprintf(format, args...))
	p.shade += 30
	return nil
}

func (p *fakePhone) Tap(_ context.Context, x, y int) error { return p.input("tap %d %d", x, y) }
func (p *fakePhone) DoubleTap(_ context.Context, x, y int) error {
	return p.input("double %d %d", x, y)
}
func (p *fakePhone) LongPress(_ context.Context, x, y int) error { return p.input("long %d %d", x, y) }
func (p *fakePhone) Swipe(_ context.Context, x1, y1, x2, y2 int, _ time.Duration) error {
	return p.input("swipe %d %d %d %d", x1, y1, x2, y2)
}
func (p *fakePhone) Back(context.Context) error { return p.input("back") }
func (p *fakePhone) Home(context.Context) error { return p.input("home") }
func (p *fakePhone) Wake(context.Context) error { return nil }
func (p *fakePhone) Launch(_ context.Context, app string) error {
	if !p.apps[app] {
		return &device.AppNotFoundError{App: app, Suggestions: []string{"Settings"}}
	}
	return p.input("launch %s", app)
}
func (p *fakePhone) Type(_ context.Context, text string) error { return p.input("type %s", text) }
func (p *fakePhone) CurrentApp(context.Context) (device.App, error) {
	if p.pkg != "" {
		return device.App{Package: p.pkg, Name: p.pkg}, nil
	}
	return device.App{Package: "com.android.settings", Name: "Settings"}, nil
}
func (p *fakePhone) ScreenSize(context.Context) (int, int, error) { return p.w, p.h, nil }
func (p *fakePhone) UITree(context.Context) ([]uitree.Element, error) {
	return []uitree.Element{{Class: "android.widget.Switch", Text: "Wi-Fi", ResourceID: "com.android.settings:id/wifi_switch",
		Bounds: uitree.Bounds{X1: 0, Y1: 400, X2: 1080, Y2: 620}, Clickable: true, Checkable: true}}, nil
}

func (p *fakePhone) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.inputs...)
}

type fakePool struct{ p *fakePhone }

func (f fakePool) Get(_ context.Context, serial string) (device.Device, error) {
	if serial != "fake-1" {
		return nil, &device.NotAllowedError{Serial: serial, Allowed: []string{"fake-1"}}
	}
	return f.p, nil
}
func (f fakePool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

// fakeModel answers with scripted texts or errors and records requests.
type fakeModel struct {
	mu      sync.Mutex
	answers []any // string, *llm.Answer or error
	reqs    [][]llm.Message
	lowered []bool // whether each request asked for fewer max tokens
}

func (m *fakeModel) Chat(ctx context.Context, msgs []llm.Message) (*llm.Answer, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reqs = append(m.reqs, msgs)
	m.lowered = append(m.lowered, llm.LowersMaxTokens(ctx))
	if len(m.answers) == 0 {
		return nil, errors.New("fake model: no answer scripted")
	}
	a := m.answers[0]
	m.answers = m.answers[1:]
	if err, ok := a.(error); ok {
		return nil, err
	}
	if ans, ok := a.(*llm.Answer); ok {
		return ans, nil
	}
	return &llm.Answer{Text: a.(string), Model: "fake", Total: 1500 * time.Millisecond}, nil
}

func (m *fakeModel) last() []llm.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reqs[len(m.reqs)-1]
}

func newActivities(t *testing.T, answers ...any) (*Activities, *fakePhone, *fakeModel) {
	t.Helper()
	store, err := blob.NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := newFakePhone()
	m := &fakeModel{answers: answers}
	a := &Activities{Devices: fakePool{p}, Executor: m, Planner: m, Blobs: store,
		Now: func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) }}
	a.Exec.IncludeElements = true
	return a, p, m
}
