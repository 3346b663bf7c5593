package loopback

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func TestInUseHintNamesTheHolder(t *testing.T) {
	// An adb server: answers host:version with OKAY.
	adb := listen(t)
	go func() {
		for {
			c, err := adb.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				b := make([]byte, 16)
				if _, err := io.ReadFull(c, b); err == nil && string(b) == "000chost:version" {
					_, _ = io.WriteString(c, "OKAY00040029")
				}
			}()
		}
	}()
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/models" {
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"offline-planner"}]}`)
			return
		}
		http.NotFound(w, r)
	}))
	defer models.Close()
	grpcLike := httptest.NewUnstartedServer(h2c.NewHandler(http.NotFoundHandler(), &http2.Server{}))
	grpcLike.Start()
	defer grpcLike.Close()
	bare := listen(t) // accepts at the kernel level, never answers

	for _, c := range []struct {
		addr, flag string
		want       []string
		not        string
	}{
		{adb.Addr().String(), "--temporal-port", []string{"an adb server holds it", "kill-server", "--temporal-port"}, "--temporal-address"},
		{strings.TrimPrefix(models.URL, "http://"), "--temporal-ui-port", []string{"model server holds it", "--temporal-ui-port"}, "--temporal-address"},
		{strings.TrimPrefix(grpcLike.URL, "http://"), "--temporal-port", []string{"Temporal server may already be running", "--temporal-address 127.0.0.1:"}, ""},
		{bare.Addr().String(), "--temporal-port", []string{"another program holds it", "--temporal-port"}, "--temporal-address"},
	} {
		got := InUseHint(c.addr, c.flag)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("InUseHint(%s) = %q, lacks %q", c.addr, got, w)
			}
		}
		if c.not != "" && strings.Contains(got, c.not) {
			t.Errorf("InUseHint(%s) = %q, should not offer %q", c.addr, got, c.not)
		}
	}
}
