package cluster

import (
	"os"
	"os/exec"
	"strings"

	"github.com/phoneflow/phoneflow/internal/childproc"
)

// Service is one Temporal service running as a child process, so a test
// can kill it with SIGKILL or stop it and start it again on the same ports.
type Service struct {
	// Name is frontend, history, matching or worker.
	Name string

	bin, conf string
	proc      *childproc.Proc
}

// newService prepares a service whose runs append their log to logFile.
func newService(name, bin, conf, logFile string) *Service {
	return &Service{Name: name, bin: bin, conf: conf, proc: childproc.New("cluster", name, "the "+name+" service", logFile)}
}

// LogFile is where every run of the service appends its log.
func (s *Service) LogFile() string { return s.proc.LogFile() }

// Start starts the service; it must not be running.
func (s *Service) Start() error {
	return s.proc.Start(exec.Command(s.bin, "start", "--config", s.conf, "--service", s.Name), "")
}

// Kill sends SIGKILL and waits for the process to be gone.
func (s *Service) Kill() error { return s.proc.Kill() }

// Stop sends SIGTERM (a graceful stop) and waits; safe when not running.
func (s *Service) Stop() error { return s.proc.Stop() }

// Exited reports whether the running service has exited on its own.
func (s *Service) Exited() bool { return s.proc.Exited() }

// Tail is the end of the service's log, for a failure message.
func (s *Service) Tail(n int) string { return tail(s.proc.LogFile(), n) }

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
