package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/modelserver"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunModelServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- runModelServer(ctx, &out, "127.0.0.1:0", modelserver.Config{}) }()
	re := regexp.MustCompile(`base URL:\s+(http://127\.0\.0\.1:\d+/v1)`)
	var base string
	for range 200 {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if base == "" {
		t.Fatalf("no base URL printed: %q", out.String())
	}
	resp, err := http.Get(base + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Data []struct{ ID string } `json:"data"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&l)
	resp.Body.Close()
	if len(l.Data) != 2 || l.Data[0].ID != "offline-planner" {
		t.Fatalf("models = %+v", l)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("server stopped with %v", err)
	}
	if !regexp.MustCompile(`stopped after 1 requests: 0 answered`).MatchString(out.String()) {
		t.Fatalf("no counters printed at exit: %q", out.String())
	}
}

func TestModelServerBadRate(t *testing.T) {
	cmd := newModelServerCmd()
	cmd.SetArgs([]string{"--rate-429", "2"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if exitCode(err) != exitUsage || err.Error() != "--rate-429 2: a rate is a probability between 0 and 1" {
		t.Fatalf("err = %v (exit %d), want a usage error", err, exitCode(err))
	}
}
