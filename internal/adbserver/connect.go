package adbserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

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
