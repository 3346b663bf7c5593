package devserver

import (
	"fmt"
	"net"
	"strconv"
	"time"
)

// reservation holds a loopback port for a listener the Temporal server
// opens itself (it takes a port number, not a listener): the port stays
// bound here until release, right before the server binds it
// (docs/design.md §14).
type reservation struct {
	ln   net.Listener
	port int
}

// reserve binds 127.0.0.1:port (0 = any free port) and keeps it bound.
func reserve(port int) (*reservation, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	return &reservation{ln: ln, port: ln.Addr().(*net.TCPAddr).Port}, nil
}

// release frees the port for the server. It first leaves one accepted
// connection in TIME_WAIT on it, closed from the listening side: while that
// lasts (a minute on Linux) the kernel does not hand the port to anyone who
// asks for "any port", but an explicit bind with SO_REUSEADDR (what Go and
// the server do) still gets it. Only a process that binds this very port
// number in the moment between release and the server's bind can take it.
func (r *reservation) release() {
	if r == nil || r.ln == nil {
		return
	}
	if c, err := net.DialTimeout("tcp", r.ln.Addr().String(), time.Second); err == nil {
		if tl, ok := r.ln.(*net.TCPListener); ok {
			_ = tl.SetDeadline(time.Now().Add(time.Second))
		}
		if s, err := r.ln.Accept(); err == nil {
			_ = s.Close() // the listening side closes first: its end waits in TIME_WAIT
		}
		_ = c.Close()
	}
	_ = r.ln.Close()
	r.ln = nil
}

// reservations is a set of held ports.
type reservations []*reservation

// reserveFree holds n distinct free loopback ports.
func reserveFree(n int) (reservations, error) {
	var rs reservations
	for range n {
		r, err := reserve(0)
		if err != nil {
			rs.release()
			return nil, fmt.Errorf("reserve a free port for the embedded Temporal server: %w", err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

func (rs reservations) release() {
	for _, r := range rs {
		r.release()
	}
}

func (rs reservations) ports() []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.port
	}
	return out
}
