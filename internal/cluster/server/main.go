// Command server runs services of the Temporal server, built from the
// server module and version in go.mod (the same code the embedded server
// runs), and the server's own SQL schema tool. The cluster test and bench
// build it once and start one process per service (docs/design.md §14):
//
//	server start --config cluster.yaml --service history
//	server sql-tool --plugin postgres12 --ep 127.0.0.1 -p 5432 -u temporal --db temporal setup-schema -v 0.0
//
// start runs until SIGINT or SIGTERM; sql-tool takes the arguments of
// temporal-sql-tool.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
	_ "go.temporal.io/server/common/persistence/sql/sqlplugin/postgresql" // the postgres12 plugin
	"go.temporal.io/server/temporal"
	"go.temporal.io/server/tools/sql"
)

const usage = `usage:
  server start --config FILE --service NAME [--service NAME...]
  server sql-tool ARGS...   (the arguments of temporal-sql-tool)`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "start":
		err = start(os.Args[2:])
	case "sql-tool":
		err = sql.RunTool(append([]string{"temporal-sql-tool"}, os.Args[2:]...))
	default:
		err = fmt.Errorf("unknown command %q\n%s", os.Args[1], usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// services collects repeated --service flags.
type services []string

func (s *services) String() string     { return strings.Join(*s, ",") }
func (s *services) Set(v string) error { *s = append(*s, v); return nil }

// start runs the named services from the config file until interrupted.
func start(args []string) error {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	file := fs.String("config", "", "the server's config file")
	var svcs services
	fs.Var(&svcs, "service", "a service to run: frontend, history, matching or worker (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *file == "" || len(svcs) == 0 {
		return errors.New("start needs --config and at least one --service\n" + usage)
	}
	cfg, err := config.Load(config.WithConfigFile(*file))
	if err != nil {
		return fmt.Errorf("load %s: %w", *file, err)
	}
	logger := log.NewZapLogger(log.BuildZapLogger(cfg.Log))
	logger.Info("starting Temporal services", tag.NewStringsTag("services", svcs))
	srv, err := temporal.NewServer(
		temporal.ForServices(svcs),
		temporal.WithConfig(cfg),
		temporal.WithLogger(logger),
		temporal.InterruptOn(temporal.InterruptCh()),
	)
	if err != nil {
		return fmt.Errorf("build the server: %w", err)
	}
	return srv.Start()
}
