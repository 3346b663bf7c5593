package phonesim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

// errStreamClosed is returned by stream writes after the host closed the stream.
var errStreamClosed = errors.New("phonesim: stream closed by host")

// transport is one TCP connection from an ADB server.
type transport struct {
	p    *Phone
	conn net.Conn
	log  *slog.Logger

	wmu sync.Mutex // serialises whole messages on conn

	mu        sync.Mutex
	streams   map[uint32]*stream
	nextID    uint32
	maxData   uint32
	connected bool

	done     chan struct{}
	doneOnce sync.Once
}

func newTransport(p *Phone, conn net.Conn) *transport {
	return &transport{
		p: p, conn: conn, log: p.log.With("remote", conn.RemoteAddr().String()),
		streams: map[uint32]*stream{}, maxData: 4096, done: make(chan struct{}),
	}
}

func (t *transport) close() {
	t.doneOnce.Do(func() {
		close(t.done)
		_ = t.conn.Close()
		t.mu.Lock()
		for _, s := range t.streams {
			s.remoteClosed()
		}
		t.mu.Unlock()
	})
}

func (t *transport) send(m message) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.conn.Write(m.Encode())
	if err != nil {
		t.close()
	}
	return err
}

func (t *transport) chunk() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int(t.maxData)
}

// run reads messages until the connection drops or ctx ends.
func (t *transport) run(ctx context.Context) {
	defer t.close()
	stop := context.AfterFunc(ctx, t.close)
	defer stop()
	for {
		m, err := readMessage(t.conn, maxPayload)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				t.log.Debug("adb transport read failed", "err", err)
			}
			return
		}
		if err := t.handle(ctx, m); err != nil {
			t.log.Debug("adb transport closed", "err", err)
			return
		}
	}
}

func (t *transport) handle(ctx context.Context, m message) error {
	switch m.Command {
	case adbwire.CmdCNXN:
		// Answering the host's CNXN with our own skips authentication. An
		// offline phone holds the answer back, which adb shows as "offline".
		if !t.p.waitOnline(ctx, t.done) {
			return errors.New("offline wait ended")
		}
		t.mu.Lock()
		t.maxData = min(max(m.Arg1, 256), maxPayload)
		t.connected = true
		t.mu.Unlock()
		return t.send(message{Command: adbwire.CmdCNXN, Arg0: protocolVersion, Arg1: maxPayload, Data: t.p.banner()})
	case adbwire.CmdOPEN:
		t.mu.Lock()
		ok := t.connected
		t.mu.Unlock()
		if !ok {
			return nil
		}
		service := strings.TrimRight(string(m.Data), "\x00")
		return t.open(m.Arg0, service)
	case adbwire.CmdOKAY:
		if s := t.stream(m.Arg1); s != nil {
			s.acked()
		}
	case adbwire.CmdWRTE:
		s := t.stream(m.Arg1)
		if s == nil {
			return t.send(message{Command: adbwire.CmdCLSE, Arg0: 0, Arg1: m.Arg0})
		}
		if !s.deliver(m.Data) {
			return fmt.Errorf("host sent a second WRTE on stream %d before our OKAY", m.Arg1)
		}
	case adbwire.CmdCLSE:
		if s := t.stream(m.Arg1); s != nil {
			s.remoteClosed()
			t.forget(s.local)
		}
	}
	return nil
}

func (t *transport) stream(id uint32) *stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.streams[id]
}

func (t *transport) forget(id uint32) {
	t.mu.Lock()
	delete(t.streams, id)
	t.mu.Unlock()
}

// open starts a service on a new stream, or refuses it with CLSE.
func (t *transport) open(remote uint32, service string) error {
	run := t.p.service(service)
	if run == nil {
		t.log.Debug("adb service refused", "service", service)
		return t.send(message{Command: adbwire.CmdCLSE, Arg0: 0, Arg1: remote})
	}
	t.mu.Lock()
	t.nextID++
	s := &stream{t: t, local: t.nextID, remote: remote, okay: make(chan struct{}, 1),
		inbox: make(chan []byte, 1), closed: make(chan struct{})}
	t.streams[s.local] = s
	t.mu.Unlock()
	if err := t.send(message{Command: adbwire.CmdOKAY, Arg0: s.local, Arg1: remote}); err != nil {
		return err
	}
	go func() {
		run(s)
		s.finish()
	}()
	return nil
}

// stream is one service connection multiplexed on a transport. It is an
// io.ReadWriter for the service: reads take the host's WRTE payloads (each
// acknowledged with OKAY as it is taken), writes send WRTE chunks of at most
// maxdata bytes and wait for the host's OKAY before the next one.
type stream struct {
	t             *transport
	local, remote uint32
	okay          chan struct{}
	inbox         chan []byte
	pending       []byte
	closed        chan struct{}
	closeOnce     sync.Once
	mu            sync.Mutex
	remoteGone    bool
}

func (s *stream) acked() {
	select {
	case s.okay <- struct{}{}:
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

func (s *stream) remoteClosed() {
	s.mu.Lock()
	s.remoteGone = true
	s.mu.Unlock()
	s.closeOnce.Do(func() { close(s.closed) })
}

func (s *stream) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		select {
		case d := <-s.inbox:
			s.pending = d
			if err := s.t.send(message{Command: adbwire.CmdOKAY, Arg0: s.local, Arg1: s.remote}); err != nil {
				return 0, err
			}
			continue
		default:
		}
		select {
		case d := <-s.inbox:
			s.pending = d
			if err := s.t.send(message{Command: adbwire.CmdOKAY, Arg0: s.local, Arg1: s.remote}); err != nil {
				return 0, err
			}
		case <-s.closed:
			select {
			case d := <-s.inbox:
				s.pending = d
				continue
			default:
			}
			return 0, io.EOF
		}
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

func (s *stream) Write(p []byte) (int, error) {
	written := 0
	chunk := s.t.chunk()
	for len(p) > 0 {
		n := min(len(p), chunk)
		select {
		case <-s.closed:
			return written, errStreamClosed
		default:
		}
		if err := s.t.send(message{Command: adbwire.CmdWRTE, Arg0: s.local, Arg1: s.remote, Data: bytes.Clone(p[:n])}); err != nil {
			return written, err
		}
		select {
		case <-s.okay:
		case <-s.closed:
			return written, errStreamClosed
		}
		written += n
		p = p[n:]
	}
	return written, nil
}

// finish closes the stream from the phone's side once its service returns.
func (s *stream) finish() {
	s.mu.Lock()
	gone := s.remoteGone
	s.mu.Unlock()
	if !gone {
		_ = s.t.send(message{Command: adbwire.CmdCLSE, Arg0: s.local, Arg1: s.remote})
	}
	s.closeOnce.Do(func() { close(s.closed) })
	s.t.forget(s.local)
}
