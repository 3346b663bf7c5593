package adbserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultAddr is where ADB clients look for a server unless told otherwise.
const DefaultAddr = "127.0.0.1:5037"

// Version is the host-protocol version the server reports for
// host:version; Debian's adb 1.0.41 client expects 41 and restarts a
// server that reports anything else.
const Version = 41

// DefaultDevicePort is the port host:connect uses when none is given.
const DefaultDevicePort = "5555"

// openTimeout bounds the wait for a device to accept a service stream.
const openTimeout = 10 * time.Second

// Config configures a Server.
type Config struct {
	// Logger receives connection and device events; nil means slog.Default().
	Logger *slog.Logger
}

// Server is an ADB server: it speaks the host protocol to clients and the
// device protocol to network phones attached with host:connect. A Server
// serves until Close, host:kill, or the end of a Serve context, and is
// not reused after that.
type Server struct {
	log    *slog.Logger
	ctx    context.Context // ends at shutdown
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the server started

	mu        sync.Mutex
	closed    bool
	addr      string
	listeners []net.Listener
	conns     map[net.Conn]struct{}
	devices   map[string]*device // by serial
	nextID    uint64
	changed   chan struct{} // closed and replaced on every device change
}

// New returns a server that has no listener and no devices yet.
func New(cfg Config) *Server {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		log: log.With("component", "adbserver"), ctx: ctx, cancel: cancel,
		conns: map[net.Conn]struct{}{}, devices: map[string]*device{}, changed: make(chan struct{}),
	}
}

// ErrServerClosed is returned by Serve and ListenAndServe on a server that
// was already closed.
var ErrServerClosed = errors.New("adbserver: server closed; create a new one with adbserver.New")

// ListenAndServe listens on addr ("" means DefaultAddr) and serves until
// ctx ends or the server is closed.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	if addr == "" {
		addr = DefaultAddr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("adbserver: cannot listen on %s (is another adb server running? stop it with `adb kill-server`, or pick another port): %w", addr, err)
	}
	return s.Serve(ctx, ln)
}

// Start listens on addr ("" means DefaultAddr) and serves in the
// background until ctx ends or the server is closed. Addr is valid when
// it returns; a listen failure is returned, a later accept failure is
// logged.
func (s *Server) Start(ctx context.Context, addr string) error {
	if addr == "" {
		addr = DefaultAddr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("adbserver: cannot listen on %s (is another adb server running? stop it with `adb kill-server`, or pick another port): %w", addr, err)
	}
	s.mu.Lock()
	if s.addr == "" && !s.closed {
		s.addr = ln.Addr().String()
	}
	s.mu.Unlock()
	go func() {
		if err := s.Serve(ctx, ln); err != nil {
			s.log.Error("adb server stopped", "err", err)
		}
	}()
	return nil
}

// Serve accepts host-protocol clients on ln until ctx ends or the server
// is closed; then it closes ln, every client and device connection, waits
// for the server's goroutines and returns nil.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ln.Close()
		return ErrServerClosed
	}
	s.listeners = append(s.listeners, ln)
	if s.addr == "" {
		s.addr = ln.Addr().String()
	}
	s.mu.Unlock()
	s.log.Info("adb server listening", "addr", ln.Addr().String())
	stop := context.AfterFunc(ctx, s.shutdown)
	defer stop()
	var err error
	for {
		c, aerr := ln.Accept()
		if aerr != nil {
			if s.ctx.Err() == nil && !errors.Is(aerr, net.ErrClosed) {
				err = fmt.Errorf("adbserver: accept on %s: %w", ln.Addr(), aerr)
			}
			break
		}
		if !s.track(c) {
			_ = c.Close()
			break
		}
		go func() {
			defer s.wg.Done()
			defer s.untrack(c)
			s.serveConn(c)
		}()
	}
	s.shutdown()
	s.wg.Wait()
	return err
}

// Addr returns the address of the first listener ("127.0.0.1:PORT"), or
// "" before Serve.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Close stops the server: listeners, clients and device connections are
// closed and background reconnects end. It waits for the server's
// goroutines and is safe to call more than once.
func (s *Server) Close() error {
	s.shutdown()
	s.wg.Wait()
	return nil
}

// shutdown closes everything without waiting (host:kill runs it from a
// goroutine Close would wait for).
func (s *Server) shutdown() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	lns := s.listeners
	conns := make([]net.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	devs := s.deviceListLocked()
	s.mu.Unlock()
	s.cancel()
	for _, ln := range lns {
		_ = ln.Close()
	}
	for _, c := range conns {
		_ = c.Close()
	}
	for _, d := range devs {
		d.cancel()
		if _, _, dc := d.snapshot(); dc != nil {
			dc.close()
		}
	}
	s.notify()
}

