package adbserver

import (
	"fmt"
	"io"
	"strings"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

// The device protocol's message layer is shared with the simulated phone
// (package adbwire).
const (
	// hostVersion is the protocol version we announce; it lets a device
	// skip payload checksums (we still send correct ones).
	hostVersion = adbwire.Version
	// hostMaxData is the largest payload we accept and announce.
	hostMaxData uint32 = 256 * 1024
	// readLimit bounds a payload we read, with room for devices that
	// ignore our maxdata.
	readLimit uint32 = 1 << 20
	headerLen        = adbwire.HeaderLen
)

// hostBanner is the payload of our CNXN.
var hostBanner = []byte("host::\x00")

// message is one device-protocol packet.
type message = adbwire.Message

var errBadMessage = adbwire.ErrBadMessage

func cmdName(c uint32) string { return fmt.Sprintf("%q", adbwire.CommandName(c)) }

// readMessage reads one message from a device.
func readMessage(r io.Reader) (message, error) { return adbwire.ReadMessage(r, readLimit) }

// banner is what a device says about itself in its CNXN payload:
// "<type>:<serial>:<key>=<value>;...;features=a,b".
type banner struct {
	State    string // connection state from the type: device, recovery, ...
	Product  string
	Model    string
	Device   string
	Features []string
}

// parseBanner reads a CNXN payload. Unknown keys are ignored; an unknown
// type counts as "device" since the device answered the handshake.
func parseBanner(b []byte) banner {
	s := strings.TrimRight(string(b), "\x00")
	typ, rest, _ := strings.Cut(s, ":")
	var out banner
	switch typ {
	case "device", "recovery", "bootloader", "sideload", "rescue":
		out.State = typ
	default:
		out.State = "device"
	}
	_, props, _ := strings.Cut(rest, ":")
	for kv := range strings.SplitSeq(props, ";") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch k {
		case "ro.product.name":
			out.Product = v
		case "ro.product.model":
			out.Model = v
		case "ro.product.device":
			out.Device = v
		case "features":
			for f := range strings.SplitSeq(v, ",") {
				if f != "" {
					out.Features = append(out.Features, f)
				}
			}
		}
	}
	return out
}

// sanitize makes a property one token of `adb devices -l`: anything but
// letters, digits, '.', '-' and '_' becomes '_', as adb does.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}
