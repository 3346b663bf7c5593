package phonesim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ADB message commands (little-endian ASCII of the four-letter names).
const (
	cmdSYNC uint32 = 0x434e5953
	cmdCNXN uint32 = 0x4e584e43
	cmdAUTH uint32 = 0x48545541
	cmdOPEN uint32 = 0x4e45504f
	cmdOKAY uint32 = 0x59414b4f
	cmdCLSE uint32 = 0x45534c43
	cmdWRTE uint32 = 0x45545257
	cmdSTLS uint32 = 0x534c5453
)

const (
	// protocolVersion is the version that lets both sides skip payload
	// checksums; we still send correct checksums for older hosts.
	protocolVersion uint32 = 0x01000001
	// maxPayload is the largest payload the phone accepts and advertises.
	maxPayload uint32 = 1 << 20
	headerLen         = 24
)

// message is one ADB device-protocol packet.
type message struct {
	Command uint32
	Arg0    uint32
	Arg1    uint32
	Data    []byte
}

// Errors from readMessage; the transport drops the connection on any of them.
var (
	errBadMagic   = errors.New("phonesim: adb message magic does not match command")
	errTooLarge   = errors.New("phonesim: adb message payload larger than maxdata")
	errBadSum     = errors.New("phonesim: adb message checksum mismatch")
	errUnknownCmd = errors.New("phonesim: unknown adb command")
)

func checksum(data []byte) uint32 {
	var s uint32
	for _, b := range data {
		s += uint32(b)
	}
	return s
}

func cmdName(c uint32) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], c)
	return string(b[:])
}

func (m message) String() string {
	return fmt.Sprintf("%s(%d, %d, %d bytes)", cmdName(m.Command), m.Arg0, m.Arg1, len(m.Data))
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

func knownCommand(c uint32) bool {
	switch c {
	case cmdSYNC, cmdCNXN, cmdAUTH, cmdOPEN, cmdOKAY, cmdCLSE, cmdWRTE, cmdSTLS:
		return true
	}
	return false
}

// readMessage reads one message, refusing payloads above limit. A non-zero
// checksum is verified (hosts speaking version 0x01000001 send zero).
func readMessage(r io.Reader, limit uint32) (message, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return message{}, err
	}
	le := binary.LittleEndian
	m := message{Command: le.Uint32(h[0:]), Arg0: le.Uint32(h[4:]), Arg1: le.Uint32(h[8:])}
	n, sum, magic := le.Uint32(h[12:]), le.Uint32(h[16:]), le.Uint32(h[20:])
	if magic != m.Command^0xffffffff {
		return m, errBadMagic
	}
	if !knownCommand(m.Command) {
		return m, fmt.Errorf("%w %#x", errUnknownCmd, m.Command)
	}
	if n > limit {
		return m, fmt.Errorf("%w: %d > %d", errTooLarge, n, limit)
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
		return m, errBadSum
	}
	return m, nil
}
