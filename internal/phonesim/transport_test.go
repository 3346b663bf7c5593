package phonesim

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image/png"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

// hostConn plays the ADB server's side of the device protocol.
type hostConn struct {
	t      testing.TB
	c      net.Conn
	nextID uint32
}

func servePhone(t testing.TB, p *Phone) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve returned %v after cancel, want nil", err)
		}
	})
	return ln.Addr().String()
}

func dialHost(t testing.TB, addr string, maxData uint32) (*hostConn, message) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	h := &hostConn{t: t, c: c}
	h.send(message{Command: adbwire.CmdCNXN, Arg0: protocolVersion, Arg1: maxData, Data: []byte("host::features=shell_v2,cmd\x00")})
	m := h.read()
	if m.Command != adbwire.CmdCNXN {
		t.Fatalf("first answer %v, want CNXN", m)
	}
	return h, m
}

func (h *hostConn) send(m message) {
	h.t.Helper()
	if _, err := h.c.Write(m.Encode()); err != nil {
		h.t.Fatal(err)
	}
}

func (h *hostConn) read() message {
	h.t.Helper()
	_ = h.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	m, err := readMessage(h.c, 1<<24)
	if err != nil {
		h.t.Fatalf("read: %v", err)
	}
	return m
}

// open opens a service and returns the phone's stream id, or 0 if refused.
func (h *hostConn) open(service string) (local, remote uint32) {
	h.t.Helper()
	h.nextID++
	h.send(message{Command: adbwire.CmdOPEN, Arg0: h.nextID, Data: []byte(service + "\x00")})
	m := h.read()
	switch m.Command {
	case adbwire.CmdOKAY:
		if m.Arg1 != h.nextID || m.Arg0 == 0 {
			h.t.Fatalf("OKAY for open = %v, want OKAY(x, %d)", m, h.nextID)
		}
		return h.nextID, m.Arg0
	case adbwire.CmdCLSE:
		return h.nextID, 0
	}
	h.t.Fatalf("answer to OPEN %q = %v", service, m)
	return 0, 0
}

// collect acknowledges WRTEs until CLSE and returns the data and the
// largest payload seen.
func (h *hostConn) collect(local, remote uint32) ([]byte, int) {
	h.t.Helper()
	var out []byte
	biggest := 0
	for {
		m := h.read()
		switch m.Command {
		case adbwire.CmdWRTE:
			if m.Arg0 != remote || m.Arg1 != local {
				h.t.Fatalf("WRTE ids %d,%d, want %d,%d", m.Arg0, m.Arg1, remote, local)
			}
			out = append(out, m.Data...)
			biggest = max(biggest, len(m.Data))
			h.send(message{Command: adbwire.CmdOKAY, Arg0: local, Arg1: remote})
		case adbwire.CmdCLSE:
			return out, biggest
		default:
			h.t.Fatalf("unexpected %v", m)
		}
	}
}

func (h *hostConn) shell(cmd string) string {
	h.t.Helper()
	l, r := h.open("shell:" + cmd)
	if r == 0 {
		h.t.Fatalf("shell refused")
	}
	out, _ := h.collect(l, r)
	return string(out)
}

func TestConnectBanner(t *testing.T) {
	p := New(Config{Serial: "emu-1", Model: "Pixel 7 (phonesim)"})
	_, m := dialHost(t, servePhone(t, p), 4096)
	banner := string(m.Data)
	if m.Arg0 != protocolVersion || !strings.HasPrefix(banner, "device::") ||
		!strings.Contains(banner, "ro.product.model=Pixel 7 (phonesim)") {
		t.Fatalf("CNXN = %v %q", m, banner)
	}
	for _, f := range []string{"shell_v2", "delayed_ack", "stat_v2"} {
		if strings.Contains(banner, f) {
			t.Errorf("banner advertises %s: %q", f, banner)
		}
	}
}

func TestShellAndExecServices(t *testing.T) {
	p := New(Config{})
	h, _ := dialHost(t, servePhone(t, p), 4096)
	if got := h.shell("echo 'hello world' && wm size"); got != "hello world\nPhysical size: 1080x2400\n" {
		t.Fatalf("shell output %q", got)
	}
	if got := h.shell("nosuchcmd"); got != "/system/bin/sh: nosuchcmd: inaccessible or not found\n" {
		t.Fatalf("unknown command output %q", got)
	}
	l, r := h.open("exec:getprop ro.product.model")
	out, _ := h.collect(l, r)
	if string(out) != "Pixel 7 (phonesim)\n" {
		t.Fatalf("exec output %q", out)
	}
	// Unknown services are refused with CLSE.
	if _, r := h.open("jdwp:1234"); r != 0 {
		t.Fatal("jdwp: was accepted, want CLSE")
	}
	if _, r := h.open("reboot:"); r == 0 {
		t.Fatal("reboot: was refused, want accepted and ignored")
	}
	if st := p.State(); !st.Awake || st.Screen.App != "Launcher" {
		t.Fatalf("state changed by reboot: %+v", st.Screen)
	}
}

