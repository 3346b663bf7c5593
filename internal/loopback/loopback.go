// Package loopback holds the small helpers the demo, the benchmarks and the
// drills share to bring up local services: a free port on 127.0.0.1 and a
// wait until an HTTP endpoint answers.
package loopback

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago, for
// the few places that can only be told a port number (a child process's
// flags, `adb -P`). Everything in process binds its own listener instead.
// The port is left with a connection in TIME_WAIT, closed from the
// listening side, so for about a minute the kernel does not hand it to
// anyone asking for any port, while an explicit bind with SO_REUSEADDR
// still gets it (docs/design.md §14).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free loopback port: %w", err)
	}
	defer l.Close()
	if c, err := net.DialTimeout("tcp", l.Addr().String(), time.Second); err == nil {
		_ = l.(*net.TCPListener).SetDeadline(time.Now().Add(time.Second))
		if s, err := l.Accept(); err == nil {
			_ = s.Close()
		}
		_ = c.Close()
	}
	return l.Addr().(*net.TCPAddr).Port, nil
}

// WaitHTTP waits until a GET of url gets any answer, for at most timeout.
func WaitHTTP(ctx context.Context, url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s does not answer: %w", url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
