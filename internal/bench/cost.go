package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/workflows"
)

// costLatencies are the model latencies the cost measurement runs at.
var costLatencies = []time.Duration{0, time.Second}

// cost runs the showcase goal and reports what the goal's result says it
// cost (docs/design.md §9): model calls and tokens per role, the time
// spent waiting for models, and the goal's wall time.
func (r *runner) cost(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasureCost],
		Note: fmt.Sprintf("The showcase goal (%q) in layered mode, phone reset before each run, at each model latency of the offline model server. "+
			"Calls, tokens and model time are the goal result's `usage`, summed by the workflows from what the model server reported over HTTP "+
			"(the offline server estimates tokens from text length and counts each image as a fixed number of tokens, so absolute token figures are "+
			"indicative only; no cached tokens are reported by it). Wall time is from start to result.", demo.Showcase),
		Header: []string{"model latency", "planner calls", "executor calls", "input tokens", "output tokens", "model time s", "wall time s"},
	}
	for _, lat := range costLatencies {
		env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1, Model: modelserver.Config{Latency: lat}})
		if err != nil {
			return []Table{t}, err
		}
		var pc, ec, in, out, model, wall Sample
		for range r.o.Runs {
			env.Phones[0].Reset()
			began := time.Now()
			res, err := r.runGoal(ctx, r.id("cost"), demo.Showcase, env.Serials[0], workflows.GoalOptions{AutoApprove: true})
			if err != nil {
				env.Stop()
				return []Table{t}, err
			}
			if res.Status != workflows.GoalDone {
				env.Stop()
				return []Table{t}, fmt.Errorf("the showcase goal ended %s at %s latency: %s", res.Status, lat, res.Reason)
			}
			u := res.Usage.Total()
			pc, ec = append(pc, float64(res.Usage.Planner.Calls)), append(ec, float64(res.Usage.Executor.Calls))
			in, out = append(in, float64(u.InputTokens)), append(out, float64(u.OutputTokens))
			model = append(model, float64(u.LatencyMS)/1000)
			wall = append(wall, time.Since(began).Seconds())
		}
		env.Stop()
		t.Rows = append(t.Rows, []string{lat.String(), pc.Summary(0), ec.Summary(0), in.Summary(0), out.Summary(0), model.Summary(1), wall.Summary(1)})
		r.o.Progress(fmt.Sprintf("cost at %s model latency", lat))
	}
	t.Findings = append(t.Findings, "Every model call of a goal is counted in its result; `starter status`, `schedule describe` and `demo --json` show the same figures.")
	return []Table{t}, nil
}