// track registers a client connection and counts its goroutine; false
// once the server is closed.
func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	return true
}

func (s *Server) untrack(c net.Conn) {
	_ = c.Close()
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// notify wakes everyone waiting for a device change.
func (s *Server) notify() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// changes returns a channel closed at the next device change.
func (s *Server) changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *Server) deviceListLocked() []*device {
	devs := make([]*device, 0, len(s.devices))
	for _, d := range s.devices {
		devs = append(devs, d)
	}
	slices.SortFunc(devs, func(a, b *device) int { return cmp.Compare(a.id, b.id) })
	return devs
}

func (s *Server) deviceList() []*device {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deviceListLocked()
}

// serveConn answers one client: a host request, or a transport switch
// followed by one device service that is then relayed.
func (s *Server) serveConn(c net.Conn) {
	req, err := readRequest(c)
	if err != nil {
		if errors.Is(err, errBadRequest) {
			_ = fail(c, err.Error())
		}
		return
	}
	s.log.Debug("host request", "service", req)
	d := s.handleHost(c, req)
	if d == nil {
		return
	}
	req, err = readRequest(c)
	if err != nil {
		if errors.Is(err, errBadRequest) {
			_ = fail(c, err.Error())
		}
		return
	}
	s.log.Debug("device service", "serial", d.serial, "service", req)
	s.openService(c, d, req)
}

// handleHost answers a host request; it returns the device when the
// request switched the connection to it.
func (s *Server) handleHost(c net.Conn, req string) *device {
	sel, cmd, err := splitTarget(req)
	if err != nil {
		_ = fail(c, err.Error())
		return nil
	}
	server := sel.kind == selAny // "host:" requests may be server-wide
	switch {
	case server && cmd == "version":
		_ = okayString(c, fmt.Sprintf("%04x", Version))
	case server && (cmd == "devices" || cmd == "devices-l"):
		_ = okayString(c, s.listText(cmd == "devices-l"))
	case server && (cmd == "track-devices" || cmd == "track-devices-l"):
		s.trackDevices(c, cmd == "track-devices-l")
	case server && strings.HasPrefix(cmd, "connect:"):
		_ = okayString(c, s.connect(strings.TrimPrefix(cmd, "connect:")))
	case server && strings.HasPrefix(cmd, "disconnect:"):
		if msg, ok := s.disconnect(strings.TrimPrefix(cmd, "disconnect:")); ok {
			_ = okayString(c, msg)
		} else {
			_ = fail(c, msg)
		}
	case server && cmd == "kill":
		_ = okay(c)
		s.log.Info("adb server killed by a client")
		s.shutdown()
	case server && cmd == "host-features":
		_ = okayString(c, "")
	case server && (strings.HasPrefix(cmd, "transport") || strings.HasPrefix(cmd, "tport:")):
		return s.switchTransport(c, cmd)
	case cmd == "features":
		d, msg := s.find(sel, false)
		if d == nil {
			_ = fail(c, msg)
			return nil
		}
		st, info, _ := d.snapshot()
		if st == stateOffline || st == stateConnecting {
			_ = fail(c, "device offline")
			return nil
		}
		_ = okayString(c, strings.Join(info.Features, ","))
	case cmd == "get-state" || cmd == "get-serialno" || cmd == "get-devpath":
		d, msg := s.find(sel, false)
		if d == nil {
			_ = fail(c, msg)
			return nil
		}
		st, _, _ := d.snapshot()
		_ = okayString(c, map[string]string{"get-state": st, "get-serialno": d.serial, "get-devpath": "unknown"}[cmd])
	case strings.HasPrefix(cmd, "wait-for-"):
		s.waitFor(c, sel, cmd)
	default:
		_ = fail(c, "unknown host service '"+req+"'")
	}
	return nil
}

// switchTransport answers host:transport*, host:tport:* by picking a
// ready device.
func (s *Server) switchTransport(c net.Conn, cmd string) *device {
	var sel selector
	tport := strings.HasPrefix(cmd, "tport:")
	arg := strings.TrimPrefix(cmd, "tport:")
	switch {
	case !tport && strings.HasPrefix(cmd, "transport:"):
		sel = selector{kind: selSerial, serial: strings.TrimPrefix(cmd, "transport:")}
	case tport && strings.HasPrefix(arg, "serial:"):
		sel = selector{kind: selSerial, serial: strings.TrimPrefix(arg, "serial:")}
	case !tport && strings.HasPrefix(cmd, "transport-id:"), tport && strings.HasPrefix(arg, "id:"):
		_, num, _ := strings.Cut(arg, ":")
		id, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			_ = fail(c, fmt.Sprintf("invalid transport id '%s'", num))
			return nil
		}
		sel = selector{kind: selID, id: id}
	case cmd == "transport-any", arg == "any":
		sel = selector{kind: selAny}
	case cmd == "transport-usb", arg == "usb":
		sel = selector{kind: selUSB}
	case cmd == "transport-local", arg == "local":
		sel = selector{kind: selLocal}
	default:
		_ = fail(c, "unknown host service 'host:"+cmd+"'")
		return nil
	}
	d, msg := s.find(sel, true)
	if d == nil {
		_ = fail(c, msg)
		return nil
	}
	if tport {
		_ = okayTransportID(c, d.id)
	} else {
		_ = okay(c)
	}
	return d
}

