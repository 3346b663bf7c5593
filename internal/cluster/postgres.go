package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNoPostgres means no PostgreSQL server binaries were found.
var ErrNoPostgres = errors.New("PostgreSQL is not installed (Debian/Ubuntu: `apt-get install postgresql`; " +
	"or set PHONEFLOW_POSTGRES_BIN to the directory holding initdb and pg_ctl)")

// PostgresMajor is the PostgreSQL major version the cluster test runs
// (Debian 12's postgresql package) and compose pins; the test fails when
// the installed one is another, so the two are updated together.
const PostgresMajor = 15

// The database role and password of the cluster's PostgreSQL, as in
// docker-compose.yml.
const (
	DBUser     = "temporal"
	DBPassword = "temporal"
)

// FindPostgres returns the directory of initdb and pg_ctl:
// PHONEFLOW_POSTGRES_BIN, else pg_ctl on PATH, else the newest of Debian's
// /usr/lib/postgresql/*/bin.
func FindPostgres() (string, error) {
	if d := os.Getenv("PHONEFLOW_POSTGRES_BIN"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err != nil {
			return "", fmt.Errorf("%w: PHONEFLOW_POSTGRES_BIN=%s has no pg_ctl", ErrNoPostgres, d)
		}
		return d, nil
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(dirs) == 0 {
		return "", ErrNoPostgres
	}
	major := func(p string) int {
		n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
		return n
	}
	slices.SortFunc(dirs, func(a, b string) int { return major(a) - major(b) })
	return filepath.Dir(dirs[len(dirs)-1]), nil
}

// Postgres is a private PostgreSQL server: its own data directory in a
// temporary directory, listening on a loopback port and a unix socket in
// that directory, run as an unprivileged user (postgres refuses root).
type Postgres struct {
	// Version is the server's version, e.g. "15.14".
	Version string
	// Port is the loopback TCP port.
	Port int

	bin, dir string
	cred     *syscall.Credential
}

// Addr is host:port of the server.
func (p *Postgres) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(p.Port)) }

// Dir is the temporary directory that holds the data and the server log.
func (p *Postgres) Dir() string { return p.dir }

// LogFile is the server's log.
func (p *Postgres) LogFile() string { return filepath.Join(p.dir, "postgresql.log") }

// Tail is the last n lines of the server's log.
func (p *Postgres) Tail(n int) string { return tail(p.LogFile(), n) }

// StartPostgres creates a database cluster with the DBUser role in a new
// temporary directory and starts it. bin is FindPostgres's answer.
func StartPostgres(ctx context.Context, bin string) (_ *Postgres, err error) {
	dir, err := os.MkdirTemp("", "phoneflow-pg-")
	if err != nil {
		return nil, err
	}
	p := &Postgres{bin: bin, dir: dir}
	defer func() {
		if err != nil {
			p.Stop()
		}
	}()
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root: run them as Debian's
		// postgres user, which owns the directory.
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, PostgreSQL needs an unprivileged user to run as, and there is no postgres user (%w): install Debian's postgresql package, which creates it", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		p.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	out, err := p.run(ctx, "postgres", "--version")
	if err != nil {
		return nil, err
	}
	if m := regexp.MustCompile(`\d+(\.\d+)+`).FindString(out); m != "" {
		p.Version = m
	}
	pw := filepath.Join(dir, "pwfile")
	if err := os.WriteFile(pw, []byte(DBPassword+"\n"), 0o600); err != nil {
		return nil, err
	}
	if p.cred != nil {
		_ = os.Chown(pw, int(p.cred.Uid), int(p.cred.Gid))
	}
	if _, err := p.run(ctx, "initdb", "-D", p.dataDir(), "-U", DBUser, "--pwfile", pw,
		"--auth", "scram-sha-256", "-E", "UTF8", "--locale", "C", "--no-sync"); err != nil {
		return nil, err
	}
	if err := p.start(ctx, true); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Postgres) dataDir() string { return filepath.Join(p.dir, "data") }

// start runs pg_ctl start on a free port (newPort) or on p.Port, retrying
// while that port is not free again.
func (p *Postgres) start(ctx context.Context, newPort bool) error {
	var last error
	for try := 0; try < 30; try++ {
		if newPort {
			// Below the kernel's ephemeral range, as the services' ports:
			// while the server is down after Crash, no outgoing
			// connection can be given its port (docs/design.md §14).
			ports, err := freePorts(1)
			if err != nil {
				return err
			}
			p.Port = ports[0]
		}
		opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories=%s", p.Port, p.dir)
		_, last = p.run(ctx, "pg_ctl", "start", "-w", "-t", "60", "-D", p.dataDir(), "-l", p.LogFile(), "-o", opts)
		if last == nil {
			return nil
		}
		if !newPort {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
	return fmt.Errorf("%w (server log: %s)", last, p.LogFile())
}

// Crash stops the server at once, as a power cut would (pg_ctl stop -m
// immediate: no checkpoint, recovery from the WAL on the next start).
func (p *Postgres) Crash(ctx context.Context) error {
	_, err := p.run(ctx, "pg_ctl", "stop", "-w", "-m", "immediate", "-D", p.dataDir())
	return err
}

// Start starts the server again on its port after Crash.
func (p *Postgres) Start(ctx context.Context) error { return p.start(ctx, false) }

// Stop stops the server and removes its directory. Safe to call more than
// once.
func (p *Postgres) Stop() {
	if p.dir == "" {
		return
	}
	if _, err := os.Stat(filepath.Join(p.dataDir(), "postmaster.pid")); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, _ = p.run(ctx, "pg_ctl", "stop", "-w", "-m", "fast", "-D", p.dataDir())
		cancel()
	}
	_ = os.RemoveAll(p.dir)
	p.dir = ""
}

// run runs one of the PostgreSQL programs as the server's user.
func (p *Postgres) run(ctx context.Context, prog string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(p.bin, prog), args...)
	cmd.Dir = p.dir
	if p.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: p.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("cluster: %s %s: %v: %s", prog, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// Restart stops the server with a fast shutdown (open connections are
// closed, running transactions rolled back, a checkpoint written) and
// starts it again on its port, as an operator's `pg_ctl restart -m fast`.
func (p *Postgres) Restart(ctx context.Context) error {
	if _, err := p.run(ctx, "pg_ctl", "stop", "-w", "-t", "60", "-m", "fast", "-D", p.dataDir()); err != nil {
		return err
	}
	return p.start(ctx, false)
}
