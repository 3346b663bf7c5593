package device

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
)

// PoolOptions configure a Pool.
type PoolOptions struct {
	// Allow, when not empty, is the only serials the pool hands out or lists.
	Allow []string
	// Settle overrides Device.Settle when its Mode is set.
	Settle SettlePolicy
	// Device holds the options every device gets.
	Device Options
	// ReconnectTimeout bounds re-attaching a network phone (serial
	// host:port) that Get finds offline or gone; zero means 3 s,
	// negative turns re-attaching off.
	ReconnectTimeout time.Duration
}

// Pool lists the phones an ADB server has and hands out one Device per
// serial. A device keeps its state (settle history, input method checks)
// across Get calls.
type Pool struct {
	c    *adb.Client
	opts PoolOptions

	mu      sync.Mutex
	devices map[string]Device
}

// NewPool returns a pool over the client's ADB server.
func NewPool(c *adb.Client, o PoolOptions) *Pool {
	if o.Settle.Mode != "" {
		o.Device.Settle = o.Settle
	}
	return &Pool{c: c, opts: o, devices: map[string]Device{}}
}

// Client returns the ADB client the pool uses.
func (p *Pool) Client() *adb.Client { return p.c }

func (p *Pool) allowed(serial string) bool {
	return len(p.opts.Allow) == 0 || slices.Contains(p.opts.Allow, serial)
}

// List returns the phones the server knows (and the allow list permits),
// in every state.
func (p *Pool) List(ctx context.Context) ([]Info, error) {
	devs, err := p.c.Devices(ctx)
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, d := range dedupeEmulatorAliases(devs) {
		if p.allowed(d.Serial) {
			out = append(out, infoOf(d))
		}
	}
	return out, nil
}

// dedupeEmulatorAliases drops "emulator-N" when the same phone is also
// connected as "127.0.0.1:N+1" or "localhost:N+1": adb probes local ports
// 5555-5585 for emulators, so a phone (or the simulator) listening there
// shows up twice, and two serials for one phone would defeat the
// one-goal-per-phone lease.
func dedupeEmulatorAliases(devs []adb.DeviceInfo) []adb.DeviceInfo {
	network := map[int]bool{}
	for _, d := range devs {
		host, port, err := net.SplitHostPort(d.Serial)
		if err != nil || (host != "127.0.0.1" && host != "localhost") {
			continue
		}
		if n, err := strconv.Atoi(port); err == nil {
			network[n] = true
		}
	}
	out := devs[:0:0]
	for _, d := range devs {
		if n, ok := strings.CutPrefix(d.Serial, "emulator-"); ok {
			if console, err := strconv.Atoi(n); err == nil && network[console+1] {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

func infoOf(d adb.DeviceInfo) Info {
	return Info{Serial: d.Serial, State: d.State, Model: d.Model, Product: d.Product, Device: d.Device, TransportID: d.TransportID}
}

// Get returns the phone with this serial, checking that the server has it
// and that it is ready. An empty serial picks the only ready phone.
func (p *Pool) Get(ctx context.Context, serial string) (Device, error) {
	if serial != "" && !p.allowed(serial) {
		return nil, &NotAllowedError{Serial: serial, Allowed: p.opts.Allow}
	}
	infos, err := p.List(ctx)
	if err != nil {
		return nil, err
	}
	if serial == "" {
		var ready []string
		for _, in := range infos {
			if in.State == adb.StateDevice {
				ready = append(ready, in.Serial)
			}
		}
		switch len(ready) {
		case 0:
			return nil, fmt.Errorf("no phone is ready (%s): plug one in, `adb connect host:port`, or start the simulator with `starter sim`", describe(infos))
		case 1:
			serial = ready[0]
		default:
			return nil, fmt.Errorf("%d phones are ready (%s): pass the serial of the one to use", len(ready), strings.Join(ready, ", "))
		}
	}
	i := slices.IndexFunc(infos, func(in Info) bool { return in.Serial == serial })
	if (i < 0 || infos[i].State == "offline") && p.opts.ReconnectTimeout >= 0 && isNetworkSerial(serial) {
		// The adb server retries dropped network phones only slowly; attach
		// it again now.
		if err := p.reconnect(ctx, serial); err == nil {
			return p.device(serial), nil
		} else if ctx.Err() != nil {
			return nil, err
		}
	}
	if i < 0 {
		nf := &adb.DeviceNotFoundError{Serial: serial}
		for _, in := range infos {
			nf.Present = append(nf.Present, in.Serial)
		}
		return nil, nf
	}
	switch st := infos[i].State; st {
	case adb.StateDevice:
	case "offline":
		return nil, fmt.Errorf("adb: %s: %w", serial, adb.ErrDeviceOffline)
	case "unauthorized":
		return nil, fmt.Errorf("adb: %s: %w", serial, adb.ErrUnauthorized)
	default:
		return nil, fmt.Errorf("adb: %s is %q, not ready: wait for it or reconnect it", serial, st)
	}
	return p.device(serial), nil
}

// device returns the pool's Device for serial, creating it once.
func (p *Pool) device(serial string) Device {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.devices[serial]
	if !ok {
		d = New(p.c, serial, p.opts.Device)
		p.devices[serial] = d
	}
	return d
}

// isNetworkSerial reports whether the server names the phone by host:port.
func isNetworkSerial(serial string) bool {
	_, port, err := net.SplitHostPort(serial)
	if err != nil {
		return false
	}
	_, err = strconv.ParseUint(port, 10, 16)
	return err == nil
}

// reconnect detaches and attaches a network phone and waits for it.
func (p *Pool) reconnect(ctx context.Context, serial string) error {
	timeout := p.opts.ReconnectTimeout
	if timeout == 0 {
		// Short: a phone that is really gone fails the attempt quickly and
		// the todo's own device wait takes over (and tells the user).
		timeout = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_ = p.c.Disconnect(ctx, serial) // "no such device" when it is already gone
	if err := p.c.Connect(ctx, serial); err != nil {
		return err
	}
	return p.c.WaitForDevice(ctx, serial)
}

func describe(infos []Info) string {
	if len(infos) == 0 {
		return "the adb server lists none"
	}
	parts := make([]string, len(infos))
	for i, in := range infos {
		parts[i] = in.Serial + " " + in.State
	}
	return strings.Join(parts, ", ")
}

// ConnectAll attaches network phones (host:port) to the server and waits
// until each is ready, or ctx ends. It returns the serials that became
// ready and the joined errors of the others.
func ConnectAll(ctx context.Context, c *adb.Client, hostports []string) ([]string, error) {
	var ok []string
	var errs []error
	for _, hp := range hostports {
		if err := c.Connect(ctx, hp); err != nil {
			errs = append(errs, err)
			continue
		}
		serial := hp
		if !strings.Contains(hp, ":") {
			serial = hp + ":5555" // the server names a phone by host:port, 5555 when not given
		}
		if err := c.WaitForDevice(ctx, serial); err != nil {
			errs = append(errs, err)
			continue
		}
		ok = append(ok, serial)
	}
	return ok, errors.Join(errs...)
}
