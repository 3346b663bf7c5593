package adb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DeviceInfo is one line of `adb devices -l`.
type DeviceInfo struct {
	Serial      string `json:"serial"`
	State       string `json:"state"` // device, offline, unauthorized, ...
	Model       string `json:"model,omitempty"`
	Product     string `json:"product,omitempty"`
	Device      string `json:"device,omitempty"`
	USB         string `json:"usb,omitempty"`
	TransportID int    `json:"transport_id,omitempty"`
}

// StateDevice is the state of a phone that is ready for commands.
const StateDevice = "device"

// Devices lists the phones the server knows, with their state and model
// (host:devices-l).
func (c *Client) Devices(ctx context.Context) ([]DeviceInfo, error) {
	s, err := c.hostString(ctx, "host:devices-l")
	if err != nil {
		return nil, err
	}
	return ParseDevices(s), nil
}

// ParseDevices parses the text of host:devices-l (or host:devices). Lines
// that hold no serial are skipped.
func ParseDevices(s string) []DeviceInfo {
	var out []DeviceInfo
	for line := range strings.Lines(s) {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(line, "List of devices") || strings.HasPrefix(line, "* ") {
			continue
		}
		d := DeviceInfo{Serial: f[0], State: f[1]}
		rest := f[2:]
		if f[1] == "no" && len(f) > 2 && f[2] == "permissions" {
			// "no permissions (user in plugdev group; ...) [url]" runs until the
			// key:value pairs start.
			d.State = "no permissions"
			i := 0
			for i < len(rest) && !isKV(rest[i]) {
				i++
			}
			rest = rest[i:]
		}
		for _, kv := range rest {
			k, v, ok := strings.Cut(kv, ":")
			if !ok {
				continue
			}
			switch k {
			case "model":
				d.Model = v
			case "product":
				d.Product = v
			case "device":
				d.Device = v
			case "usb":
				d.USB = v
			case "transport_id":
				d.TransportID, _ = strconv.Atoi(v)
			}
		}
		out = append(out, d)
	}
	return out
}

func isKV(s string) bool {
	k, _, ok := strings.Cut(s, ":")
	switch k {
	case "model", "product", "device", "usb", "transport_id":
		return ok
	}
	return false
}

// WaitForDevice polls the server until the phone with this serial is in
// the "device" state. A freshly connected network phone goes through
// "connecting" and "offline" first. It gives up when ctx ends, naming the
// last state seen.
func (c *Client) WaitForDevice(ctx context.Context, serial string) error {
	last := "absent"
	for {
		devs, err := c.Devices(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
				// The deadline fell inside the poll; report the wait, not the poll.
				cause := context.Cause(ctx)
				if cause == nil {
					cause = context.DeadlineExceeded
				}
				return fmt.Errorf("adb: waiting for %s to be ready (last state %s): %w", serial, last, cause)
			}
			return err
		}
		for _, d := range devs {
			if d.Serial == serial {
				last = d.State
				switch d.State {
				case StateDevice:
					return nil
				case "unauthorized":
					return fmt.Errorf("adb: %s: %w", serial, ErrUnauthorized)
				}
			}
		}
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("adb: waiting for %s to be ready (last state %s): %w", serial, last, context.Cause(ctx))
		case <-t.C:
		}
	}
}
