package adbserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
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