// find picks the device a selector names. With ready, a device that is
// not online is refused with adb's words for its state.
func (s *Server) find(sel selector, ready bool) (*device, string) {
	devs := s.deviceList()
	var d *device
	switch sel.kind {
	case selUSB:
		return nil, "no devices found"
	case selAny, selLocal:
		switch len(devs) {
		case 0:
			if sel.kind == selLocal {
				return nil, "no emulators found"
			}
			return nil, "no devices/emulators found"
		case 1:
			d = devs[0]
		default:
			if sel.kind == selLocal {
				return nil, "more than one emulator"
			}
			return nil, "more than one device/emulator"
		}
	case selSerial:
		for _, x := range devs {
			if x.serial == sel.serial || (!strings.Contains(sel.serial, ":") && x.serial == net.JoinHostPort(sel.serial, DefaultDevicePort)) {
				d = x
				break
			}
		}
		if d == nil {
			return nil, fmt.Sprintf("device '%s' not found", sel.serial)
		}
	case selID:
		for _, x := range devs {
			if x.id == sel.id {
				d = x
				break
			}
		}
		if d == nil {
			return nil, fmt.Sprintf("no device with transport id '%d'", sel.id)
		}
	default:
		return nil, "no device selected"
	}
	if ready {
		switch st, _, _ := d.snapshot(); st {
		case stateOffline, stateConnecting:
			return nil, "device offline"
		case stateUnauthorized:
			return nil, "device unauthorized.\nThis adb server does not hold a key the device accepts: authorize this computer with Debian's adb once, or turn off the device's ADB authentication."
		}
	}
	return d, ""
}

// listText is the text of host:devices (long: host:devices-l).
func (s *Server) listText(long bool) string {
	var b strings.Builder
	for _, d := range s.deviceList() {
		st, info, _ := d.snapshot()
		if !long {
			fmt.Fprintf(&b, "%s\t%s\n", d.serial, st)
			continue
		}
		fmt.Fprintf(&b, "%-22s %s", d.serial, st)
		for _, kv := range [][2]string{{"product", info.Product}, {"model", info.Model}, {"device", info.Device}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, " %s:%s", kv[0], sanitize(kv[1]))
			}
		}
		fmt.Fprintf(&b, " transport_id:%d\n", d.id)
	}
	return b.String()
}

// normalizeAddr turns host[:port] into the serial host:port, adding
// DefaultDevicePort when the port is missing.
func normalizeAddr(arg string) (string, error) {
	if arg == "" {
		return "", errors.New("empty address")
	}
	host, port, err := net.SplitHostPort(arg)
	if err != nil {
		h := strings.TrimSuffix(strings.TrimPrefix(arg, "["), "]")
		if strings.Count(arg, ":") > 0 && !strings.HasPrefix(arg, "[") {
			return "", fmt.Errorf("bad address: %v", err)
		}
		host, port = h, DefaultDevicePort
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("bad port number %s", port)
	}
	if host == "" {
		return "", errors.New("no host")
	}
	return net.JoinHostPort(host, port), nil
}

// connect answers host:connect with adb's texts.
func (s *Server) connect(arg string) string {
	serial, err := normalizeAddr(arg)
	if err != nil {
		return fmt.Sprintf("failed to connect to '%s': %v", arg, err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return fmt.Sprintf("failed to connect to %s: the adb server is shutting down", serial)
	}
	if _, ok := s.devices[serial]; ok {
		s.mu.Unlock()
		return "already connected to " + serial
	}
	s.nextID++
	d := &device{s: s, serial: serial, id: s.nextID, state: stateConnecting, log: s.log.With("serial", serial)}
	d.ctx, d.cancel = context.WithCancel(s.ctx)
	s.devices[serial] = d
	s.mu.Unlock()
	s.notify()

	nc, err := dialDevice(d.ctx, serial)
	if err != nil {
		s.remove(d)
		return fmt.Sprintf("failed to connect to %s: %s", serial, dialReason(err))
	}
	dc := d.attach(nc)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		d.maintain(dc)
	}()
	switch st := d.waitHandshake(d.ctx, dc, handshakeTimeout); st {
	case stateUnauthorized:
		return "failed to authenticate to " + serial
	case stateOffline:
		select {
		case <-dc.done:
			s.remove(d)
			return fmt.Sprintf("failed to connect to %s: the device closed the connection before its handshake", serial)
		default:
		}
		// No CNXN within the handshake time: listed offline, as adb does.
		d.log.Info("device has not answered the handshake; listed offline", "waited", handshakeTimeout)
	}
	d.log.Info("device connected")
	return "connected to " + serial
}

