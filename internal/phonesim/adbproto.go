package phonesim

import (
	"io"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

// The device protocol's message layer is shared with the built-in ADB
// server (package adbwire); these names keep the phone's code short.
const (
	// protocolVersion is the version that lets both sides skip payload
	// checksums; we still send correct checksums for older hosts.
	protocolVersion = adbwire.Version
	// maxPayload is the largest payload the phone accepts and advertises.
	maxPayload uint32 = 1 << 20
	headerLen         = adbwire.HeaderLen
)

// message is one ADB device-protocol packet.
type message = adbwire.Message

// Errors from readMessage; the transport drops the connection on any of them.
var (
	errBadMagic   = adbwire.ErrBadMagic
	errTooLarge   = adbwire.ErrTooLarge
	errBadSum     = adbwire.ErrBadChecksum
	errUnknownCmd = adbwire.ErrUnknownCommand
)

func cmdName(c uint32) string { return adbwire.CommandName(c) }

// readMessage reads one message, refusing payloads above limit.
func readMessage(r io.Reader, limit uint32) (message, error) { return adbwire.ReadMessage(r, limit) }
