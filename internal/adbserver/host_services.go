package adbserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
)

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
	last := "\x00"
	s.watch(c, func() bool {
		if text := s.listText(long); text != last {
			if _, err := c.Write([]byte(hexString(text))); err != nil {
				return true
			}
			last = text
		}
		return false
	})
}

// watch calls check now and after every change of the device list until
// check reports it is done, the client leaves or the server stops.
func (s *Server) watch(c net.Conn, check func() (done bool)) {
	gone := clientGone(c)
	for {
		ch := s.changes()
		if check() {
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
	s.watch(c, func() bool {
		d, msg := s.find(sel, false)
		if strings.HasPrefix(msg, "more than one") {
			_ = fail(c, msg)
			return true
		}
		var st string
		if d != nil {
			st, _, _ = d.snapshot()
		}
		if (state == "disconnect" && d == nil) || (d != nil && (st == state || state == "any" && st != stateConnecting)) {
			_ = okay(c)
			return true
		}
		return false
	})
}
