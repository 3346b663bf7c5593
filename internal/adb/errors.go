package adb

import (
	"errors"
	"fmt"
	"strings"
)

// ErrServerNotRunning means nothing accepted a connection at the ADB
// server's address. The wrapping error names the address and the command
// that starts the server.
var ErrServerNotRunning = errors.New("adb server not running")

// ErrDeviceOffline means the server knows the phone but cannot talk to it.
var ErrDeviceOffline = errors.New("device offline: reconnect it (replug the cable, or `adb reconnect` / `adb connect host:port` for a network phone)")

// ErrUnauthorized means the phone has not accepted this computer's key.
var ErrUnauthorized = errors.New("device unauthorized: accept the USB debugging prompt on the phone (tick \"Always allow\"), then retry")

// FailError is a request the ADB server (or the phone) refused with FAIL,
// or answered with a failure text (as host:connect does).
type FailError struct {
	Service string // the request, e.g. "host:connect:127.0.0.1:5555"
	Message string // the server's own words
}

func (e *FailError) Error() string {
	return fmt.Sprintf("adb: %s: %s", e.Service, e.Message)
}

// DeviceNotFoundError means the server has no phone with the serial asked
// for. Present lists the serials it does have.
type DeviceNotFoundError struct {
	Serial  string
	Present []string
}

func (e *DeviceNotFoundError) Error() string {
	if len(e.Present) == 0 {
		return fmt.Sprintf("adb: device %q not found: the adb server has no devices; plug one in or `adb connect host:port`", e.Serial)
	}
	return fmt.Sprintf("adb: device %q not found: present are %s; pass one of them", e.Serial, strings.Join(e.Present, ", "))
}

// ProtocolError means the server answered something the protocol does not
// allow; it usually means the address is not an ADB server.
type ProtocolError struct {
	Service string
	Detail  string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("adb: %s: unexpected reply (%s): is the address really an adb server?", e.Service, e.Detail)
}

// NotStartedError wraps the error of a device service that never started
// on the phone: the connection to the server, the switch to the phone or
// the service request failed before it was written, or the phone refused
// the service (FAIL). Whatever the service would have done did not happen.
// An error without it may have come after the phone began the service.
type NotStartedError struct {
	Service string
	Err     error
}

func (e *NotStartedError) Error() string { return e.Err.Error() }
func (e *NotStartedError) Unwrap() error { return e.Err }

// NotStarted reports whether err says a device service never started.
func NotStarted(err error) bool {
	var ns *NotStartedError
	return errors.As(err, &ns)
}
