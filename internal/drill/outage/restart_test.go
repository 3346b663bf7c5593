package outage

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestServerRestart stops the embedded server while a goal is in its first
// todo, starts it again on the same SQLite file and port, and checks the
// in-process worker reconnects and the goal completes with one message.
func TestServerRestart(t *testing.T) { serverRestart(t, "") }

// TestServerRestartOnEachLook is TestServerRestart on every look but the
// default one (docs/phones.md#skins), a subtest a look: the fast form in
// `go test`, the full one with -tags drills.
func TestServerRestartOnEachLook(t *testing.T) {
	for _, skin := range stacktest.OtherSkins(t) {
		t.Run(string(skin), func(t *testing.T) { serverRestart(t, skin) })
	}
}

// serverRestart is TestServerRestart on phones wearing skin ("": the
// drills' look, PHONEFLOW_DRILL_SKIN or the default).
func serverRestart(t *testing.T, skin phonesim.Skin) {
	s := drilltest.StartStack(t, drill.Options{Skin: skin}, variantDescription)
	ctx := context.Background()
	stop, err := s.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	goal, text := drilltest.MessageGoal(1)
	id := drilltest.StartGoal(t, s, goal, s.Serials[0])
	if st, ok := drilltest.WaitStatus(s, id+"/todo-1", 2*time.Minute, func(st workflows.Status) bool { return st.Steps >= 2 }); !ok {
		t.Fatalf("goal %s never reached its first step; last status %+v", id, st)
	}
	began := time.Now()
	s.StopServer()
	down := time.Now()
	time.Sleep(3 * time.Second) // let the worker see the server gone
	if err := s.RestartServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("server stopped in %s, down %s, restarted after %s", down.Sub(began).Round(time.Millisecond),
		time.Since(down).Round(time.Millisecond), time.Since(began).Round(time.Millisecond))

	res := drilltest.WaitResult(t, s, id, 4*time.Minute)
	t.Logf("goal completed %s after the restart: %d steps, %d todos", time.Since(began).Round(time.Second), res.Steps, len(res.Todos))
	drilltest.CheckDone(t, id, res)
	drilltest.CheckOneMessage(t, s.Phones[0], text)
}
