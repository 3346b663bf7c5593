package adbwire

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	m := Message{Command: CmdWRTE, Arg0: 3, Arg1: 7, Data: []byte("shell:echo hi\x00")}
	b := m.Encode()
	if len(b) != HeaderLen+len(m.Data) {
		t.Fatalf("encoded %d bytes", len(b))
	}
	got, err := ReadMessage(bytes.NewReader(b), 1024)
	if err != nil || got.Command != m.Command || got.Arg0 != 3 || got.Arg1 != 7 || !bytes.Equal(got.Data, m.Data) {
		t.Fatalf("got %v, %v", got, err)
	}
	if got.String() != `"WRTE"(3, 7, 14 bytes)` {
		t.Fatalf("String() = %s", got.String())
	}
}

func TestReadErrors(t *testing.T) {
	good := Message{Command: CmdOKAY, Arg0: 1, Arg1: 2, Data: []byte("abc")}.Encode()
	corrupt := func(f func([]byte)) []byte { b := bytes.Clone(good); f(b); return b }
	zeroSum := corrupt(func(b []byte) { b[16], b[17], b[18], b[19] = 0, 0, 0, 0 })
	if _, err := ReadMessage(bytes.NewReader(zeroSum), 1024); err != nil {
		t.Fatalf("a zero checksum is allowed: %v", err)
	}
	for _, c := range []struct {
		name  string
		in    []byte
		limit uint32
		want  error
	}{
		{"bad magic", corrupt(func(b []byte) { b[20] ^= 1 }), 1024, ErrBadMagic},
		{"too large", good, 2, ErrTooLarge},
		{"bad checksum", corrupt(func(b []byte) { b[HeaderLen] ^= 0x40 }), 1024, ErrBadChecksum},
		{"unknown command", Message{Command: 0x41414141}.Encode(), 1024, ErrUnknownCommand},
		{"short payload", good[:len(good)-1], 1024, io.ErrUnexpectedEOF},
		{"empty", nil, 1024, io.EOF},
	} {
		_, err := ReadMessage(bytes.NewReader(c.in), c.limit)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
		if c.want != io.EOF && c.want != io.ErrUnexpectedEOF && !errors.Is(err, ErrBadMessage) {
			t.Errorf("%s: %v does not match ErrBadMessage", c.name, err)
		}
	}
}

func FuzzReadMessage(f *testing.F) {
	f.Add(Message{Command: CmdCNXN, Arg0: Version, Arg1: 4096, Data: []byte("host::\x00")}.Encode())
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ReadMessage(bytes.NewReader(b), 1<<16)
		if err != nil {
			return
		}
		again, err := ReadMessage(bytes.NewReader(m.Encode()), 1<<16)
		if err != nil || again.Command != m.Command || !bytes.Equal(again.Data, m.Data) {
			t.Fatalf("re-encoded message does not read back: %v %v", again, err)
		}
	})
}
