package adbserver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Device-protocol commands: the four ASCII letters read as a little-endian u32.
const (
	cmdCNXN uint32 = 0x4e584e43
	cmdAUTH uint32 = 0x48545541
	cmdOPEN uint32 = 0x4e45504f
	cmdOKAY uint32 = 0x59414b4f
	cmdCLSE uint32 = 0x45534c43
	cmdWRTE uint32 = 0x45545257
	cmdSYNC uint32 = 0x434e5953
	cmdSTLS uint32 = 0x534c5453
)

const (
	// hostVersion is the protocol version we announce; it lets a device
	// skip payload checksums (we still send correct ones).
	hostVersion uint32 = 0x01000001
	// hostMaxData is the largest payload we accept and announce.
	hostMaxData uint32 = 256 * 1024
	// readLimit bounds a payload we read, with room for devices that
	// ignore our maxdata.
	readLimit uint32 = 1 << 20
	headerLen        = 24
)

// hostBanner is the payload of our CNXN.
var hostBanner = []byte("host::\x00")

// message is one device-protocol packet.
type message struct {
	Command uint32
	Arg0    uint32
	Arg1    uint32
	Data    []byte
}

func cmdName(c uint32) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], c)
	return fmt.Sprintf("%q", b[:])
}

func (m message) String() string {
	return fmt.Sprintf("%s(%d, %d, %d bytes)", cmdName(m.Command), m.Arg0, m.Arg1, len(m.Data))
}

func checksum(data []byte) uint32 {
	var s uint32
	for _, b := range data {
		s += uint32(b)
	}
	return s
}

// encode returns the 24-byte header followed by the payload.
func (m message) encode() []byte {
	buf := make([]byte, headerLen+len(m.Data))
	le := binary.LittleEndian
	le.PutUint32(buf[0:], m.Command)
	le.PutUint32(buf[4:], m.Arg0)
	le.PutUint32(buf[8:], m.Arg1)
	le.PutUint32(buf[12:], uint32(len(m.Data)))
	le.PutUint32(buf[16:], checksum(m.Data))
	le.PutUint32(buf[20:], m.Command^0xffffffff)
	copy(buf[headerLen:], m.Data)
	return buf
}

var errBadMessage = errors.New("not an adb device-protocol message")

// readMessage reads one message. A non-zero checksum is verified (devices
// speaking version 0x01000001 may send zero).
func readMessage(r io.Reader) (message, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return message{}, err
	}
	le := binary.LittleEndian
	m := message{Command: le.Uint32(h[0:]), Arg0: le.Uint32(h[4:]), Arg1: le.Uint32(h[8:])}
	n, sum, magic := le.Uint32(h[12:]), le.Uint32(h[16:]), le.Uint32(h[20:])
	if magic != m.Command^0xffffffff {
		return m, fmt.Errorf("%w: magic %#x does not match command %s", errBadMessage, magic, cmdName(m.Command))
	}
	if n > readLimit {
		return m, fmt.Errorf("%w: %s payload of %d bytes exceeds %d", errBadMessage, cmdName(m.Command), n, readLimit)
	}
	if n > 0 {
		m.Data = make([]byte, n)
		if _, err := io.ReadFull(r, m.Data); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return m, err
		}
	}
	if sum != 0 && sum != checksum(m.Data) {
		return m, fmt.Errorf("%w: %s checksum mismatch", errBadMessage, cmdName(m.Command))
	}
	return m, nil
}

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
