// Package adbwire is the ADB device protocol's message layer, shared by the
// simulated phone (the device side) and the built-in ADB server (the host
// side): the 24-byte header of six little-endian u32 (command, arg0, arg1,
// payload length, payload byte sum, command ^ 0xffffffff) and the payload.
package adbwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Commands: the four ASCII letters read as a little-endian u32.
const (
	CmdSYNC uint32 = 0x434e5953
	CmdCNXN uint32 = 0x4e584e43
	CmdAUTH uint32 = 0x48545541
	CmdOPEN uint32 = 0x4e45504f
	CmdOKAY uint32 = 0x59414b4f
	CmdCLSE uint32 = 0x45534c43
	CmdWRTE uint32 = 0x45545257
	CmdSTLS uint32 = 0x534c5453
)

const (
	// Version is the protocol version that lets a peer skip payload
	// checksums (we still send correct ones for older peers).
	Version uint32 = 0x01000001
	// HeaderLen is the size of a message header.
	HeaderLen = 24
)

// Message is one device-protocol packet.
type Message struct {
	Command uint32
	Arg0    uint32
	Arg1    uint32
	Data    []byte
}

// Errors from ReadMessage; all of them match ErrBadMessage with errors.Is.
var (
	ErrBadMessage     = errors.New("not an adb device-protocol message")
	ErrBadMagic       = fmt.Errorf("%w: magic does not match command", ErrBadMessage)
	ErrTooLarge       = fmt.Errorf("%w: payload larger than allowed", ErrBadMessage)
	ErrBadChecksum    = fmt.Errorf("%w: checksum mismatch", ErrBadMessage)
	ErrUnknownCommand = fmt.Errorf("%w: unknown command", ErrBadMessage)
)

// Checksum is the protocol's payload checksum: the sum of its bytes.
func Checksum(data []byte) uint32 {
	var s uint32
	for _, b := range data {
		s += uint32(b)
	}
	return s
}

// CommandName returns the four letters of a command ("OKAY").
func CommandName(c uint32) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], c)
	return string(b[:])
}

// KnownCommand reports whether c is one of the protocol's commands.
func KnownCommand(c uint32) bool {
	switch c {
	case CmdSYNC, CmdCNXN, CmdAUTH, CmdOPEN, CmdOKAY, CmdCLSE, CmdWRTE, CmdSTLS:
		return true
	}
	return false
}

func (m Message) String() string {
	return fmt.Sprintf("%q(%d, %d, %d bytes)", CommandName(m.Command), m.Arg0, m.Arg1, len(m.Data))
}

// Encode returns the header followed by the payload.
func (m Message) Encode() []byte {
	buf := make([]byte, HeaderLen+len(m.Data))
	le := binary.LittleEndian
	le.PutUint32(buf[0:], m.Command)
	le.PutUint32(buf[4:], m.Arg0)
	le.PutUint32(buf[8:], m.Arg1)
	le.PutUint32(buf[12:], uint32(len(m.Data)))
	le.PutUint32(buf[16:], Checksum(m.Data))
	le.PutUint32(buf[20:], m.Command^0xffffffff)
	copy(buf[HeaderLen:], m.Data)
	return buf
}

// ReadMessage reads one message, refusing payloads above limit. A non-zero
// checksum is verified (peers speaking Version may send zero). A payload cut
// short reports io.ErrUnexpectedEOF.
func ReadMessage(r io.Reader, limit uint32) (Message, error) {
	var h [HeaderLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return Message{}, err
	}
	le := binary.LittleEndian
	m := Message{Command: le.Uint32(h[0:]), Arg0: le.Uint32(h[4:]), Arg1: le.Uint32(h[8:])}
	n, sum, magic := le.Uint32(h[12:]), le.Uint32(h[16:]), le.Uint32(h[20:])
	if magic != m.Command^0xffffffff {
		return m, fmt.Errorf("%w (%#x for %q)", ErrBadMagic, magic, CommandName(m.Command))
	}
	if !KnownCommand(m.Command) {
		return m, fmt.Errorf("%w %#x", ErrUnknownCommand, m.Command)
	}
	if n > limit {
		return m, fmt.Errorf("%w: %q payload of %d bytes, limit %d", ErrTooLarge, CommandName(m.Command), n, limit)
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
	if sum != 0 && sum != Checksum(m.Data) {
		return m, fmt.Errorf("%w in %q", ErrBadChecksum, CommandName(m.Command))
	}
	return m, nil
}