// remove forgets a device and ends its connection and reconnects.
func (s *Server) remove(d *device) {
	s.mu.Lock()
	if s.devices[d.serial] == d {
		delete(s.devices, d.serial)
	}
	s.mu.Unlock()
	d.cancel()
	if _, _, dc := d.snapshot(); dc != nil {
		dc.close()
	}
	s.notify()
}

// disconnect answers host:disconnect; false means FAIL.
func (s *Server) disconnect(arg string) (string, bool) {
	if arg == "" {
		for _, d := range s.deviceList() {
			s.remove(d)
		}
		return "disconnected everything", true
	}
	serial, err := normalizeAddr(arg)
	if err != nil {
		return fmt.Sprintf("no such device '%s': %v", arg, err), false
	}
	s.mu.Lock()
	d := s.devices[serial]
	s.mu.Unlock()
	if d == nil {
		return fmt.Sprintf("no such device '%s'", serial), false
	}
	s.remove(d)
	d.log.Info("device disconnected")
	return "disconnected " + serial, true
}

// openService starts a device service and relays it.
func (s *Server) openService(c net.Conn, d *device, service string) {
	st, _, dc := d.snapshot()
	if dc == nil || st != stateDevice && st != "recovery" && st != "sideload" && st != "rescue" && st != "bootloader" {
		_ = fail(c, "device offline")
		return
	}
	ctx, cancel := context.WithTimeout(d.ctx, openTimeout)
	stream, err := dc.open(ctx, service)
	cancel()
	switch {
	case err == nil:
	case errors.Is(err, errOffline):
		_ = fail(c, "device offline")
		return
	case errors.Is(err, errRefused):
		_ = fail(c, "closed")
		return
	default:
		_ = fail(c, fmt.Sprintf("device did not accept %q within %s: %v", service, openTimeout, err))
		return
	}
	if err := okay(c); err != nil {
		stream.closeBy(true)
		return
	}
	stream.relay(c)
}

// clientGone returns a channel closed when the client closes its socket
// (or sends anything, which these requests do not expect).
func clientGone(c net.Conn) <-chan struct{} {
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		var b [1]byte
		_, _ = c.Read(b[:])
	}()
	return gone
}

// trackDevices answers host:track-devices: the list now and after every
// change, until the client leaves.
func (s *Server) trackDevices(c net.Conn, long bool) {
	if okay(c) != nil {
		return
	}
	gone := clientGone(c)
	last := "\x00"
	for {
		ch := s.changes()
		if text := s.listText(long); text != last {
			if _, err := c.Write([]byte(hexString(text))); err != nil {
				return
			}
			last = text
		}
		select {
		case <-ch:
		case <-gone:
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// waitFor answers host:wait-for-<transport>-<state>: OKAY for the
// request, then a second OKAY once a device is in that state
// ("disconnect": once it is gone), or FAIL.
func (s *Server) waitFor(c net.Conn, sel selector, cmd string) {
	transport, state, ok := strings.Cut(strings.TrimPrefix(cmd, "wait-for-"), "-")
	if !ok || !slices.Contains([]string{"any", "usb", "local"}, transport) ||
		!slices.Contains([]string{"device", "recovery", "rescue", "sideload", "bootloader", "any", "disconnect"}, state) {
		_ = fail(c, fmt.Sprintf("unknown wait-for request '%s': use wait-for-<any|usb|local>-<device|recovery|rescue|sideload|bootloader|any|disconnect>", cmd))
		return
	}
	if sel.kind == selAny {
		switch transport {
		case "usb":
			sel.kind = selUSB
		case "local":
			sel.kind = selLocal
		}
	}
	if okay(c) != nil {
		return
	}
	gone := clientGone(c)
	for {
		ch := s.changes()
		d, msg := s.find(sel, false)
		if strings.HasPrefix(msg, "more than one") {
			_ = fail(c, msg)
			return
		}
		var st string
		if d != nil {
			st, _, _ = d.snapshot()
		}
		if (state == "disconnect" && d == nil) || (d != nil && (st == state || state == "any" && st != stateConnecting)) {
			_ = okay(c)
			return
		}
		select {
		case <-ch:
		case <-gone:
			return
		case <-s.ctx.Done():
			return
		}
	}
}
