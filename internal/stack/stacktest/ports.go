package stacktest

import (
	"net"
	"strconv"
	"testing"
)

// FreePortPair returns a free loopback port p whose p+1000 is free too:
// the embedded server's frontend and its Web UI, as `starter demo` and
// `starter run` place them.
func FreePortPair(t *testing.T) int {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if p+1000 > 65535 {
			continue
		}
		if l2, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1000))); err == nil {
			l2.Close()
			return p
		}
	}
	t.Fatal("no free port pair")
	return 0
}
