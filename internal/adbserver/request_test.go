package adbserver

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

func TestReadRequest(t *testing.T) {
	tests := []struct {
		in   string
		want string
		bad  bool // errBadRequest
		eof  bool // short input
	}{
		{"000chost:version", "host:version", false, false},
		{"000Chost:versionEXTRA", "host:version", false, false},
		{"0004abcd", "abcd", false, false},
		{"0000", "", true, false},
		{"00g1x", "", true, false},
		{"+001x", "", true, false},
		{"0x01x", "", true, false},
		{"0005abc", "", false, true},
		{"00", "", false, true},
	}
	for _, tt := range tests {
		got, err := readRequest(strings.NewReader(tt.in))
		switch {
		case tt.bad:
			if !errors.Is(err, errBadRequest) {
				t.Errorf("readRequest(%q) = %q, %v; want errBadRequest", tt.in, got, err)
			}
		case tt.eof:
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("readRequest(%q) = %q, %v; want io.ErrUnexpectedEOF", tt.in, got, err)
			}
		case err != nil || got != tt.want:
			t.Errorf("readRequest(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func FuzzReadRequest(f *testing.F) {
	f.Add([]byte("000chost:version"))
	f.Add([]byte("001fhost-serial:127.0.0.1:5555:features"))
	f.Add([]byte("ffff"))
	f.Add([]byte("0000"))
	f.Add([]byte("zz12abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		req, err := readRequest(r)
		if err != nil {
			if req != "" {
				t.Fatalf("error %v with a request %q", err, req)
			}
			return
		}
		if len(req) == 0 || len(req) > maxRequest {
			t.Fatalf("request of %d bytes", len(req))
		}
		if want := fmt.Sprintf("%04x", len(req)); !strings.EqualFold(string(b[:4]), want) {
			t.Fatalf("prefix %q but %d bytes read", b[:4], len(req))
		}
		if string(b[4:4+len(req)]) != req || r.Len() != len(b)-4-len(req) {
			t.Fatalf("read %q from %q, %d left", req, b, r.Len())
		}
		// The split never panics and keeps the command a suffix.
		if sel, cmd, err := splitTarget(req); err == nil {
			if !strings.HasSuffix(req, cmd) {
				t.Fatalf("command %q is not the tail of %q", cmd, req)
			}
			if sel.kind == selSerial && (sel.serial == "" || !strings.Contains(req, sel.serial+":"+cmd)) {
				t.Fatalf("serial %q and command %q do not make %q", sel.serial, cmd, req)
			}
		}
	})
}

func TestSplitTarget(t *testing.T) {
	tests := []struct {
		req  string
		sel  selector
		cmd  string
		fail bool
	}{
		{req: "host:version", sel: selector{kind: selAny}, cmd: "version"},
		{req: "host:transport:127.0.0.1:5555", sel: selector{kind: selAny}, cmd: "transport:127.0.0.1:5555"},
		{req: "host-serial:emulator-5554:features", sel: selector{kind: selSerial, serial: "emulator-5554"}, cmd: "features"},
		{req: "host-serial:127.0.0.1:5555:features", sel: selector{kind: selSerial, serial: "127.0.0.1:5555"}, cmd: "features"},
		{req: "host-serial:[::1]:5555:get-state", sel: selector{kind: selSerial, serial: "[::1]:5555"}, cmd: "get-state"},
		{req: "host-serial:tcp:phone.lan:5555:wait-for-any-device", sel: selector{kind: selSerial, serial: "tcp:phone.lan:5555"}, cmd: "wait-for-any-device"},
		{req: "host-serial:R58M:forward:tcp:1:tcp:2", sel: selector{kind: selSerial, serial: "R58M"}, cmd: "forward:tcp:1:tcp:2"},
		{req: "host-transport-id:7:features", sel: selector{kind: selID, id: 7}, cmd: "features"},
		{req: "host-usb:get-state", sel: selector{kind: selUSB}, cmd: "get-state"},
		{req: "host-local:get-state", sel: selector{kind: selLocal}, cmd: "get-state"},
		{req: "host-serial:nocommand", fail: true},
		{req: "host-transport-id:x:features", fail: true},
		{req: "shell:ls", fail: true},
	}
	for _, tt := range tests {
		sel, cmd, err := splitTarget(tt.req)
		if tt.fail {
			if !errors.Is(err, errBadRequest) {
				t.Errorf("splitTarget(%q) = %+v %q, %v; want errBadRequest", tt.req, sel, cmd, err)
			}
			continue
		}
		if err != nil || sel != tt.sel || cmd != tt.cmd {
			t.Errorf("splitTarget(%q) = %+v %q, %v; want %+v %q", tt.req, sel, cmd, err, tt.sel, tt.cmd)
		}
	}
}

func TestNormalizeAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"127.0.0.1:5555", "127.0.0.1:5555"},
		{"127.0.0.1", "127.0.0.1:5555"},
		{"phone.lan", "phone.lan:5555"},
		{"[::1]:40000", "[::1]:40000"},
		{"[::1]", "[::1]:5555"},
		{"", ""},
		{"host:notaport", ""},
		{"host:70000", ""},
		{":5555", ""},
	}
	for _, tt := range tests {
		got, err := normalizeAddr(tt.in)
		if (tt.want == "") != (err != nil) || got != tt.want {
			t.Errorf("normalizeAddr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseBanner(t *testing.T) {
	b := parseBanner([]byte("device::ro.product.name=phonesim;ro.product.model=Pixel 7 (phonesim);ro.product.device=sim;features=shell_v2,cmd\x00"))
	want := banner{State: "device", Product: "phonesim", Model: "Pixel 7 (phonesim)", Device: "sim", Features: []string{"shell_v2", "cmd"}}
	if b.State != want.State || b.Product != want.Product || b.Model != want.Model || b.Device != want.Device || !slices.Equal(b.Features, want.Features) {
		t.Fatalf("parseBanner = %+v, want %+v", b, want)
	}
	if b := parseBanner([]byte("recovery::")); b.State != "recovery" || b.Model != "" {
		t.Fatalf("recovery banner = %+v", b)
	}
	if got := sanitize("Pixel 7 (phonesim)"); got != "Pixel_7__phonesim_" {
		t.Fatalf("sanitize = %q", got)
	}
}

func FuzzParseBanner(f *testing.F) {
	f.Add([]byte("device::ro.product.name=a;ro.product.model=b;features=x,y"))
	f.Add([]byte("host::\x00"))
	f.Add([]byte(":::;;==;features=,,"))
	f.Fuzz(func(t *testing.T, b []byte) {
		bn := parseBanner(b)
		if bn.State == "" {
			t.Fatal("empty state")
		}
		for _, f := range bn.Features {
			if f == "" || strings.Contains(f, ",") {
				t.Fatalf("feature %q", f)
			}
		}
		for _, v := range []string{bn.Product, bn.Model, bn.Device} {
			if s := sanitize(v); strings.ContainsAny(s, " \t\n:") {
				t.Fatalf("sanitized %q to %q, which breaks a devices -l line", v, s)
			}
		}
	})
}

func TestMessageRoundTrip(t *testing.T) {
	m := message{Command: adbwire.CmdWRTE, Arg0: 3, Arg1: 9, Data: []byte("payload")}
	got, err := readMessage(bytes.NewReader(m.Encode()))
	if err != nil || got.Command != m.Command || got.Arg0 != 3 || got.Arg1 != 9 || string(got.Data) != "payload" {
		t.Fatalf("round trip = %v, %v", got, err)
	}
	bad := m.Encode()
	bad[20] ^= 1 // magic
	if _, err := readMessage(bytes.NewReader(bad)); !errors.Is(err, errBadMessage) {
		t.Fatalf("bad magic: %v", err)
	}
	sum := m.Encode()
	sum[16] ^= 1
	if _, err := readMessage(bytes.NewReader(sum)); !errors.Is(err, errBadMessage) {
		t.Fatalf("bad checksum: %v", err)
	}
	zero := m.Encode()
	binary.LittleEndian.PutUint32(zero[16:], 0) // version 0x01000001 devices send no checksum
	if _, err := readMessage(bytes.NewReader(zero)); err != nil {
		t.Fatalf("zero checksum: %v", err)
	}
	if _, err := readMessage(bytes.NewReader(m.Encode()[:30])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated payload: %v", err)
	}
}

func FuzzReadMessage(f *testing.F) {
	f.Add(message{Command: adbwire.CmdCNXN, Arg0: hostVersion, Arg1: hostMaxData, Data: hostBanner}.Encode())
	f.Add(message{Command: adbwire.CmdOKAY, Arg0: 1, Arg1: 2}.Encode())
	f.Add([]byte("CNXN"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := readMessage(bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(m.Data) > int(readLimit) || len(b) < headerLen+len(m.Data) {
			t.Fatalf("%v from %d bytes", m, len(b))
		}
		if !bytes.Equal(m.Encode()[:12], b[:12]) {
			t.Fatalf("header does not re-encode: %v", m)
		}
	})
}
