package adbserver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxRequest is the longest host request: its length is four hex digits.
const maxRequest = 0xffff

// errBadRequest marks a host request that is not "4 hex digits + text".
var errBadRequest = errors.New("malformed host request")

// readRequest reads one host request: four hex digits giving the length,
// then that many bytes of service text.
func readRequest(r io.Reader) (string, error) {
	var hx [4]byte
	if _, err := io.ReadFull(r, hx[:]); err != nil {
		return "", err
	}
	n := 0
	for _, c := range hx {
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return "", fmt.Errorf("%w: length prefix %q is not 4 hex digits", errBadRequest, hx[:])
		}
		n = n<<4 | d
	}
	if n == 0 {
		return "", fmt.Errorf("%w: empty service", errBadRequest)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return "", err
	}
	return string(buf), nil
}

// okay writes OKAY.
func okay(w io.Writer) error {
	_, err := io.WriteString(w, "OKAY")
	return err
}

// fail writes FAIL and a length-prefixed message.
func fail(w io.Writer, msg string) error {
	_, err := io.WriteString(w, "FAIL"+hexString(msg))
	return err
}

// okayString writes OKAY and a length-prefixed string.
func okayString(w io.Writer, s string) error {
	_, err := io.WriteString(w, "OKAY"+hexString(s))
	return err
}

// hexString prefixes s with its length in four hex digits, cutting s to
// the protocol's limit.
func hexString(s string) string {
	if len(s) > maxRequest {
		s = s[:maxRequest]
	}
	return fmt.Sprintf("%04x%s", len(s), s)
}

// okayTransportID writes OKAY and the 8-byte little-endian transport id
// that the "host:tport:" requests expect.
func okayTransportID(w io.Writer, id uint64) error {
	var b [12]byte
	copy(b[:], "OKAY")
	binary.LittleEndian.PutUint64(b[4:], id)
	_, err := w.Write(b[:])
	return err
}

// selKind says how a request picks its device.
type selKind int

const (
	selNone   selKind = iota // a server request such as host:version
	selAny                   // the only device there is
	selSerial                // by serial
	selID                    // by transport id
	selUSB                   // the only USB device (we have none)
	selLocal                 // the only network device
)

// selector is the device a request is aimed at.
type selector struct {
	kind   selKind
	serial string
	id     uint64
}

// splitTarget splits a host request into its device selector and the
// command: "host:cmd" (any device), "host-serial:<serial>:cmd",
// "host-transport-id:<id>:cmd", "host-usb:cmd", "host-local:cmd".
func splitTarget(req string) (selector, string, error) {
	switch {
	case strings.HasPrefix(req, "host:"):
		return selector{kind: selAny}, req[len("host:"):], nil
	case strings.HasPrefix(req, "host-usb:"):
		return selector{kind: selUSB}, req[len("host-usb:"):], nil
	case strings.HasPrefix(req, "host-local:"):
		return selector{kind: selLocal}, req[len("host-local:"):], nil
	case strings.HasPrefix(req, "host-serial:"):
		rest := req[len("host-serial:"):]
		n := serialLen(rest)
		if n >= len(rest) || rest[n] != ':' || n == 0 {
			return selector{}, "", fmt.Errorf("%w: %q has no command after the serial", errBadRequest, req)
		}
		return selector{kind: selSerial, serial: rest[:n]}, rest[n+1:], nil
	case strings.HasPrefix(req, "host-transport-id:"):
		num, cmd, ok := strings.Cut(req[len("host-transport-id:"):], ":")
		id, err := strconv.ParseUint(num, 10, 64)
		if !ok || err != nil {
			return selector{}, "", fmt.Errorf("%w: %q needs host-transport-id:<number>:<command>", errBadRequest, req)
		}
		return selector{kind: selID, id: id}, cmd, nil
	}
	return selector{}, "", fmt.Errorf("%w: %q does not start with host:", errBadRequest, req)
}

// serialLen returns the length of the serial at the start of s, which is
// followed by ":command". Serials of network devices hold colons
// themselves: "127.0.0.1:5555", "[::1]:5555", "tcp:host:5555"; a part
// made only of digits after the first colon is taken as the port.
func serialLen(s string) int {
	i := 0
	for _, p := range []string{"tcp:", "udp:", "vsock:"} {
		if strings.HasPrefix(s, p) {
			i = len(p)
			break
		}
	}
	if i < len(s) && s[i] == '[' {
		end := strings.IndexByte(s[i:], ']')
		if end < 0 {
			return len(s)
		}
		i += end + 1
	} else {
		c := strings.IndexByte(s[i:], ':')
		if c < 0 {
			return len(s)
		}
		i += c
	}
	// i is at ':' (or the end): a following all-digit part ending in ':'
	// is the port.
	if i < len(s) && s[i] == ':' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == ':' {
			return j
		}
	}
	return i
}
