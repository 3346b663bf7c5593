package campaign

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"time"

	"github.com/phoneflow/phoneflow/internal/cluster"
)

// server is the Temporal server the campaign's goals run on and its
// faults hit: the embedded server as one process on SQLite, or the
// cluster on PostgreSQL (-campaign.cluster).
type server interface {
	Addr() string
	// killRestart is the Temporal kill: SIGKILL, a pause, started again.
	killRestart(ctx context.Context, rng *rand.Rand) error
	// revive starts again what exited by itself and returns the end of
	// its log ("" when everything runs).
	revive(ctx context.Context) (string, error)
	stop()
}

func (t *temporalProc) killRestart(ctx context.Context, rng *rand.Rand) error {
	if err := t.kill9(); err != nil {
		return err
	}
	time.Sleep(time.Duration(500+rng.Intn(2500)) * time.Millisecond)
	return t.start(ctx)
}

// clusterServer is the Temporal cluster of internal/cluster: one process
// per service on a private PostgreSQL (docs/design.md §14).
type clusterServer struct {
	pg *cluster.Postgres
	cl *cluster.Cluster
	// restarts counts the database's restarts by how: "fast" (pg_ctl
	// restart -m fast) or "crash" (pg_ctl stop -m immediate, then start).
	restarts map[string]int
}

// startCluster starts PostgreSQL and the cluster on it, the server built
// into dir (minutes on a cold build cache).
func startCluster(ctx context.Context, dir, namespace string) (*clusterServer, error) {
	pgBin, err := cluster.FindPostgres()
	if err != nil {
		return nil, err
	}
	bin, err := cluster.BuildServer(ctx, dir)
	if err != nil {
		return nil, err
	}
	c := &clusterServer{restarts: map[string]int{}}
	if c.pg, err = cluster.StartPostgres(ctx, pgBin); err != nil {
		return nil, err
	}
	sctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	if c.cl, err = cluster.Start(sctx, cluster.Options{Server: bin, Postgres: c.pg, Namespace: namespace}); err != nil {
		c.pg.Stop()
		return nil, err
	}
	return c, nil
}

func (c *clusterServer) Addr() string { return c.cl.FrontendAddr }

// killRestart kills one service drawn by the seed with SIGKILL and starts
// it again, then waits until the cluster answers.
func (c *clusterServer) killRestart(ctx context.Context, rng *rand.Rand) error {
	s := c.cl.Service(cluster.Services[rng.Intn(len(cluster.Services))])
	if err := s.Kill(); err != nil {
		return fmt.Errorf("kill the %s service: %w", s.Name, err)
	}
	time.Sleep(time.Duration(500+rng.Intn(2500)) * time.Millisecond)
	if err := s.Start(); err != nil {
		return fmt.Errorf("start the %s service again: %w", s.Name, err)
	}
	return c.cl.WaitHealthy(ctx, 3*time.Minute)
}

// restartDB restarts the database mid-goal: one time in two a fast
// restart, else a crash (no checkpoint; recovery from the WAL) and a start
// after a pause. Then it waits until the cluster answers again.
func (c *clusterServer) restartDB(ctx context.Context, rng *rand.Rand) error {
	rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if rng.Intn(2) == 0 {
		c.restarts["fast"]++
		if err := c.pg.Restart(rctx); err != nil {
			return fmt.Errorf("pg_ctl restart -m fast: %w; its log ends:\n%s", err, c.pg.Tail(20))
		}
	} else {
		c.restarts["crash"]++
		if err := c.pg.Crash(rctx); err != nil {
			return fmt.Errorf("pg_ctl stop -m immediate: %w", err)
		}
		time.Sleep(time.Duration(500+rng.Intn(4500)) * time.Millisecond)
		if err := c.pg.Start(rctx); err != nil {
			return fmt.Errorf("start PostgreSQL after its crash: %w; its log ends:\n%s", err, c.pg.Tail(20))
		}
	}
	return c.cl.WaitHealthy(ctx, 3*time.Minute)
}

// revive starts again every service that exited by itself.
func (c *clusterServer) revive(ctx context.Context) (string, error) {
	var logs string
	for _, name := range cluster.Services {
		s := c.cl.Service(name)
		if !s.Exited() {
			continue
		}
		logs += fmt.Sprintf("the %s service:\n%s\n", name, s.Tail(20))
		_ = s.Kill() // reaps it
		if err := s.Start(); err != nil {
			return logs, err
		}
	}
	if logs != "" {
		if err := c.cl.WaitHealthy(ctx, 3*time.Minute); err != nil {
			return logs, err
		}
	}
	return logs, nil
}

// stop stops the cluster and the database; with PHONEFLOW_KEEP_CLUSTER_LOGS
// set the services' logs stay, and the database's log is copied beside them.
func (c *clusterServer) stop() {
	if os.Getenv("PHONEFLOW_KEEP_CLUSTER_LOGS") != "" {
		if b, err := os.ReadFile(c.pg.LogFile()); err == nil {
			_ = os.WriteFile(filepath.Join(c.cl.Dir(), "postgresql.log"), b, 0o644)
		}
	}
	c.cl.Stop()
	c.pg.Stop()
}
