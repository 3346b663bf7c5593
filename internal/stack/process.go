package stack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/childproc"
)

// BuildWorker builds the worker command (./worker of the module that holds
// the working directory) into dir and returns the binary's path.
func BuildWorker(ctx context.Context, dir string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("stack: `go env GOMOD`: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("stack: not inside the phoneflow module: run the drills from the repository")
	}
	bin := filepath.Join(dir, "worker")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./worker")
	cmd.Dir = filepath.Dir(gomod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("stack: go build ./worker: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return bin, nil
}

// WriteConfig writes the worker-relevant keys of cfg as a phoneflow.yaml
// file at path, for `worker --config path`.
func WriteConfig(path string, cfg config.Config) error {
	q := strconv.Quote
	var allow []string
	for _, s := range cfg.ADB.Allow {
		allow = append(allow, q(s))
	}
	labels := ""
	if len(cfg.ADB.Labels) > 0 {
		// Only when set, as routines_store below.
		var l []string
		for _, s := range cfg.ADB.Labels {
			l = append(l, q(s))
		}
		labels = "  labels: [" + strings.Join(l, ", ") + "]\n"
	}
	y := fmt.Sprintf(`temporal:
  address: %s
  namespace: %s
adb:
  address: %s
  allow: [%s]
%splanner:
  base_url: %s
  model: %s
executor:
  base_url: %s
  model: %s
data_dir: %s
prompt_memory_path: %s
metrics:
  address: ""
log:
  level: info
`, q(cfg.Temporal.Address), q(cfg.Temporal.Namespace), q(cfg.ADB.Address), strings.Join(allow, ", "), labels,
		q(cfg.Planner.BaseURL), q(cfg.Planner.Model), q(cfg.Executor.BaseURL), q(cfg.Executor.Model),
		q(cfg.DataDir), q(cfg.PromptMemoryPath))
	if cfg.RoutinesStore != "" {
		// Only when set: the deploy drill gives this file to the previous
		// release's worker, whose config refuses keys it does not know.
		y += "routines_store: " + q(cfg.RoutinesStore) + "\n"
	}
	return os.WriteFile(path, []byte(y), 0o600)
}

// Process is a worker running as a child process, so a test or drill can kill it
// with SIGKILL and start it again.
type Process struct {
	bin, configFile string
	proc            *childproc.Proc

	mu  sync.Mutex
	env []string
}

// workerEnv is environ without its PHONEFLOW_ variables. The worker's
// configuration is its file; the test runner's switches (PHONEFLOW_REQUIRE_ADB
// and the like) and a developer's own settings must not reach it, least of
// all a worker built from an earlier release, which refuses PHONEFLOW_ names
// it does not know (docs/configuration.md). SetEnv adds what a run needs.
func workerEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "PHONEFLOW_") {
			out = append(out, kv)
		}
	}
	return out
}

// SetEnv sets extra environment variables ("NAME=value") for the next
// starts of the worker; SetEnv() clears them.
func (p *Process) SetEnv(env ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.env = append([]string(nil), env...)
}

// NewProcess prepares a worker process for the stack's configuration; its
// config file and log go into dir.
func NewProcess(bin, dir string, cfg config.Config) (*Process, error) {
	p := &Process{bin: bin, configFile: filepath.Join(dir, "worker.yaml"),
		proc: childproc.New("stack", "worker", "the worker", filepath.Join(dir, "worker.log"))}
	if err := WriteConfig(p.configFile, cfg); err != nil {
		return nil, err
	}
	return p, nil
}

// LogFile is where every run of the worker appends its log.
func (p *Process) LogFile() string { return p.proc.LogFile() }

// Start starts the worker; it must not be running.
func (p *Process) Start() error {
	p.mu.Lock()
	env := p.env
	p.mu.Unlock()
	cmd := exec.Command(p.bin, "--config", p.configFile)
	cmd.Env = append(workerEnv(os.Environ()), env...)
	return p.proc.Start(cmd, " "+strings.Join(env, " "))
}

// Pid is the process ID of the running worker, or 0.
func (p *Process) Pid() int { return p.proc.Pid() }

// Kill sends SIGKILL and waits for the process to be gone.
func (p *Process) Kill() error { return p.proc.Kill() }

// Stop sends SIGTERM (a graceful stop) and waits; safe when not running.
func (p *Process) Stop() error { return p.proc.Stop() }

// Exited reports whether the running worker has exited on its own.
func (p *Process) Exited() bool { return p.proc.Exited() }
