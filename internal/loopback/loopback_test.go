package loopback

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

func TestFreePort(t *testing.T) {
	p, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
	if err != nil {
		t.Fatalf("port %d is not free: %v", p, err)
	}
	l.Close()
}

func TestWaitHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	defer srv.Close()
	if err := WaitHTTP(context.Background(), srv.URL, time.Second); err != nil {
		t.Fatalf("answering server: %v", err)
	}
	p, _ := FreePort()
	if err := WaitHTTP(context.Background(), "http://127.0.0.1:"+strconv.Itoa(p), 200*time.Millisecond); err == nil {
		t.Fatal("nothing listens there, yet WaitHTTP returned nil")
	}
}
