package phonesim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

func TestMessageEncode(t *testing.T) {
	tests := []struct {
		name string
		m    message
		want []byte
	}{
		{"okay", message{Command: adbwire.CmdOKAY, Arg0: 1, Arg1: 2},
			[]byte{'O', 'K', 'A', 'Y', 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'O' ^ 0xff, 'K' ^ 0xff, 'A' ^ 0xff, 'Y' ^ 0xff}},
		{"wrte with payload", message{Command: adbwire.CmdWRTE, Arg0: 7, Arg1: 0x01020304, Data: []byte("hi")},
			append([]byte{'W', 'R', 'T', 'E', 7, 0, 0, 0, 4, 3, 2, 1, 2, 0, 0, 0, 'h' + 'i', 0, 0, 0,
				'W' ^ 0xff, 'R' ^ 0xff, 'T' ^ 0xff, 'E' ^ 0xff}, "hi"...)},
		{"cnxn version", message{Command: adbwire.CmdCNXN, Arg0: protocolVersion, Arg1: maxPayload, Data: []byte{0xff, 0xff}},
			append([]byte{'C', 'N', 'X', 'N', 1, 0, 0, 1, 0, 0, 0x10, 0, 2, 0, 0, 0, 0xfe, 1, 0, 0,
				'C' ^ 0xff, 'N' ^ 0xff, 'X' ^ 0xff, 'N' ^ 0xff}, 0xff, 0xff)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.m.Encode()
			if !bytes.Equal(got, tt.want) {
				t.Fatalf("encode = % x\nwant     % x", got, tt.want)
			}
			back, err := readMessage(bytes.NewReader(got), maxPayload)
			if err != nil {
				t.Fatal(err)
			}
			if back.Command != tt.m.Command || back.Arg0 != tt.m.Arg0 || back.Arg1 != tt.m.Arg1 || !bytes.Equal(back.Data, tt.m.Data) {
				t.Fatalf("round trip: got %v, want %v", back, tt.m)
			}
		})
	}
}

func TestReadMessageErrors(t *testing.T) {
	good := message{Command: adbwire.CmdWRTE, Arg0: 1, Arg1: 2, Data: []byte("payload")}.Encode()
	corrupt := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		return b
	}
	tests := []struct {
		name  string
		in    []byte
		limit uint32
		want  error
	}{
		{"bad magic", corrupt(func(b []byte) { b[20] ^= 1 }), maxPayload, errBadMagic},
		{"too large", good, 3, errTooLarge},
		{"bad checksum", corrupt(func(b []byte) { b[headerLen] ^= 0x40 }), maxPayload, errBadSum},
		{"truncated payload", good[:len(good)-2], maxPayload, io.ErrUnexpectedEOF},
		{"truncated header", good[:10], maxPayload, io.ErrUnexpectedEOF},
		{"empty", nil, maxPayload, io.EOF},
		{"unknown command", message{Command: 0x41414141}.Encode(), maxPayload, errUnknownCmd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readMessage(bytes.NewReader(tt.in), tt.limit)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	// Version 0x01000001 hosts send a zero checksum: accepted.
	zero := bytes.Clone(good)
	binary.LittleEndian.PutUint32(zero[16:], 0)
	if m, err := readMessage(bytes.NewReader(zero), maxPayload); err != nil || string(m.Data) != "payload" {
		t.Fatalf("zero checksum: %v %v", m, err)
	}
}

func FuzzReadMessage(f *testing.F) {
	f.Add(message{Command: adbwire.CmdCNXN, Arg0: protocolVersion, Arg1: 4096, Data: []byte("host::\x00")}.Encode())
	f.Add(message{Command: adbwire.CmdOPEN, Arg0: 1, Data: []byte("shell:echo hi\x00")}.Encode())
	f.Add(message{Command: adbwire.CmdOKAY, Arg0: 1, Arg1: 2}.Encode())
	f.Add([]byte("garbage that is not a message at all"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		for {
			m, err := readMessage(r, 4096)
			if err != nil {
				return
			}
			if len(m.Data) > 4096 {
				t.Fatalf("payload of %d bytes passed a 4096 limit", len(m.Data))
			}
			again, err := readMessage(bytes.NewReader(m.Encode()), 4096)
			if err != nil || again.Command != m.Command || again.Arg0 != m.Arg0 || again.Arg1 != m.Arg1 || !bytes.Equal(again.Data, m.Data) {
				t.Fatalf("re-encoded message does not read back: %v vs %v (%v)", m, again, err)
			}
		}
	})
}
