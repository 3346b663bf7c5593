package phonesim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config describes one simulated phone. Zero fields take defaults.
type Config struct {
	Serial string // State().Serial and the serial ADB lists; default "phonesim"
	// SerialNo is ro.serialno, the phone's own identity; default Serial.
	// Two phones that share a serial (two hosts each with emulator-5554)
	// are told apart by it.
	SerialNo string
	Width    int // screen width in pixels; default 1080
	Height   int // screen height in pixels; default 2400
	// Density is the screen's density in dots per inch (`wm density`,
	// ro.sf.lcd_density); default 420. Apps lay out in density-independent
	// units, as Android's do, so a 720x1600 screen at 320 dpi shows the
	// screens a narrower, taller phone would.
	Density int
	Model   string // ro.product.model; default "Pixel 7 (phonesim)"
	// Android is ro.build.version.release, also shown in Settings ›
	// About phone; default AndroidVersion.
	Android string
	// Life makes the screens change by themselves (incoming messages,
	// banners, dialogs, a ticking clock, the keyguard); zero is off.
	Life Life
	// Logger receives debug logs about connections; default slog.Default().
	Logger *slog.Logger
	// Wallpaper, when not 0, is the seed of a photo-like wallpaper on the
	// home screen (a landscape with grain; see SetWallpaper); 0, the
	// default, keeps the plain white home screen.
	Wallpaper uint64
	// Costs is how long each command takes and when `uiautomator dump`
	// finds no idle state, drawn from Life.Seed; the zero Costs (the
	// default) answers at once (CostProfile, docs/phones.md#a-phones-costs).
	Costs Costs
	// Skin is how Settings and Quick Settings look; "" is SkinClassic
	// (docs/phones.md#skins).
	Skin Skin
}

// Defaults used for zero Config fields.
const (
	DefaultSerial = "phonesim"
	DefaultWidth  = 1080
	DefaultHeight = 2400
	// DefaultDensity is also the density the layout's pixel figures are
	// drawn for: at any other the layout is scaled by Density/420.
	DefaultDensity = 420
	DefaultModel   = "Pixel 7 (phonesim)"
)

// Phone is one simulated Android phone. All methods are safe for
// concurrent use.
type Phone struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	st      data
	stack   []*view
	seq     int
	inputs  []InputEvent
	files   map[string]*vfile
	faults  faults
	frozen  *screen // what the display still shows during a screen-delay fault
	frozenT time.Time
	life    life
	// wallpaper is the home screen's photo seed, 0 for none.
	wallpaper uint64

	rend *renderer
	// lw, lh are the screen's size in layout units (pixels at
	// DefaultDensity): the layout, taps and swipes work in them.
	lw, lh int

	tmu        sync.Mutex
	transports map[*transport]struct{}

	apkMu sync.Mutex
	apks  map[string][]byte // the APKs built for `pm path`'s files, per package

	cost *costState // the cost profile's draws and the screen it last saw

	shade shade // the Pixel skin's Quick Settings shade
}

// New returns a phone in its initial state: awake, on the launcher.
func New(cfg Config) *Phone {
	if cfg.Serial == "" {
		cfg.Serial = DefaultSerial
	}
	if cfg.SerialNo == "" {
		cfg.SerialNo = cfg.Serial
	}
	if cfg.Width <= 0 {
		cfg.Width = DefaultWidth
	}
	if cfg.Height <= 0 {
		cfg.Height = DefaultHeight
	}
	if cfg.Density <= 0 {
		cfg.Density = DefaultDensity
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Android == "" {
		cfg.Android = AndroidVersion
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Skin == "" {
		cfg.Skin = SkinClassic
	}
	p := &Phone{cfg: cfg, log: cfg.Logger.With("phone", cfg.Serial), transports: map[*transport]struct{}{}}
	p.rend = newRenderer(cfg.Width, cfg.Height)
	p.cost = newCostState(cfg.Life.Seed)
	p.lw, p.lh = p.toLayout(cfg.Width), p.toLayout(cfg.Height)
	p.resetLocked()
	return p
}

// SetAndroidVersion makes the phone report release v (getprop and the
// About phone page), as another build of Android would.
func (p *Phone) SetAndroidVersion(v string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cfg.Android = v
}

// Serial returns the phone's configured serial.
func (p *Phone) Serial() string { return p.cfg.Serial }

// Reset puts the phone back in its initial state and clears every fault.
func (p *Phone) Reset() {
	p.mu.Lock()
	p.resetLocked()
	p.mu.Unlock()
}

func (p *Phone) resetLocked() {
	p.st = initialData()
	p.stack = []*view{newView(pkgLauncher, pageHome, "")}
	p.seq = 0
	p.inputs = nil
	p.files = initialFiles()
	p.faults = faults{}
	p.frozen = nil
	p.life = newLife(p.cfg.Life)
	p.wallpaper = p.cfg.Wallpaper
	p.shade = shade{}
}

// banner is the CNXN payload: identity and (deliberately few) features, so
// the host stays on raw shell, sync v1 and plain OKAY flow control.
func (p *Phone) banner() []byte {
	return []byte(fmt.Sprintf("device::ro.product.name=phonesim;ro.product.model=%s;ro.product.device=phonesim;features=fixed_push_mkdir",
		p.cfg.Model))
}

// ListenAndServe listens on addr (loopback unless an explicit host is given;
// ":5555" binds 127.0.0.1:5555) and serves until ctx ends.
func (p *Phone) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	return p.Serve(ctx, ln)
}

// Listen opens a TCP listener for a phone, defaulting the host to 127.0.0.1.
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("phonesim: bad address %q, want host:port such as 127.0.0.1:5555: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("phonesim: cannot listen on %s (is another simulator or emulator using the port? pick another with --addr): %w", addr, err)
	}
	return ln, nil
}

