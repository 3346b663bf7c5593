package outage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestModelOutage takes the model server down mid-goal (its port refuses
// connections) for modelOutageFor, then brings it back. While it is down
// the goal's status must say it waits for the model, at which URL and
// since when; once it is back the goal must end done with its message
// sent exactly once.
func TestModelOutage(t *testing.T) { modelOutage(t, "") }

// modelOutage is TestModelOutage on phones wearing skin ("": the drills'
// look, PHONEFLOW_DRILL_SKIN or the default).
func modelOutage(t *testing.T, skin phonesim.Skin) {
	s := drilltest.StartStack(t, drill.Options{Skin: skin}, variantDescription)
	stop, err := s.StartWorker(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	goal, text := drilltest.MessageGoal(1)
	id := drilltest.StartGoal(t, s, goal, s.Serials[0])
	if st, ok := drilltest.WaitStatus(s, id+"/todo-1", 2*time.Minute, func(st workflows.Status) bool { return st.Steps >= 2 }); !ok {
		t.Fatalf("goal %s never got two steps into its first todo; last status %+v", id, st)
	}
	s.StopModels()
	began := time.Now()
	var said workflows.Status
	var saidAfter time.Duration
	for time.Since(began) < modelOutageFor {
		qctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		st, err := s.Goals.Status(qctx, id)
		cancel()
		if err == nil && said.WaitingFor == "" && strings.Contains(st.WaitingFor, "model at http://") {
			said, saidAfter = st, time.Since(began)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err := s.StartModels(context.Background()); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	res := drilltest.WaitResult(t, s, id, 5*time.Minute)
	t.Logf("model server down %s; status said so after %s: phase %s, %q; goal ended %s %s after the model came back",
		modelOutageFor, saidAfter.Round(time.Second), said.Phase, said.WaitingFor, res.Status, time.Since(back).Round(time.Second))
	drilltest.CheckDone(t, id, res)
	drilltest.CheckOneMessage(t, s.Phones[0], text)
	if said.WaitingFor == "" {
		t.Errorf("while the model server was down (%s) the goal's status never said it waits for the model", modelOutageFor)
	} else if said.Phase != workflows.GoalWaitingModel || !strings.Contains(said.WaitingFor, " since ") || !strings.Contains(said.WaitingFor, "last error") {
		t.Errorf("status during the outage = phase %s, waiting for %q: want %s naming the model, its URL, since when and the last error",
			said.Phase, said.WaitingFor, workflows.GoalWaitingModel)
	}
	d, err := s.Goals.Describe(context.Background(), id)
	if err == nil {
		t.Logf("PhoneflowStatus at the end: %+v", d.Status)
	}
}
