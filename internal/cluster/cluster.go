package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"google.golang.org/protobuf/types/known/durationpb"
)

// quiet drops the SDK client's own log lines: a cluster coming up answers
// Unavailable for a while, which is expected.
var quiet = sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))

// Services are the Temporal server's services, one process each, in the
// order they start.
var Services = []string{"history", "matching", "frontend", "worker"}

// HistoryShards is the cluster's number of history shards; compose sets
// the same (NUM_HISTORY_SHARDS). It cannot change after the schema is set up.
const HistoryShards = 4

// Databases are the two databases of the cluster: the persistence store
// and the visibility store, with the server's embedded schema of each.
var Databases = []struct{ Name, Schema string }{
	{"temporal", "postgresql/v12/temporal"},
	{"temporal_visibility", "postgresql/v12/visibility"},
}

// SchemaCommands are the schema steps an operator runs with the server's
// SQL tool (temporal-sql-tool, in the admin-tools image) against a fresh
// PostgreSQL at endpoint:port, the password in SQL_PASSWORD: create each
// database, set up the versioning tables, bring the schema to the
// version of the server. Cluster.Start runs exactly these; compose's
// temporal-schema job runs them too.
func SchemaCommands(endpoint string, port int) []string {
	tool := fmt.Sprintf("temporal-sql-tool --plugin postgres12 --ep %s -p %d -u %s", endpoint, port, DBUser)
	var out []string
	for _, db := range Databases {
		out = append(out,
			fmt.Sprintf("%s --db %s create", tool, db.Name),
			fmt.Sprintf("%s --db %s setup-schema -v 0.0", tool, db.Name),
			fmt.Sprintf("%s --db %s update-schema --schema-name %s", tool, db.Name, db.Schema),
		)
	}
	return out
}

// BuildServer builds the server command (./internal/cluster/server: the
// Temporal server module of go.mod and its SQL tool) into dir. It takes
// minutes on a cold build cache: build once and share the binary.
func BuildServer(ctx context.Context, dir string) (string, error) {
	root, err := ModuleRoot(ctx)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "temporal-server")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./internal/cluster/server")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cluster: go build ./internal/cluster/server: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return bin, nil
}

// ModuleRoot is the directory of phoneflow's go.mod.
func ModuleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("cluster: `go env GOMOD`: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("cluster: not inside the phoneflow module: run from the repository")
	}
	return filepath.Dir(gomod), nil
}

// Options shape a cluster.
type Options struct {
	// Server is the binary BuildServer built.
	Server string
	// Postgres is the running database server.
	Postgres *Postgres
	// DynamicConfig is the server's dynamic config file; empty means the
	// one compose mounts, deploy/temporal-dynamicconfig.yaml.
	DynamicConfig string
	// Namespace is registered with the cluster (besides the server's own
	// temporal-system); empty means "default".
	Namespace string
	// Logger gets progress lines; nil discards them.
	Logger *slog.Logger
}

// Cluster is a Temporal server running as one process per service on
// loopback ports, on a PostgreSQL persistence and visibility store.
type Cluster struct {
	// FrontendAddr is host:port of the frontend, for clients and workers.
	FrontendAddr string
	// Namespace is the namespace Start registered.
	Namespace string

	dir   string
	procs map[string]*Service
	log   *slog.Logger
}

// Service is one running service process of a cluster.
func (c *Cluster) Service(name string) *Service { return c.procs[name] }

// Dir holds the config file and the services' logs.
func (c *Cluster) Dir() string { return c.dir }

