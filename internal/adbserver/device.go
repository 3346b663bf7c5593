package adbserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

// Connection states as `adb devices` prints them.
const (
	stateConnecting   = "connecting"
	stateOffline      = "offline"
	stateDevice       = "device"
	stateUnauthorized = "unauthorized"
)

// Timing of device connections, as adb does it.
const (
	handshakeTimeout = 10 * time.Second // wait for the device's CNXN
	dialTimeout      = 10 * time.Second
	reconnectEvery   = 1 * time.Second
)

// device is one network phone the server was asked to connect to. It
// outlives its TCP connections: when one drops, the device is offline and
// a goroutine dials again every second until disconnect.
type device struct {
	s      *Server
	serial string // host:port
	id     uint64 // transport id
	ctx    context.Context
	cancel context.CancelFunc
	log    *slog.Logger

	mu    sync.Mutex
	state string
	info  banner
	conn  *devConn // the current connection, nil while none
}

func (d *device) snapshot() (string, banner, *devConn) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state, d.info, d.conn
}

func (d *device) setState(st string) {
	d.mu.Lock()
	changed := d.state != st
	d.state = st
	d.mu.Unlock()
	if changed {
		d.log.Debug("device state", "state", st)
		d.s.notify()
	}
}

// dial opens a TCP connection to the device's address.
func dialDevice(ctx context.Context, addr string) (net.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	var nd net.Dialer
	return nd.DialContext(dctx, "tcp", addr)
}

// dialReason turns a dial error into adb's short wording.
func dialReason(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Connection refused"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, syscall.ETIMEDOUT):
		return "Connection timed out"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "No route to host"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "Name or service not known"
	}
	return err.Error()
}

// attach makes nc the device's connection: it starts the reader and sends
// our CNXN. The device goes online when its CNXN arrives.
func (d *device) attach(nc net.Conn) *devConn {
	dc := &devConn{d: d, nc: nc, streams: map[uint32]*stream{}, maxData: 4096, done: make(chan struct{})}
	d.mu.Lock()
	d.conn = dc
	d.state = stateOffline
	d.mu.Unlock()
	d.s.notify()
	d.s.wg.Add(1)
	go func() {
		defer d.s.wg.Done()
		dc.run()
	}()
	if err := dc.send(message{Command: adbwire.CmdCNXN, Arg0: hostVersion, Arg1: hostMaxData, Data: hostBanner}); err != nil {
		d.log.Debug("sending CNXN failed", "err", err)
	}
	return dc
}

// maintain watches the connection and reconnects after a drop until the
// device is disconnected or the server stops.
func (d *device) maintain(dc *devConn) {
	for {
		select {
		case <-dc.done:
		case <-d.ctx.Done():
			dc.close()
			return
		}
		d.mu.Lock()
		if d.conn == dc {
			d.conn = nil
		}
		d.mu.Unlock()
		d.setState(stateOffline)
		d.log.Info("device connection lost; reconnecting every second", "every", reconnectEvery)
		for {
			t := time.NewTimer(reconnectEvery)
			select {
			case <-d.ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			nc, err := dialDevice(d.ctx, d.serial)
			if err != nil {
				d.log.Debug("reconnect failed", "err", err)
				continue
			}
			dc = d.attach(nc)
			break
		}
	}
}

// waitHandshake waits until the device answered our CNXN (or AUTH), the
// connection dropped, or the timeout passed, and returns the state then.
func (d *device) waitHandshake(ctx context.Context, dc *devConn, timeout time.Duration) string {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		ch := d.s.changes()
		st, _, cur := d.snapshot()
		if cur != dc {
			return stateOffline
		}
		if st != stateOffline { // device, unauthorized, recovery, ...
			return st
		}
		select {
		case <-ch:
		case <-dc.done:
			return stateOffline
		case <-t.C:
			return st
		case <-ctx.Done():
			return st
		}
	}
}

// devConn is one TCP connection to a device; a reader goroutine demuxes
// its messages onto streams by our local id.
type devConn struct {
	d  *device
	nc net.Conn

	wmu sync.Mutex // whole messages on nc

	mu      sync.Mutex
	streams map[uint32]*stream
	nextID  uint32
	maxData uint32

	done     chan struct{}
	doneOnce sync.Once
}

