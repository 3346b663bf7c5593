package devserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	tlog "go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"

	"github.com/phoneflow/phoneflow/internal/loopback"
	"github.com/phoneflow/phoneflow/internal/searchattr"
)

// host is the only interface the embedded server listens on.
const host = "127.0.0.1"

// AnyPort as Options.Port lets Start pick a free frontend port (and, with
// UIPort 0, a free Web UI port): what tests and private stacks use.
const AnyPort = -1

// Options configures the embedded server.
type Options struct {
	// Port is the frontend gRPC port; 0 means 7233, AnyPort a free port.
	Port int
	// UIPort is the Web UI port; 0 means Port+1000 (a free port with
	// AnyPort), -1 means no Web UI.
	UIPort int
	// UIListener, when set, is where the Web UI serves instead of UIPort;
	// Start takes it over and closes it on Stop or on failure.
	UIListener net.Listener
	// DBFile is the SQLite file. An existing file is reused as is, so
	// workflows survive a restart; a missing one is created with the schema.
	// Empty means an in-memory store that is lost on Stop.
	DBFile string
	// Namespaces to create besides "default".
	Namespaces []string
	// CodecEndpoint is handed to the Web UI for decoding encrypted payloads.
	CodecEndpoint string
	// LogFile receives the server's own log lines; empty means
	// temporal-server.log next to DBFile, or no server log for an
	// in-memory store.
	LogFile string
	// LogLevel of the server's own log: debug, info, warn (default), error.
	LogLevel string
	// Logger gets phoneflow's messages about the server; nil means
	// slog.Default().
	Logger *slog.Logger
}

// SearchAttributes are the custom search attributes every namespace of the
// embedded server gets.
var SearchAttributes = searchattr.Attributes

// ErrPortInUse is wrapped by the error Start returns when the frontend or
// UI port is already taken.
var ErrPortInUse = errors.New("port in use")

// ErrLocked is wrapped by the error Start returns when another process
// already serves the same SQLite file.
var ErrLocked = errors.New("database in use")

// Server is a running embedded Temporal server with its Web UI.
type Server struct {
	frontend string
	uiURL    string
	srv      temporal.Server
	ui       *webUI
	lock     *os.File
	stopOnce sync.Once
}

// FrontendAddr is host:port of the frontend, for client.Dial.
func (s *Server) FrontendAddr() string { return s.frontend }

// UIURL is the base URL of the Web UI, or "" when the UI is off.
func (s *Server) UIURL() string { return s.uiURL }

// WorkflowURL is the Web UI page of a workflow, or "" when the UI is off.
func (s *Server) WorkflowURL(namespace, workflowID string) string {
	if s.uiURL == "" {
		return ""
	}
	return s.uiURL + "/namespaces/" + url.PathEscape(namespace) + "/workflows/" + url.PathEscape(workflowID)
}

// Stop stops the Web UI and the server and releases the SQLite file. It is
// safe to call more than once.
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		if s.ui != nil {
			s.ui.stop()
		}
		s.srv.Stop()
		if s.lock != nil {
			_ = syscall.Flock(int(s.lock.Fd()), syscall.LOCK_UN)
			_ = s.lock.Close()
		}
	})
}

