// Package childproc runs a command as a child process that a test or drill
// can kill with SIGKILL, stop, and start again, each run appending its
// output to one log file: the local stacks' worker and the cluster's
// Temporal services (docs/design.md §14).
package childproc

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// stopWait is how long Stop and Kill wait for the process to go before
// they kill it outright.
const stopWait = 45 * time.Second

// Proc is one child process, started again as often as needed.
type Proc struct {
	prefix, label, what, logFile string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	starts int
}

// New prepares a child process whose runs append to logFile. prefix starts
// its errors and log headers ("stack"), label names it in the headers
// ("worker") and what in the errors ("the worker").
func New(prefix, label, what, logFile string) *Proc {
	return &Proc{prefix: prefix, label: label, what: what, logFile: logFile}
}

// LogFile is where every run appends its log.
func (p *Proc) LogFile() string { return p.logFile }

// Start runs cmd, which must not be started yet, with its output appended
// to the log after a header line that counts the starts and ends with
// note; the process must not be running.
func (p *Proc) Start(cmd *exec.Cmd, note string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		return fmt.Errorf("%s: %s is already running", p.prefix, p.what)
	}
	logf, err := os.OpenFile(p.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	p.starts++
	fmt.Fprintf(logf, "=== %s: %s start %d at %s%s\n", p.prefix, p.label, p.starts, time.Now().UTC().Format(time.RFC3339Nano), note)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return fmt.Errorf("%s: start %s: %w", p.prefix, p.what, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = logf.Close()
		close(exited)
	}()
	p.cmd, p.exited = cmd, exited
	return nil
}

// Pid is the process ID of the running process, or 0.
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Kill sends SIGKILL and waits for the process to be gone.
func (p *Proc) Kill() error { return p.signal(syscall.SIGKILL) }

// Stop sends SIGTERM (a graceful stop) and waits; safe when not running.
func (p *Proc) Stop() error { return p.signal(syscall.SIGTERM) }

func (p *Proc) signal(sig syscall.Signal) error {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd = nil
	p.mu.Unlock()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-exited:
		return nil
	case <-time.After(stopWait):
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("%s: %s (pid %d) ignored %v for %s and was killed", p.prefix, p.what, cmd.Process.Pid, sig, stopWait)
	}
}

// Exited reports whether the running process has exited on its own.
func (p *Proc) Exited() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited == nil {
		return false
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}