// Start sets up the schemas, starts every service and registers the
// namespace (retention one day, as `temporal operator namespace create`
// gives). On error everything already started is stopped.
func Start(ctx context.Context, o Options) (_ *Cluster, err error) {
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.DynamicConfig == "" {
		root, err := ModuleRoot(ctx)
		if err != nil {
			return nil, err
		}
		o.DynamicConfig = filepath.Join(root, "deploy", "temporal-dynamicconfig.yaml")
	}
	dir, err := os.MkdirTemp("", "phoneflow-cluster-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, procs: map[string]*Service{}, Namespace: o.Namespace, log: log}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()

	host, port, _ := net.SplitHostPort(o.Postgres.Addr())
	p, _ := strconv.Atoi(port)
	for _, line := range SchemaCommands(host, p) {
		args := append([]string{"sql-tool"}, strings.Fields(line)[1:]...)
		cmd := exec.CommandContext(ctx, o.Server, args...)
		cmd.Env = append(os.Environ(), "SQL_PASSWORD="+DBPassword)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("cluster: schema step `%s`: %v: %s", line, err, strings.TrimSpace(string(out)))
		}
		log.Info("schema step done", "step", line)
	}

	ports, err := freePorts(2*len(Services) + 1)
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "temporal.yaml")
	front, yaml := serverConfig(o.Postgres.Addr(), o.DynamicConfig, ports)
	if err := os.WriteFile(conf, []byte(yaml), 0o600); err != nil {
		return nil, err
	}
	c.FrontendAddr = front
	for i, name := range Services {
		s := newService(name, o.Server, conf, filepath.Join(dir, name+".log"))
		if err := s.Start(); err != nil {
			return nil, err
		}
		c.procs[name] = s
		if i == 0 {
			// Every service writes the cluster's metadata row at start
			// when the database has none, and a service that loses that
			// race exits (a duplicate key): the first one writes it
			// before the others start (docs/design.md §14).
			if err := waitListening(ctx, s, ports[0], 2*time.Minute); err != nil {
				return nil, err
			}
		}
	}
	if err := c.WaitHealthy(ctx, 3*time.Minute); err != nil {
		return nil, err
	}
	if err := c.registerNamespace(ctx); err != nil {
		return nil, err
	}
	log.Info("Temporal cluster up", "frontend", front, "dir", dir)
	return c, nil
}

