package adb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"testing"
	"time"
)

// readConn is a net.Conn that reads from a buffer, for feeding replies.
type readConn struct {
	net.Conn
	r *bytes.Reader
}

func (c readConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c readConn) Write(p []byte) (int, error) { return len(p), nil }
func (c readConn) Close() error                { return nil }
func (c readConn) SetDeadline(time.Time) error { return nil }

func replyConn(b []byte) *syncConn {
	return &syncConn{conn: &conn{Conn: readConn{r: bytes.NewReader(b)}, ctx: context.Background(), stop: func() bool { return true }}}
}

func chunk(id string, data []byte) []byte {
	h := make([]byte, 8)
	copy(h, id)
	binary.LittleEndian.PutUint32(h[4:], uint32(len(data)))
	return append(h, data...)
}

func TestRecvReplies(t *testing.T) {
	tests := []struct {
		name  string
		reply []byte
		want  string
		check func(error) bool
	}{
		{"two chunks", append(append(chunk("DATA", []byte("ab")), chunk("DATA", []byte("cd"))...), chunk("DONE", nil)...), "abcd", nil},
		{"empty", chunk("DONE", nil), "", nil},
		{"fail", chunk("FAIL", []byte("Permission denied")), "", func(err error) bool {
			var fe *FailError
			return errors.As(err, &fe) && fe.Message == "Permission denied"
		}},
		{"short header", chunk("DATA", nil)[:4:4], "", func(err error) bool { return err != nil }},
		{"bad id", chunk("WHAT", nil), "", func(err error) bool { var pe *ProtocolError; return errors.As(err, &pe) }},
		{"truncated", chunk("DATA", []byte("abc"))[:9], "", func(err error) bool { return err != nil }},
	}
	big := make([]byte, 8)
	copy(big, "DATA")
	binary.LittleEndian.PutUint32(big[4:], MaxSyncData+1)
	tests = append(tests, struct {
		name  string
		reply []byte
		want  string
		check func(error) bool
	}{"chunk over 64K", big, "", func(err error) bool { var pe *ProtocolError; return errors.As(err, &pe) }})
	for _, tt := range tests {
		var out bytes.Buffer
		n, err := replyConn(tt.reply).recv("/x", &out)
		if tt.check == nil && (err != nil || out.String() != tt.want || n != int64(len(tt.want))) {
			t.Errorf("%s: got %q (%d), %v; want %q", tt.name, out.String(), n, err, tt.want)
		}
		if tt.check != nil && !tt.check(err) {
			t.Errorf("%s: err = %v", tt.name, err)
		}
	}
}

func FuzzRecv(f *testing.F) {
	f.Add(append(chunk("DATA", []byte("hello")), chunk("DONE", nil)...))
	f.Add(chunk("FAIL", []byte("No such file or directory")))
	f.Add([]byte("DATA\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var out bytes.Buffer
		n, err := replyConn(b).recv("/x", &out)
		if n != int64(out.Len()) {
			t.Fatalf("reported %d bytes, wrote %d", n, out.Len())
		}
		if err == nil && n > int64(len(b)) {
			t.Fatalf("pulled %d bytes from a %d-byte reply", n, len(b))
		}
	})
}

func FuzzReadStatus(f *testing.F) {
	f.Add([]byte("OKAY"))
	f.Add([]byte("FAIL0005hello"))
	f.Add([]byte("FAILzzzz"))
	f.Fuzz(func(t *testing.T, b []byte) {
		err := readStatus(bytes.NewReader(b), "host:x")
		if err == nil && !bytes.HasPrefix(b, []byte("OKAY")) {
			t.Fatalf("accepted %q as OKAY", b)
		}
		var fe *FailError
		if errors.As(err, &fe) && len(fe.Message) > 0xffff {
			t.Fatalf("message of %d bytes", len(fe.Message))
		}
	})
}