func TestWriteChunkingAndFlowControl(t *testing.T) {
	p := New(Config{})
	h, _ := dialHost(t, servePhone(t, p), 4096)
	l, r := h.open("exec:screencap -p")
	// The phone must not send a second WRTE before our OKAY.
	first := h.read()
	if first.Command != adbwire.CmdWRTE || len(first.Data) != 4096 {
		t.Fatalf("first message %v, want a full 4096-byte WRTE", first)
	}
	_ = h.c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if m, err := readMessage(h.c, 1<<24); err == nil {
		t.Fatalf("got %v before acknowledging the first WRTE", m)
	} else if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Fatalf("read: %v", err)
	}
	h.send(message{Command: adbwire.CmdOKAY, Arg0: l, Arg1: r})
	rest, biggest := h.collect(l, r)
	if biggest > 4096 {
		t.Fatalf("WRTE of %d bytes exceeds maxdata 4096", biggest)
	}
	img, err := png.Decode(bytes.NewReader(append(first.Data, rest...)))
	if err != nil {
		t.Fatalf("screencap over exec is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 2400 {
		t.Fatalf("screenshot %v, want 1080x2400", b)
	}
}

func TestHostCloseStopsStream(t *testing.T) {
	p := New(Config{})
	h, _ := dialHost(t, servePhone(t, p), 4096)
	l, r := h.open("exec:screencap -p")
	if m := h.read(); m.Command != adbwire.CmdWRTE {
		t.Fatalf("got %v", m)
	}
	h.send(message{Command: adbwire.CmdCLSE, Arg0: l, Arg1: r})
	// The transport stays usable.
	if got := h.shell("echo still here"); got != "still here\n" {
		t.Fatalf("after CLSE: %q", got)
	}
}

// syncReq writes one sync request.
func syncReq(id string, n uint32, payload []byte) []byte {
	b := make([]byte, 8, 8+len(payload))
	copy(b, id)
	binary.LittleEndian.PutUint32(b[4:], n)
	return append(b, payload...)
}

func TestSyncPushPullStatList(t *testing.T) {
	p := New(Config{})
	h, _ := dialHost(t, servePhone(t, p), 4096)
	l, r := h.open("sync:")
	var reply []byte
	// exchange sends data in WRTEs (waiting for OKAY each) and reads
	// replies until want bytes arrived.
	exchange := func(data []byte, want int) []byte {
		for len(data) > 0 {
			n := min(len(data), 4096)
			h.send(message{Command: adbwire.CmdWRTE, Arg0: l, Arg1: r, Data: data[:n]})
			data = data[n:]
			for {
				m := h.read()
				if m.Command == adbwire.CmdOKAY {
					break
				}
				if m.Command != adbwire.CmdWRTE {
					t.Fatalf("got %v while sending", m)
				}
				reply = append(reply, m.Data...)
				h.send(message{Command: adbwire.CmdOKAY, Arg0: l, Arg1: r})
			}
		}
		for len(reply) < want {
			m := h.read()
			if m.Command != adbwire.CmdWRTE {
				t.Fatalf("got %v, want reply data", m)
			}
			reply = append(reply, m.Data...)
			h.send(message{Command: adbwire.CmdOKAY, Arg0: l, Arg1: r})
		}
		out := reply[:want]
		reply = reply[want:]
		return out
	}
	content := bytes.Repeat([]byte("0123456789abcdef"), 9000) // 144000 bytes: several DATA chunks
	path := "/sdcard/Download/x.bin"
	var send []byte
	send = append(send, syncReq("SEND", uint32(len(path)+6), []byte(path+",33188"))...)
	for off := 0; off < len(content); off += 65536 {
		chunk := content[off:min(off+65536, len(content))]
		send = append(send, syncReq("DATA", uint32(len(chunk)), chunk)...)
	}
	send = append(send, syncReq("DONE", 1700000000, nil)...)
	if got := exchange(send, 8); string(got[:4]) != "OKAY" {
		t.Fatalf("SEND answer %q", got)
	}
	st := exchange(syncReq("STAT", uint32(len(path)), []byte(path)), 16)
	le := binary.LittleEndian
	if string(st[:4]) != "STAT" || le.Uint32(st[4:])&0o170000 != modeFile || le.Uint32(st[8:]) != uint32(len(content)) || le.Uint32(st[12:]) != 1700000000 {
		t.Fatalf("STAT = % x", st)
	}
	missing := exchange(syncReq("STAT", 8, []byte("/nothing")), 16)
	if le.Uint32(missing[4:]) != 0 {
		t.Fatalf("STAT of a missing file has mode %o", le.Uint32(missing[4:]))
	}
	// RECV: DATA chunks then DONE.
	exchange(syncReq("RECV", uint32(len(path)), []byte(path)), 0)
	var got []byte
	for {
		hdr := exchange(nil, 8)
		n := le.Uint32(hdr[4:])
		if string(hdr[:4]) == "DONE" {
			break
		}
		if string(hdr[:4]) != "DATA" || n > 65536 {
			t.Fatalf("RECV chunk header %q %d", hdr[:4], n)
		}
		got = append(got, exchange(nil, int(n))...)
	}
	if !bytes.Equal(got, content) {
		t.Fatalf("pulled %d bytes, pushed %d; contents differ", len(got), len(content))
	}
	fail := exchange(syncReq("RECV", 8, []byte("/missing")), 8)
	if string(fail[:4]) != "FAIL" {
		t.Fatalf("RECV of a missing file: %q", fail)
	}
	exchange(nil, int(le.Uint32(fail[4:])))
	// LIST the directory.
	exchange(syncReq("LIST", 17, []byte("/sdcard/Download/")), 0)
	var names []string
	for {
		d := exchange(nil, 20)
		if string(d[:4]) == "DONE" {
			break
		}
		names = append(names, string(exchange(nil, int(le.Uint32(d[16:])))))
	}
	if strings.Join(names, ",") != "readme.txt,x.bin" {
		t.Fatalf("LIST = %v", names)
	}
	h.send(message{Command: adbwire.CmdWRTE, Arg0: l, Arg1: r, Data: syncReq("QUIT", 0, nil)})
	for m := h.read(); m.Command != adbwire.CmdCLSE; m = h.read() {
	}
}

