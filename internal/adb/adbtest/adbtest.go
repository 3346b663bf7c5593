// Package adbtest is a fake ADB server for tests: it speaks the host
// protocol on 127.0.0.1 (host services, transports, shell/exec and sync)
// against an in-memory set of phones whose shell behaviour the test
// supplies. It records every request so tests can check what went on the
// wire.
package adbtest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Device is one phone the fake server knows.
type Device struct {
	Serial, State, Model, Product, Device string
	TransportID                           int
}

// File is a file on a fake phone.
type File struct {
	Data  []byte
	Mode  uint32 // st_mode, type bits included
	MTime uint32
}

// ShellFunc answers a shell: or exec: service on a phone. exec is true for
// exec:. The returned bytes are sent and the stream closed.
type ShellFunc func(serial, cmd string, exec bool) []byte

// Server is a running fake ADB server.
type Server struct {
	// Addr is the host:port the server listens on.
	Addr string

	ln net.Listener
	wg sync.WaitGroup

	mu          sync.Mutex
	devices     []Device
	files       map[string]map[string]File
	requests    []string
	fails       map[string]string
	shell       ShellFunc
	maxChunk    int
	splitWrites bool
}

// New starts a fake server on a free loopback port.
func New(devices ...Device) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: ln.Addr().String(), ln: ln, devices: devices, files: map[string]map[string]File{}, fails: map[string]string{}}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Close stops the server and waits for its connections to end.
func (s *Server) Close() {
	_ = s.ln.Close()
	s.wg.Wait()
}

// SetShell installs the phones' shell behaviour.
func (s *Server) SetShell(f ShellFunc) { s.mu.Lock(); s.shell = f; s.mu.Unlock() }

// SetDevices replaces the list of phones.
func (s *Server) SetDevices(d ...Device) { s.mu.Lock(); s.devices = d; s.mu.Unlock() }

// SetSplitWrites makes the server send replies a few bytes at a time, to
// exercise short reads in the client.
func (s *Server) SetSplitWrites(on bool) { s.mu.Lock(); s.splitWrites = on; s.mu.Unlock() }

// FailService makes every request equal to service fail with msg.
func (s *Server) FailService(service, msg string) {
	s.mu.Lock()
	s.fails[service] = msg
	s.mu.Unlock()
}

// PutFile stores a file on a phone.
func (s *Server) PutFile(serial, path string, f File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files[serial] == nil {
		s.files[serial] = map[string]File{}
	}
	s.files[serial][path] = f
}

// File returns a file from a phone.
func (s *Server) File(serial, path string) (File, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[serial][path]
	return f, ok
}

// Requests returns the services requested so far, in order, with sync
// requests written as "sync:ID path".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// MaxChunk returns the largest DATA chunk a client pushed.
func (s *Server) MaxChunk() int { s.mu.Lock(); defer s.mu.Unlock(); return s.maxChunk }

func (s *Server) record(r string) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.mu.Unlock()
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			if err := s.serve(c); err != nil && err != io.EOF {
				slog.Debug("adbtest: connection ended", "err", err)
			}
		}()
	}
}

// writer writes replies, split into small pieces when asked.
type writer struct {
	c     net.Conn
	split bool
}

