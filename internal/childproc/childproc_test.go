package childproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A child is started, refused a second start while it runs, stopped,
// started again and killed; every run appends to the one log under its
// own numbered header.
func TestStartStopStartKill(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	log := filepath.Join(t.TempDir(), "sleeper.log")
	p := New("test", "sleeper", "the sleeper", log)
	if p.Pid() != 0 || p.Exited() {
		t.Fatalf("before a start: pid %d, exited %v", p.Pid(), p.Exited())
	}
	if err := p.Start(exec.Command("sleep", "600"), " first"); err != nil {
		t.Fatal(err)
	}
	err := p.Start(exec.Command("sleep", "600"), "")
	if err == nil || err.Error() != "test: the sleeper is already running" {
		t.Fatalf("second start: %v", err)
	}
	if p.Pid() == 0 || p.Exited() {
		t.Fatalf("running: pid %d, exited %v", p.Pid(), p.Exited())
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if p.Pid() != 0 {
		t.Fatalf("stopped: pid %d", p.Pid())
	}
	if err := p.Stop(); err != nil {
		t.Fatalf("a second stop: %v", err)
	}
	if err := p.Start(exec.Command("sleep", "600"), ""); err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "=== test: sleeper start 1 at ") || !strings.HasSuffix(lines[0], " first") ||
		!strings.HasPrefix(lines[1], "=== test: sleeper start 2 at ") {
		t.Fatalf("log:\n%s", b)
	}
}

// A child that ends by itself shows as exited; a command that cannot start
// names the child.
func TestExitedAndStartError(t *testing.T) {
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip("no true command")
	}
	p := New("test", "quick", "the quick one", filepath.Join(t.TempDir(), "quick.log"))
	if err := p.Start(exec.Command("true"), ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for !p.Exited() {
		if time.Now().After(deadline) {
			t.Fatal("`true` has not exited after a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	err := p.Start(exec.Command(filepath.Join(t.TempDir(), "missing")), "")
	if err == nil || !strings.HasPrefix(err.Error(), "test: start the quick one: ") {
		t.Fatalf("start of a missing binary: %v", err)
	}
	if p.Pid() != 0 {
		t.Fatalf("after a failed start: pid %d", p.Pid())
	}
}
