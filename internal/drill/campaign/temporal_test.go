package campaign

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/childproc"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/loopback"
)

// The test binary runs itself as the campaign's Temporal server when these
// name the server's SQLite file and port: a process of its own, so the
// campaign can kill it with SIGKILL and start it again on the same file.
const (
	serverDBEnv   = "CAMPAIGN_TEMPORAL_DB"
	serverPortEnv = "CAMPAIGN_TEMPORAL_PORT"
	serverNSEnv   = "CAMPAIGN_TEMPORAL_NAMESPACE"
	// serverReadyEnv names the file the server writes once it serves: its
	// ports are held from before it starts, so a connection is no sign.
	serverReadyEnv = "CAMPAIGN_TEMPORAL_READY"
)

func TestMain(m *testing.M) {
	if db := os.Getenv(serverDBEnv); db != "" {
		os.Exit(serveTemporal(db, os.Getenv(serverPortEnv), os.Getenv(serverNSEnv), os.Getenv(serverReadyEnv)))
	}
	os.Exit(m.Run())
}

// serveTemporal runs the embedded server until SIGTERM (or SIGKILL).
func serveTemporal(db, port, namespace, ready string) int {
	p, err := strconv.Atoi(port)
	if err != nil {
		fmt.Fprintf(os.Stderr, "campaign server: %s=%q: %v\n", serverPortEnv, port, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	srv, err := devserver.Start(ctx, devserver.Options{Port: p, UIPort: -1, DBFile: db, Namespaces: []string{namespace},
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		fmt.Fprintf(os.Stderr, "campaign server: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "campaign server: serving %s\n", srv.FrontendAddr())
	if err := os.WriteFile(ready, []byte(srv.FrontendAddr()), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "campaign server: %v\n", err)
		return 1
	}
	<-ctx.Done()
	srv.Stop()
	return 0
}

// temporalProc is the campaign's Temporal server as a child process.
type temporalProc struct {
	proc      *childproc.Proc
	db, port  string
	namespace string
}

// startTemporal starts the server on a free port with its SQLite file in dir.
func startTemporal(ctx context.Context, dir, namespace string) (*temporalProc, error) {
	port, err := loopback.FreePort()
	if err != nil {
		return nil, err
	}
	t := &temporalProc{
		proc: childproc.New("campaign", "temporal", "the Temporal server", filepath.Join(dir, "temporal.log")),
		db:   filepath.Join(dir, "temporal.db"), port: strconv.Itoa(port), namespace: namespace,
	}
	return t, t.start(ctx)
}

// Addr is the server's frontend address.
func (t *temporalProc) Addr() string { return net.JoinHostPort("127.0.0.1", t.port) }

// start starts the server and waits until its frontend accepts
// connections; a port still held by the killed run is tried again.
func (t *temporalProc) start(ctx context.Context) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ready := t.db + ".ready"
		_ = os.Remove(ready)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), serverDBEnv+"="+t.db, serverPortEnv+"="+t.port, serverNSEnv+"="+t.namespace, serverReadyEnv+"="+ready)
		if err := t.proc.Start(cmd, ""); err != nil {
			return err
		}
		for !t.proc.Exited() && time.Now().Before(deadline) {
			if _, err := os.Stat(ready); err == nil {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the Temporal server did not serve on %s within 2 minutes; see %s", t.Addr(), t.proc.LogFile())
		}
		_ = t.proc.Kill() // reap the run that exited (its port or file still held)
		time.Sleep(time.Second)
	}
}

// kill9 kills the server with SIGKILL.
func (t *temporalProc) kill9() error {
	if t.proc.Pid() == 0 {
		return errors.New("the Temporal server is not running")
	}
	return t.proc.Kill()
}

func (t *temporalProc) stop() { _ = t.proc.Stop() }

// revive starts the server again if it exited by itself, and returns the
// end of its log then ("" when it runs).
func (t *temporalProc) revive(ctx context.Context) (string, error) {
	if !t.proc.Exited() {
		return "", nil
	}
	log, _ := os.ReadFile(t.proc.LogFile())
	_ = t.proc.Kill() // reaps it
	return tail(string(log), 20), t.start(ctx)
}