func (w writer) Write(p []byte) (int, error) {
	if !w.split {
		return w.c.Write(p)
	}
	n := 0
	for len(p) > 0 {
		k := min(3, len(p))
		m, err := w.c.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

func okay(w io.Writer, payload string) error {
	if _, err := io.WriteString(w, "OKAY"); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%04x%s", len(payload), payload)
	return err
}

func fail(w io.Writer, msg string) error {
	_, err := fmt.Fprintf(w, "FAIL%04x%s", len(msg), msg)
	return err
}

func readRequest(r io.Reader) (string, error) {
	var hx [4]byte
	if _, err := io.ReadFull(r, hx[:]); err != nil {
		return "", err
	}
	n, err := strconv.ParseUint(string(hx[:]), 16, 16)
	if err != nil {
		return "", fmt.Errorf("bad length %q", hx[:])
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return string(b), err
}

func (s *Server) serve(c net.Conn) error {
	s.mu.Lock()
	w := writer{c: c, split: s.splitWrites}
	s.mu.Unlock()
	req, err := readRequest(c)
	if err != nil {
		return err
	}
	s.record(req)
	s.mu.Lock()
	msg, failed := s.fails[req]
	s.mu.Unlock()
	if failed {
		return fail(w, msg)
	}
	switch {
	case req == "host:version":
		return okay(w, fmt.Sprintf("%04x", 41))
	case req == "host:kill":
		_, err := io.WriteString(w, "OKAY")
		return err
	case req == "host:devices-l" || req == "host:devices":
		return okay(w, s.devicesText(req == "host:devices-l"))
	case strings.HasPrefix(req, "host:connect:"):
		hp := strings.TrimPrefix(req, "host:connect:")
		if !strings.Contains(hp, ":") {
			hp += ":5555"
		}
		if s.find(hp) != nil {
			return okay(w, "already connected to "+hp)
		}
		if strings.HasSuffix(hp, ":1") {
			return okay(w, "failed to connect to '"+hp+"': Connection refused")
		}
		s.mu.Lock()
		s.devices = append(s.devices, Device{Serial: hp, State: "device", Model: "net", Product: "net", Device: "net"})
		s.mu.Unlock()
		return okay(w, "connected to "+hp)
	case strings.HasPrefix(req, "host:disconnect:"):
		hp := strings.TrimPrefix(req, "host:disconnect:")
		s.mu.Lock()
		i := slices.IndexFunc(s.devices, func(d Device) bool { return d.Serial == hp })
		if i >= 0 {
			s.devices = slices.Delete(s.devices, i, i+1)
		}
		s.mu.Unlock()
		if i < 0 {
			return fail(w, "no such device '"+hp+"'")
		}
		return okay(w, "disconnected "+hp)
	case strings.HasPrefix(req, "host:transport"):
		d, msg := s.transport(req)
		if d == nil {
			return fail(w, msg)
		}
		if _, err := io.WriteString(w, "OKAY"); err != nil {
			return err
		}
		return s.device(c, w, d.Serial)
	}
	return fail(w, "unknown host service")
}

func (s *Server) find(serial string) *Device {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.devices {
		if s.devices[i].Serial == serial {
			d := s.devices[i]
			return &d
		}
	}
	return nil
}

func (s *Server) devicesText(long bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, d := range s.devices {
		if !long {
			fmt.Fprintf(&b, "%s\t%s\n", d.Serial, d.State)
			continue
		}
		fmt.Fprintf(&b, "%-22s %s", d.Serial, d.State)
		for _, kv := range [][2]string{{"product", d.Product}, {"model", d.Model}, {"device", d.Device}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, " %s:%s", kv[0], kv[1])
			}
		}
		fmt.Fprintf(&b, " transport_id:%d\n", d.TransportID)
	}
	return b.String()
}

func (s *Server) transport(req string) (*Device, string) {
	var d *Device
	if req == "host:transport-any" {
		s.mu.Lock()
		n := len(s.devices)
		if n == 1 {
			dd := s.devices[0]
			d = &dd
		}
		s.mu.Unlock()
		switch {
		case n == 0:
			return nil, "no devices/emulators found"
		case n > 1:
			return nil, "more than one device/emulator"
		}
	} else {
		serial := strings.TrimPrefix(req, "host:transport:")
		if d = s.find(serial); d == nil {
			return nil, "device '" + serial + "' not found"
		}
	}
	switch d.State {
	case "device":
		return d, ""
	case "unauthorized":
		return nil, "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device."
	default:
		return nil, "device offline"
	}
}

// device serves the one service a transport connection carries.
func (s *Server) device(c net.Conn, w io.Writer, serial string) error {
	req, err := readRequest(c)
	if err != nil {
		return err
	}
	s.record(req)
	s.mu.Lock()
	msg, failed := s.fails[req]
	sh := s.shell
	s.mu.Unlock()
	if failed {
		return fail(w, msg)
	}
	switch {
	case req == "sync:":
		if _, err := io.WriteString(w, "OKAY"); err != nil {
			return err
		}
		return s.sync(c, w, serial)
	case strings.HasPrefix(req, "shell:"), strings.HasPrefix(req, "exec:"):
		exec := strings.HasPrefix(req, "exec:")
		cmd := req[strings.IndexByte(req, ':')+1:]
		if _, err := io.WriteString(w, "OKAY"); err != nil {
			return err
		}
		var out []byte
		if sh != nil {
			out = sh(serial, cmd, exec)
		} else {
			out = []byte("/system/bin/sh: " + strings.Fields(cmd + " x")[0] + ": inaccessible or not found\n")
		}
		_, err := w.Write(out)
		return err
	}
	return fail(w, "closed")
}

func syncHeader(id string, n int) []byte {
	b := make([]byte, 8)
	copy(b, id)
	binary.LittleEndian.PutUint32(b[4:], uint32(n))
	return b
}

func (s *Server) sync(c net.Conn, w io.Writer, serial string) error {
	for {
		var h [8]byte
		if _, err := io.ReadFull(c, h[:]); err != nil {
			return err
		}
		id, n := string(h[:4]), binary.LittleEndian.Uint32(h[4:])
		if id == "QUIT" {
			s.record("sync:QUIT")
			return nil
		}
		if n > 1024 {
			return fmt.Errorf("sync %s path of %d bytes", id, n)
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(c, p); err != nil {
			return err
		}
		path := string(p)
		s.record("sync:" + id + " " + path)
		switch id {
		case "STAT":
			f, ok := s.File(serial, path)
			r := make([]byte, 16)
			copy(r, "STAT")
			if ok {
				binary.LittleEndian.PutUint32(r[4:], f.Mode)
				binary.LittleEndian.PutUint32(r[8:], uint32(len(f.Data)))
				binary.LittleEndian.PutUint32(r[12:], f.MTime)
			}
			if _, err := w.Write(r); err != nil {
				return err
			}
		case "RECV":
			f, ok := s.File(serial, path)
			if !ok {
				msg := "No such file or directory"
				if _, err := w.Write(append(syncHeader("FAIL", len(msg)), msg...)); err != nil {
					return err
				}
				continue
			}
			data := f.Data
			for len(data) > 0 {
				k := min(len(data), 64*1024)
				if _, err := w.Write(append(syncHeader("DATA", k), data[:k]...)); err != nil {
					return err
				}
				data = data[k:]
			}
			if _, err := w.Write(syncHeader("DONE", 0)); err != nil {
				return err
			}
		case "SEND":
			if err := s.receive(c, w, serial, path); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown sync request %q", id)
		}
	}
}

func (s *Server) receive(c net.Conn, w io.Writer, serial, spec string) error {
	i := strings.LastIndexByte(spec, ',')
	if i < 0 {
		return fmt.Errorf("SEND without mode: %q", spec)
	}
	path := spec[:i]
	mode, err := strconv.ParseUint(spec[i+1:], 10, 32)
	if err != nil {
		return err
	}
	var data bytes.Buffer
	for {
		var h [8]byte
		if _, err := io.ReadFull(c, h[:]); err != nil {
			return err
		}
		id, n := string(h[:4]), binary.LittleEndian.Uint32(h[4:])
		switch id {
		case "DATA":
			if n > 64*1024 {
				msg := "data chunk too large"
				_, err := w.Write(append(syncHeader("FAIL", len(msg)), msg...))
				return err
			}
			s.mu.Lock()
			s.maxChunk = max(s.maxChunk, int(n))
			s.mu.Unlock()
			if _, err := io.CopyN(&data, c, int64(n)); err != nil {
				return err
			}
		case "DONE":
			if strings.HasPrefix(path, "/system/") {
				msg := "couldn't create file: Read-only file system"
				_, err := w.Write(append(syncHeader("FAIL", len(msg)), msg...))
				return err
			}
			s.PutFile(serial, path, File{Data: data.Bytes(), Mode: uint32(mode), MTime: n})
			_, err := w.Write(syncHeader("OKAY", 0))
			return err
		default:
			return fmt.Errorf("unexpected %q during SEND", id)
		}
	}
}
