package cluster

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Service is one Temporal service running as a child process, so a test
// can kill it with SIGKILL or stop it and start it again on the same ports.
type Service struct {
	// Name is frontend, history, matching or worker.
	Name string

	bin, conf, logFile string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	starts int
}

// LogFile is where every run of the service appends its log.
func (s *Service) LogFile() string { return s.logFile }

// Start starts the service; it must not be running.
func (s *Service) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return fmt.Errorf("cluster: the %s service is already running", s.Name)
	}
	logf, err := os.OpenFile(s.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	s.starts++
	fmt.Fprintf(logf, "=== cluster: %s start %d at %s\n", s.Name, s.starts, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(s.bin, "start", "--config", s.conf, "--service", s.Name)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return fmt.Errorf("cluster: start the %s service: %w", s.Name, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = logf.Close()
		close(exited)
	}()
	s.cmd, s.exited = cmd, exited
	return nil
}

// Kill sends SIGKILL and waits for the process to be gone.
func (s *Service) Kill() error { return s.signal(syscall.SIGKILL) }

// Stop sends SIGTERM (a graceful stop) and waits; safe when not running.
func (s *Service) Stop() error { return s.signal(syscall.SIGTERM) }

func (s *Service) signal(sig syscall.Signal) error {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-exited:
		return nil
	case <-time.After(45 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("cluster: the %s service (pid %d) ignored %v for 45s and was killed", s.Name, cmd.Process.Pid, sig)
	}
}

// Exited reports whether the running service has exited on its own.
func (s *Service) Exited() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exited == nil {
		return false
	}
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// Tail is the end of the service's log, for a failure message.
func (s *Service) Tail(n int) string { return tail(s.logFile, n) }

// tail is the last n lines of a log file, or why it cannot be read.
func tail(file string, n int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