func TestDisconnectFaultRefusesThenAccepts(t *testing.T) {
	p := New(Config{})
	addr := servePhone(t, p)
	h, _ := dialHost(t, addr, 4096)
	if err := p.SetFault(Fault{Kind: FaultDisconnect, Duration: 700 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	// The existing transport is dropped.
	_ = h.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := readMessage(h.c, maxPayload); err == nil {
		t.Fatal("transport still open after disconnect fault")
	}
	// New connections are reset while the fault lasts ...
	c, err := net.Dial("tcp", addr)
	if err == nil {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err = c.Read(make([]byte, 1))
		c.Close()
	}
	if err == nil {
		t.Fatal("connection during disconnect fault was served")
	}
	// ... and accepted again after it.
	deadline := time.Now().Add(10 * time.Second)
	for p.refusing() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	h2, _ := dialHost(t, addr, 4096)
	if got := h2.shell("echo ok"); got != "ok\n" {
		t.Fatalf("after the fault: %q", got)
	}
}

func TestOfflineFaultHoldsCNXN(t *testing.T) {
	p := New(Config{})
	addr := servePhone(t, p)
	if err := p.SetFault(Fault{Kind: FaultOffline, Duration: 600 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write(message{Command: adbwire.CmdCNXN, Arg0: protocolVersion, Arg1: 4096, Data: []byte("host::\x00")}.Encode())
	_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := readMessage(c, maxPayload); err == nil || !isTimeout(err) {
		t.Fatalf("CNXN answered while offline (err %v)", err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	m, err := readMessage(c, maxPayload)
	if err != nil || m.Command != adbwire.CmdCNXN {
		t.Fatalf("after offline: %v %v, want CNXN", m, err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded)
}

// BenchmarkScreencapOverProtocol measures `exec:screencap -p` through the
// device protocol (cached screen, 1 MiB maxdata as current adb uses).
func BenchmarkScreencapOverProtocol(b *testing.B) {
	p := New(Config{})
	h, _ := dialHost(b, servePhone(b, p), maxPayload)
	var n int
	for b.Loop() {
		l, r := h.open("exec:screencap -p")
		out, _ := h.collect(l, r)
		n = len(out)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	b.SetBytes(int64(n))
}

func TestInteractiveShell(t *testing.T) {
	p := New(Config{})
	h, _ := dialHost(t, servePhone(t, p), 4096)
	l, r := h.open("shell:")
	var got []byte
	readUntil := func(want string) {
		t.Helper()
		for !strings.Contains(string(got), want) {
			m := h.read()
			switch m.Command {
			case adbwire.CmdWRTE:
				got = append(got, m.Data...)
				h.send(message{Command: adbwire.CmdOKAY, Arg0: l, Arg1: r})
			case adbwire.CmdOKAY:
			default:
				t.Fatalf("got %v waiting for %q; output so far %q", m, want, got)
			}
		}
	}
	readUntil("$ ")
	h.send(message{Command: adbwire.CmdWRTE, Arg0: l, Arg1: r, Data: []byte("wm size\r")})
	readUntil("Physical size: 1080x2400\r\n")
	h.send(message{Command: adbwire.CmdWRTE, Arg0: l, Arg1: r, Data: []byte("exit\r")})
	for {
		m := h.read()
		if m.Command == adbwire.CmdCLSE {
			break
		}
		if m.Command == adbwire.CmdWRTE {
			h.send(message{Command: adbwire.CmdOKAY, Arg0: l, Arg1: r})
		}
	}
}