// Start binds the ports, prepares the SQLite file, starts the server and
// the Web UI, and returns once the frontend answers and the namespaces have
// their search attributes. A taken port is an error wrapping ErrPortInUse,
// never a panic or an exit.
func Start(ctx context.Context, opts Options) (_ *Server, err error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	anyPort := opts.Port == AnyPort
	if opts.Port == 0 {
		opts.Port = 7233
	}
	if opts.LogLevel == "" {
		opts.LogLevel = "warn"
	}
	namespaces := []string{"default"}
	for _, ns := range opts.Namespaces {
		if ns != "" && !slices.Contains(namespaces, ns) {
			namespaces = append(namespaces, ns)
		}
	}

	// Every port is bound here before anything starts and held until the
	// server binds it (docs/design.md §14).
	uiLn := opts.UIListener
	var held reservations
	defer func() {
		if err != nil {
			held.release()
			if uiLn != nil {
				_ = uiLn.Close()
			}
		}
	}()
	frontendPort := opts.Port
	if anyPort {
		frontendPort = 0
	}
	front, err := reserve(frontendPort)
	if err != nil {
		return nil, portInUse(opts.Port, "--temporal-port", err)
	}
	held = append(held, front)
	opts.Port = front.port
	if uiLn == nil && opts.UIPort >= 0 {
		uiPort := opts.UIPort
		if uiPort == 0 && !anyPort {
			uiPort = opts.Port + 1000
		}
		uiLn, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(uiPort)))
		if err != nil {
			return nil, portInUse(uiPort, "--temporal-ui-port", err)
		}
	}
	internal, err := reserveFree(4)
	if err != nil {
		return nil, err
	}
	held = append(held, internal...)

	s := &Server{frontend: net.JoinHostPort(host, strconv.Itoa(opts.Port))}
	if opts.DBFile != "" {
		if err := os.MkdirAll(filepath.Dir(opts.DBFile), 0o755); err != nil {
			return nil, fmt.Errorf("create the directory of the Temporal database: %w", err)
		}
		lock, err := lockFile(opts.DBFile + ".lock")
		if err != nil {
			return nil, err
		}
		s.lock = lock
		if opts.LogFile == "" {
			opts.LogFile = filepath.Join(filepath.Dir(opts.DBFile), "temporal-server.log")
		}
	}
	fail := func(err error) (*Server, error) {
		if s.lock != nil {
			_ = s.lock.Close()
		}
		return nil, err
	}

	sqlConf, err := prepareStore(opts.DBFile, namespaces, log)
	if err != nil {
		return fail(err)
	}
	conf, hosts := serverConfig(opts.Port, internal.ports(), sqlConf)
	srv, err := startServer(held, conf, hosts, serverLogger(opts.LogFile, opts.LogLevel))
	if err != nil {
		return fail(err)
	}
	s.srv = srv

	if uiLn != nil {
		ui, err := startWebUI(uiLn, &uiconfig.Config{
			Host:                host,
			Port:                uiLn.Addr().(*net.TCPAddr).Port,
			TemporalGRPCAddress: s.frontend,
			EnableUI:            true,
			DefaultNamespace:    namespaces[len(namespaces)-1],
			Codec:               uiconfig.Codec{Endpoint: opts.CodecEndpoint},
			CORS:                uiconfig.CORS{CookieInsecure: true},
			HideLogs:            true,
			DisableNewsFetch:    true,
		}, func(err error) { log.Error("Temporal Web UI stopped", "error", err) })
		if err != nil {
			s.Stop()
			return nil, err
		}
		s.ui = ui
		s.uiURL = "http://" + uiLn.Addr().String()
		uiLn = nil // the Web UI owns it now
	}

	if err := s.ensureSearchAttributes(ctx, namespaces); err != nil {
		s.Stop()
		return nil, err
	}
	log.Info("embedded Temporal server started", "frontend", s.frontend, "ui", s.uiURL,
		"db", opts.DBFile, "server_log", opts.LogFile)
	return s, nil
}

// startServer releases the held ports and builds and starts the server,
// which binds them. The server library ends the process (Fatal) or panics
// when a bind fails; both become an error here.
func startServer(held reservations, conf *config.Config, hosts map[primitives.ServiceName]static.Hosts, logger tlog.Logger) (srv temporal.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the embedded Temporal server could not bind its ports %v: %v "+
				"(another process took one in the moment between phoneflow releasing it and the server binding it: "+
				"start again, or pick another --temporal-port)", ErrPortInUse, held.ports(), r)
		}
	}()
	held.release()
	srv, err = temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(fatalPanics{logger}),
		// Not system.forceSearchAttributesCacheRefreshOnRead: it read the
		// cluster metadata from the store each time a service looked at
		// search attributes, which every workflow task does, and gave
		// nothing here. phoneflow's search attributes are the SQL store's
		// per-namespace aliases, usable as soon as they are registered
		// (TestSearchAttributeRegisteredAtStartIsUsableAtOnce).
		temporal.WithDynamicConfigClient(dynamicconfig.StaticClient{
			dynamicconfig.FrontendEnableUpdateWorkflowExecution.Key(): true,
			// Worker heartbeats tell `starter devices` within seconds
			// that an idle phone's worker is gone (docs/design.md §5);
			// on by default in this server version, set so a change of
			// default cannot turn them off unnoticed.
			dynamicconfig.WorkerHeartbeatsEnabled.Key(): true,
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("build the embedded Temporal server: %w", err)
	}
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("start the embedded Temporal server: %w", err)
	}
	return srv, nil
}