// send writes one whole message. A failed write closes the connection,
// but only after wmu is released: close ends every stream, and a stream
// ending by its own side sends CLSE, which needs wmu.
func (dc *devConn) send(m message) error {
	dc.wmu.Lock()
	_, err := dc.nc.Write(m.Encode())
	dc.wmu.Unlock()
	if err != nil {
		dc.close()
	}
	return err
}

func (dc *devConn) close() {
	dc.doneOnce.Do(func() {
		close(dc.done)
		_ = dc.nc.Close()
		dc.mu.Lock()
		ss := dc.streams
		dc.streams = map[uint32]*stream{}
		dc.mu.Unlock()
		for _, s := range ss {
			s.closeBy(false)
		}
	})
}

func (dc *devConn) chunk() int {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	return int(dc.maxData)
}

func (dc *devConn) stream(id uint32) *stream {
	dc.mu.Lock()
	defer dc.mu.Unlock()
	return dc.streams[id]
}

func (dc *devConn) forget(id uint32) {
	dc.mu.Lock()
	delete(dc.streams, id)
	dc.mu.Unlock()
}

// run reads messages until the connection fails.
func (dc *devConn) run() {
	defer dc.close()
	for {
		m, err := readMessage(dc.nc)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				dc.d.log.Debug("device read failed", "err", err)
			}
			return
		}
		if err := dc.handle(m); err != nil {
			dc.d.log.Warn("dropping device connection", "err", err)
			return
		}
	}
}

func (dc *devConn) handle(m message) error {
	d := dc.d
	switch m.Command {
	case adbwire.CmdCNXN:
		b := parseBanner(m.Data)
		dc.mu.Lock()
		dc.maxData = min(max(m.Arg1, 256), hostMaxData)
		dc.mu.Unlock()
		d.mu.Lock()
		d.info = b
		d.mu.Unlock()
		d.setState(b.State)
	case adbwire.CmdAUTH:
		// We never sign: a device that asks for a key stays unauthorized.
		d.setState(stateUnauthorized)
	case adbwire.CmdSTLS:
		return errors.New("device asks for TLS, which this server does not speak; pair it with Debian's adb instead")
	case adbwire.CmdOKAY:
		s := dc.stream(m.Arg1)
		if s == nil {
			// An OPEN we gave up on was accepted late: close it on the device.
			return dc.send(message{Command: adbwire.CmdCLSE, Arg0: 0, Arg1: m.Arg0})
		}
		s.okay(m.Arg0)
	case adbwire.CmdWRTE:
		s := dc.stream(m.Arg1)
		if s == nil {
			// A stream we no longer know: tell the device it is gone.
			return dc.send(message{Command: adbwire.CmdCLSE, Arg0: 0, Arg1: m.Arg0})
		}
		if !s.deliver(m.Data) {
			return fmt.Errorf("device sent a second WRTE on stream %d before our OKAY", m.Arg1)
		}
	case adbwire.CmdCLSE:
		if s := dc.stream(m.Arg1); s != nil {
			dc.forget(s.local)
			s.closeBy(false)
		}
	case adbwire.CmdOPEN:
		// Reverse connections are not supported: refuse the stream.
		return dc.send(message{Command: adbwire.CmdCLSE, Arg0: 0, Arg1: m.Arg0})
	case adbwire.CmdSYNC:
	default:
		return fmt.Errorf("unknown command %s", cmdName(m.Command))
	}
	return nil
}

// errRefused is an OPEN the device answered with CLSE.
var errRefused = errors.New("closed")