// Serve accepts ADB connections on ln until ctx ends, then closes ln and
// every connection and returns nil.
func (p *Phone) Serve(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.live(ctx)
	}()
	defer func() {
		p.dropTransports()
		wg.Wait()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("phonesim: accept: %w", err)
		}
		if p.refusing() {
			// A disconnected phone: reset the connection at once.
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			_ = conn.Close()
			continue
		}
		t := newTransport(p, conn)
		p.tmu.Lock()
		p.transports[t] = struct{}{}
		p.tmu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.run(ctx)
			p.tmu.Lock()
			delete(p.transports, t)
			p.tmu.Unlock()
		}()
	}
}

func (p *Phone) dropTransports() {
	for _, t := range p.liveTransports() {
		t.close()
	}
}

func (p *Phone) liveTransports() []*transport {
	p.tmu.Lock()
	defer p.tmu.Unlock()
	ts := make([]*transport, 0, len(p.transports))
	for t := range p.transports {
		ts = append(ts, t)
	}
	return ts
}

// service returns the handler for an OPEN service name, or nil to refuse it.
func (p *Phone) service(name string) func(s *stream) {
	if p.isOffline() {
		return nil
	}
	switch {
	case strings.HasPrefix(name, "shell"):
		rest := strings.TrimPrefix(name, "shell")
		i := strings.IndexByte(rest, ':')
		if i < 0 || (i > 0 && rest[0] != ',') {
			return nil
		}
		cmd := rest[i+1:]
		if cmd == "" {
			return p.interactive
		}
		return p.shellService(cmd)
	case strings.HasPrefix(name, "exec:"):
		return p.shellService(strings.TrimPrefix(name, "exec:"))
	case name == "sync:":
		return p.serveSync
	case strings.HasPrefix(name, "reboot:"):
		return func(*stream) {}
	}
	return nil
}

// shellService runs one command line, unless the drop-input fault cuts
// the connection first.
func (p *Phone) shellService(cmd string) func(s *stream) {
	if p.dropInput(cmd) {
		return func(*stream) { p.dropTransports() }
	}
	return func(s *stream) { p.runShell(cmd, s, s) }
}

// interactive is `adb shell` without a command: a line-at-a-time shell with
// a prompt, echoing what is typed (the host put its terminal in raw mode).
func (p *Phone) interactive(s *stream) {
	prompt := "phonesim:/ $ "
	if _, err := io.WriteString(s, prompt); err != nil {
		return
	}
	var line []byte
	buf := make([]byte, 4096)
	lastCR := false
	for {
		n, err := s.Read(buf)
		for _, c := range buf[:n] {
			skip := c == '\n' && lastCR // CR LF ends one line, not two
			lastCR = c == '\r'
			if skip {
				continue
			}
			switch c {
			case '\r', '\n':
				if _, werr := io.WriteString(s, "\r\n"); werr != nil {
					return
				}
				cmd := strings.TrimSpace(string(line))
				line = line[:0]
				if cmd == "exit" {
					return
				}
				if cmd != "" {
					var out strings.Builder
					p.runShell(cmd, nil, &out)
					if _, werr := io.WriteString(s, strings.ReplaceAll(out.String(), "\n", "\r\n")); werr != nil {
						return
					}
				}
				if _, werr := io.WriteString(s, prompt); werr != nil {
					return
				}
			case 0x7f, 0x08:
				if len(line) > 0 {
					line = line[:len(line)-1]
					_, _ = io.WriteString(s, "\b \b")
				}
			case 0x04: // Ctrl-D
				return
			default:
				line = append(line, c)
				_, _ = s.Write([]byte{c})
			}
		}
		if err != nil {
			return
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// toLayout converts screen pixels to layout units.
func (p *Phone) toLayout(px int) int {
	return (px*DefaultDensity + p.cfg.Density/2) / p.cfg.Density
}

// toPixels converts layout units to screen pixels at density.
func toPixels(v, density int) int {
	return (v*density + DefaultDensity/2) / DefaultDensity
}