// portInUse says what to do when port is taken.
func portInUse(port int, flag string, err error) error {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	return fmt.Errorf("%w: port %d is in use: %s (%v)", ErrPortInUse, port, loopback.InUseHint(addr, flag), err)
}

// fatalPanics turns the server library's Fatal (which would end the
// process) into a panic that startServer recovers as an error.
type fatalPanics struct{ tlog.Logger }

func (l fatalPanics) Fatal(msg string, tags ...tag.Tag) {
	l.Logger.Error(msg, tags...)
	for _, t := range tags {
		if e, ok := t.Value().(error); ok {
			msg += ": " + e.Error()
		}
	}
	panic(msg)
}

func (l fatalPanics) With(tags ...tag.Tag) tlog.Logger {
	return fatalPanics{tlog.With(l.Logger, tags...)}
}

func (l fatalPanics) Skip(extra int) tlog.Logger {
	if s, ok := l.Logger.(tlog.SkipLogger); ok {
		return fatalPanics{s.Skip(extra)}
	}
	return l
}

// lockFile takes an exclusive lock so two servers never share one SQLite file.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%w: another phoneflow process is serving the Temporal database next to %s — "+
			"stop it, connect to it with --temporal-address, or use another --data-dir", ErrLocked, path)
	}
	return f, nil
}

// prepareStore returns the SQLite persistence config, creating the schema
// in a new file and the namespaces (with their search attributes) when
// missing. An existing file keeps its schema and data.
func prepareStore(dbFile string, namespaces []string, log *slog.Logger) (*config.SQL, error) {
	conf := &config.SQL{PluginName: sqliteplugin.PluginName}
	if dbFile == "" {
		conf.ConnectAttributes = map[string]string{"mode": "memory", "cache": "shared"}
		conf.DatabaseName = "phoneflow-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	} else {
		conf.ConnectAttributes = map[string]string{"mode": "rwc", "journal_mode": "wal", "busy_timeout": "5000"}
		conf.DatabaseName = dbFile
	}
	// The plugin creates the schema of an in-memory store itself.
	fresh := false
	if dbFile != "" {
		st, err := os.Stat(dbFile)
		switch {
		case errors.Is(err, os.ErrNotExist):
			fresh = true
		case err != nil:
			return nil, fmt.Errorf("read the Temporal database %s: %w", dbFile, err)
		case st.Size() == 0:
			fresh = true
		}
	}
	if fresh {
		if err := sqliteschema.SetupSchema(conf); err != nil {
			return nil, fmt.Errorf("create the Temporal schema in %s: %w (delete the file to start over)", dbFile, err)
		}
		log.Debug("created Temporal schema", "db", dbFile)
	}
	var nsConfs []*sqliteschema.NamespaceConfig
	for _, ns := range namespaces {
		c, err := sqliteschema.NewNamespaceConfig("active", ns, false, SearchAttributes)
		if err != nil {
			return nil, fmt.Errorf("namespace %s: %w", ns, err)
		}
		nsConfs = append(nsConfs, c)
	}
	if err := sqliteschema.CreateNamespaces(conf, nsConfs...); err != nil {
		return nil, fmt.Errorf("create namespaces in %s: %w (a file from another Temporal version cannot be reused: delete it)", dbFile, err)
	}
	return conf, nil
}

