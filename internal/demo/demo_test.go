package demo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
)

func TestSecondDemoFailsOnLock(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := os.ReadFile(filepath.Join(dir, "demo.lock"))
	if strings.TrimSpace(string(pid)) != strconv.Itoa(os.Getpid()) {
		t.Fatalf("lock file holds %q", pid)
	}
	_, err = lock(dir)
	if !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), "--data-dir") {
		t.Fatalf("second lock: %v", err)
	}
	// Start reports the same before touching anything else.
	noop := func(context.Context, config.Config, client.Client) error { return nil }
	dial := func(context.Context, config.Config) (client.Client, error) { return nil, errors.New("must not dial") }
	_, err = Start(context.Background(), Options{Config: config.Default(), DataDir: dir, Worker: noop, Dial: dial})
	if !errors.Is(err, ErrRunning) {
		t.Fatalf("Start while locked: %v", err)
	}
	unlock()
	again, err := lock(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	again()
}

func TestMissingADB(t *testing.T) {
	noop := func(context.Context, config.Config, client.Client) error { return nil }
	dial := func(context.Context, config.Config) (client.Client, error) { return nil, errors.New("must not dial") }
	_, err := Start(context.Background(), Options{Config: config.Default(), DataDir: t.TempDir(), Worker: noop, Dial: dial,
		ADBPath: filepath.Join(t.TempDir(), "no-adb-here")})
	if !errors.Is(err, ErrNoADB) || !strings.Contains(err.Error(), "apt-get install adb") || !strings.Contains(err.Error(), "built-in") {
		t.Fatalf("err = %v", err)
	}
}