// waitListening waits up to d until s accepts connections on its gRPC
// port (past its start-up, which writes the cluster's metadata).
func waitListening(ctx context.Context, s *Service, port int, d time.Duration) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for end := time.Now().Add(d); ; {
		if s.Exited() {
			return fmt.Errorf("cluster: the %s service exited; the end of its log:\n%s", s.Name, s.Tail(5))
		}
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return conn.Close()
		}
		if time.Now().After(end) {
			return fmt.Errorf("cluster: the %s service does not listen on %s after %s (log: %s)", s.Name, addr, d, s.LogFile())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// WaitHealthy waits until the frontend answers and reaches the history
// service (a namespace listing answers, and a lookup of a workflow that
// does not exist says not found), for up to d.
func (c *Cluster) WaitHealthy(ctx context.Context, d time.Duration) error {
	deadline := time.Now().Add(d)
	var last error
	for time.Now().Before(deadline) {
		for _, s := range c.procs {
			if s.Exited() {
				return fmt.Errorf("cluster: the %s service exited; the end of its log:\n%s", s.Name, s.Tail(5))
			}
		}
		last = c.ping(ctx)
		if last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return fmt.Errorf("cluster: not healthy after %s: %w (logs in %s)", d, last, c.dir)
}

func (c *Cluster) ping(ctx context.Context) error {
	cl, err := client.DialContext(ctx, client.Options{HostPort: c.FrontendAddr, Namespace: "temporal-system",
		Logger: quiet})
	if err != nil {
		return err
	}
	defer cl.Close()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := cl.WorkflowService().ListNamespaces(pctx, &workflowservice.ListNamespacesRequest{PageSize: 1}); err != nil {
		return err
	}
	// A workflow that does not exist: NotFound is the history service's
	// answer, anything else means it is not there yet.
	_, err = cl.DescribeWorkflowExecution(pctx, "phoneflow-cluster-ping", "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return nil
	}
	if err == nil {
		return nil
	}
	return fmt.Errorf("history service: %w", err)
}

// registerNamespace registers c.Namespace (already registered is fine) and
// waits until the frontend serves it.
func (c *Cluster) registerNamespace(ctx context.Context) error {
	nc, err := client.NewNamespaceClient(client.Options{HostPort: c.FrontendAddr, Logger: quiet})
	if err != nil {
		return err
	}
	defer nc.Close()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := nc.Register(rctx, &workflowservice.RegisterNamespaceRequest{
			Namespace: c.Namespace, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour)})
		cancel()
		var exists *serviceerror.NamespaceAlreadyExists
		if err == nil || errors.As(err, &exists) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster: register namespace %s: %w", c.Namespace, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	cl, err := client.DialContext(ctx, client.Options{HostPort: c.FrontendAddr, Namespace: c.Namespace, Logger: quiet})
	if err != nil {
		return err
	}
	defer cl.Close()
	for {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := cl.ListWorkflow(rctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: c.Namespace, PageSize: 1})
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster: namespace %s is not served: %w", c.Namespace, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// Stop stops every service and removes the cluster's directory (the
// database is the caller's). Safe to call more than once.
func (c *Cluster) Stop() {
	for i := len(Services) - 1; i >= 0; i-- {
		if s := c.procs[Services[i]]; s != nil {
			_ = s.Stop()
		}
	}
	if c.dir != "" && os.Getenv("PHONEFLOW_KEEP_CLUSTER_LOGS") == "" {
		_ = os.RemoveAll(c.dir)
	}
}

// freePorts returns n distinct free loopback ports below 32768. The
// server's SQL schema keeps a membership port in a smallint column, so a
// port from the kernel's ephemeral range (32768 and up) makes a service
// exit at start ("value … is out of range for type smallint"); ports
// there are also never handed out as "any free port", so they are not
// taken by another process between this check and the service's bind.
func freePorts(n int) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for tries := 0; len(out) < n; tries++ {
		if tries > 1000 {
			return nil, errors.New("cluster: no free loopback ports between 20000 and 32767")
		}
		p := 20000 + rand.IntN(32768-20000)
		if seen[p] {
			continue
		}
		seen[p] = true
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		_ = ln.Close()
		out = append(out, p)
	}
	return out, nil
}

// serverConfig is the server's static config: every service on loopback
// with a gRPC and a membership port (ports, in Services order, then the
// frontend's HTTP port), both stores on the PostgreSQL at pgAddr. It
// returns the frontend's address and the YAML.
func serverConfig(pgAddr, dynamicConfig string, ports []int) (string, string) {
	var b strings.Builder
	front := ""
	fmt.Fprintf(&b, `log:
  stdout: true
  level: warn
persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: %d
  datastores:
`, HistoryShards)
	for _, ds := range []struct {
		name, db string
		conns    int
	}{{"postgres-default", Databases[0].Name, 20}, {"postgres-visibility", Databases[1].Name, 10}} {
		fmt.Fprintf(&b, `    %s:
      sql:
        pluginName: postgres12
        databaseName: %s
        connectAddr: %q
        connectProtocol: tcp
        user: %s
        password: %s
        maxConns: %d
        maxIdleConns: %d
        maxConnLifetime: 1h
`, ds.name, ds.db, pgAddr, DBUser, DBPassword, ds.conns, ds.conns)
	}
	b.WriteString(`global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
services:
`)
	for i, name := range Services {
		fmt.Fprintf(&b, `  %s:
    rpc:
      grpcPort: %d
      membershipPort: %d
      bindOnIP: 127.0.0.1
`, name, ports[2*i], ports[2*i+1])
		if name == "frontend" {
			fmt.Fprintf(&b, "      httpPort: %d\n", ports[2*len(Services)])
			front = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[2*i]))
		}
	}
	fmt.Fprintf(&b, `clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: %q
dcRedirectionPolicy:
  policy: noop
publicClient:
  hostPort: %q
dynamicConfigClient:
  filepath: %q
  pollInterval: 10s
`, front, front, dynamicConfig)
	return front, b.String()
}