// serverConfig builds the single-host server configuration: every service
// on loopback, the frontend on port, history, matching, worker and the
// frontend's HTTP API on ports[0..3].
func serverConfig(port int, ports []int, sqlConf *config.SQL) (*config.Config, map[primitives.ServiceName]static.Hosts) {
	httpPort := ports[3]
	svc := func(grpc int) config.Service {
		return config.Service{RPC: config.RPC{GRPCPort: grpc, BindOnIP: host}}
	}
	frontend := svc(port)
	frontend.RPC.HTTPPort = httpPort
	conf := &config.Config{}
	conf.Global.Membership.MaxJoinDuration = 30 * time.Second
	conf.Global.Membership.BroadcastAddress = host
	conf.Persistence.DefaultStore = "sqlite"
	conf.Persistence.VisibilityStore = "sqlite"
	conf.Persistence.NumHistoryShards = 1
	conf.Persistence.DataStores = map[string]config.DataStore{"sqlite": {SQL: sqlConf}}
	frontendAddr := net.JoinHostPort(host, strconv.Itoa(port))
	conf.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        "active",
		CurrentClusterName:       "active",
		ClusterInformation: map[string]cluster.ClusterInformation{
			"active": {
				Enabled:                true,
				InitialFailoverVersion: 1,
				RPCAddress:             frontendAddr,
				HTTPAddress:            net.JoinHostPort(host, strconv.Itoa(httpPort)),
				ClusterID:              "phoneflow-embedded",
			},
		},
	}
	conf.DCRedirectionPolicy.Policy = "noop"
	conf.Services = map[string]config.Service{
		string(primitives.FrontendService): frontend,
		string(primitives.HistoryService):  svc(ports[0]),
		string(primitives.MatchingService): svc(ports[1]),
		string(primitives.WorkerService):   svc(ports[2]),
	}
	conf.Archival.History.State = "disabled"
	conf.Archival.Visibility.State = "disabled"
	conf.NamespaceDefaults.Archival.History.State = "disabled"
	conf.NamespaceDefaults.Archival.Visibility.State = "disabled"
	conf.PublicClient.HostPort = frontendAddr

	hosts := map[primitives.ServiceName]static.Hosts{}
	for name, s := range conf.Services {
		hosts[primitives.ServiceName(name)] = static.SingleLocalHost(net.JoinHostPort(host, strconv.Itoa(s.RPC.GRPCPort)))
	}
	return conf, hosts
}

// serverLogger sends the server's log lines at level and above to file, or
// nowhere when file is empty.
func serverLogger(file, level string) tlog.Logger {
	if file == "" {
		return tlog.NewNoopLogger()
	}
	return tlog.NewZapLogger(tlog.BuildZapLogger(tlog.Config{Level: level, OutputFile: file, Format: "console"}))
}

// ensureSearchAttributes waits for the frontend and adds any of
// SearchAttributes a namespace lacks (a database created by an older
// phoneflow may not have them).
func (s *Server) ensureSearchAttributes(ctx context.Context, namespaces []string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{HostPort: s.frontend, Logger: quietSDKLogger{}})
	if err != nil {
		return fmt.Errorf("the embedded Temporal server did not answer on %s: %w", s.frontend, err)
	}
	defer c.Close()
	for _, ns := range namespaces {
		var resp *operatorservice.ListSearchAttributesResponse
		for {
			resp, err = c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
			if err == nil || ctx.Err() != nil {
				break
			}
			time.Sleep(100 * time.Millisecond) // the namespace cache fills shortly after start
		}
		if err != nil {
			return fmt.Errorf("list search attributes of namespace %s: %w", ns, err)
		}
		missing := map[string]enumspb.IndexedValueType{}
		for name, typ := range SearchAttributes {
			if _, ok := resp.GetCustomAttributes()[name]; !ok {
				missing[name] = typ
			}
		}
		if len(missing) == 0 {
			continue
		}
		if _, err := c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
			Namespace: ns, SearchAttributes: missing,
		}); err != nil {
			return fmt.Errorf("register search attributes in namespace %s: %w", ns, err)
		}
		// Registered in the store at once, served by the frontend from its
		// next namespace refresh: the server is not ready before then, or
		// the first goal's start would be refused for them.
		if err := searchattr.AwaitServed(ctx, c.WorkflowService(), ns, searchattr.AwaitOptions{For: time.Minute}); err != nil {
			return err
		}
	}
	return nil
}

// quietSDKLogger drops the SDK client's own log lines during start-up.
type quietSDKLogger struct{}

func (quietSDKLogger) Debug(string, ...any) {}
func (quietSDKLogger) Info(string, ...any)  {}
func (quietSDKLogger) Warn(string, ...any)  {}
func (quietSDKLogger) Error(string, ...any) {}