// open starts a service stream on the device and waits for its OKAY.
func (dc *devConn) open(ctx context.Context, service string) (*stream, error) {
	dc.mu.Lock()
	select {
	case <-dc.done:
		dc.mu.Unlock()
		return nil, errOffline
	default:
	}
	dc.nextID++
	if dc.nextID == 0 {
		dc.nextID++
	}
	s := &stream{dc: dc, local: dc.nextID, ready: make(chan struct{}), acks: make(chan struct{}, 1),
		inbox: make(chan []byte, 1), closed: make(chan struct{})}
	dc.streams[s.local] = s
	dc.mu.Unlock()
	if err := dc.send(message{Command: adbwire.CmdOPEN, Arg0: s.local, Arg1: 0, Data: append([]byte(service), 0)}); err != nil {
		dc.forget(s.local)
		return nil, errOffline
	}
	select {
	case <-s.ready:
		return s, nil
	case <-s.closed:
		select {
		case <-s.ready:
			// Opened and already closed (a command with little or no
			// output): the relay hands over what came and ends.
			return s, nil
		default:
		}
		dc.forget(s.local)
		select {
		case <-dc.done:
			return nil, errOffline
		default:
		}
		return nil, errRefused
	case <-ctx.Done():
		s.closeBy(true)
		return nil, ctx.Err()
	}
}

// errOffline is a device whose connection is gone.
var errOffline = errors.New("device offline")

// stream is one service on a device connection, seen from the server.
type stream struct {
	dc     *devConn
	local  uint32
	remote uint32 // set once, before ready is closed

	ready     chan struct{} // closed by the device's first OKAY
	readyOnce sync.Once
	acks      chan struct{} // one OKAY for our outstanding WRTE
	inbox     chan []byte   // one WRTE from the device awaiting our OKAY
	closed    chan struct{}
	closeOnce sync.Once
}

func (s *stream) okay(remote uint32) {
	first := false
	s.readyOnce.Do(func() {
		s.remote = remote
		first = true
		close(s.ready)
	})
	if first {
		return
	}
	select {
	case s.acks <- struct{}{}:
	default:
	}
}

func (s *stream) deliver(data []byte) bool {
	select {
	case s.inbox <- data:
		return true
	default:
		return false
	}
}

// closeBy ends the stream once; when we close it (local) the device is
// told with CLSE.
func (s *stream) closeBy(local bool) {
	first := false
	s.closeOnce.Do(func() {
		close(s.closed)
		first = true
	})
	// The CLSE goes out after closeOnce is released: a send that fails
	// closes the connection, which ends every stream, this one included.
	if !first || !local {
		return
	}
	s.dc.forget(s.local)
	select {
	case <-s.ready:
		_ = s.dc.send(message{Command: adbwire.CmdCLSE, Arg0: s.local, Arg1: s.remote})
	default:
		// Not open yet: the device's OKAY or CLSE will find no stream.
	}
}

// relay copies bytes between the client socket and the stream until
// either side closes: client bytes go out as WRTE chunks of at most
// maxdata, one at a time; device WRTEs are written to the client and
// acknowledged. Client EOF closes the stream (CLSE); the device's CLSE
// closes the client socket once everything before it was written.
func (s *stream) relay(client net.Conn) {
	out := make(chan struct{})
	go func() {
		defer close(out)
		defer client.Close()
		for {
			select {
			case data := <-s.inbox:
				if !s.toClient(client, data) {
					return
				}
			case <-s.closed:
				select {
				case data := <-s.inbox:
					_, _ = client.Write(data)
				default:
				}
				return
			}
		}
	}()
	buf := make([]byte, s.dc.chunk())
	for {
		n, err := client.Read(buf)
		if n > 0 && !s.toDevice(buf[:n]) {
			break
		}
		if err != nil {
			break
		}
	}
	s.closeBy(true)
	<-out
}

func (s *stream) toClient(client net.Conn, data []byte) bool {
	if _, err := client.Write(data); err != nil {
		s.closeBy(true)
		return false
	}
	if err := s.dc.send(message{Command: adbwire.CmdOKAY, Arg0: s.local, Arg1: s.remote}); err != nil {
		return false
	}
	return true
}

func (s *stream) toDevice(data []byte) bool {
	select {
	case <-s.closed:
		return false
	default:
	}
	if err := s.dc.send(message{Command: adbwire.CmdWRTE, Arg0: s.local, Arg1: s.remote, Data: data}); err != nil {
		return false
	}
	select {
	case <-s.acks:
		return true
	case <-s.closed:
		return false
	}
}
