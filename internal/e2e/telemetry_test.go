package e2e

import (
	"context"
	"encoding/hex"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/metrics"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/internal/tracing"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestTelemetryTwoPhones runs two goals on two simulated phones at once,
// with traces exported to an OTLP receiver in this process, and reads
// /metrics as Prometheus would: the SDK's and phoneflow's metrics are
// there, both phones' task queues are in the SDK's series, and every series
// of a metric carries the same label keys. The first goal's trace links
// goal → todo → Step activity → model call and device action.
func TestTelemetryTwoPhones(t *testing.T) {
	logger := stacktest.Logger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	recv := startOTLPReceiver(t)
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = tracing.Shutdown(sctx)
	})
	base := config.Default()
	base.Telemetry.OTLPEndpoint = recv.addr
	s := stacktest.Start(ctx, t, localstack.Options{Config: &base, Phones: 2, ADB: localstack.BuiltinADB, Logger: logger})

	goals := []string{"Turn on Bluetooth", "Turn on Wi-Fi"}
	ids := make([]string, len(goals))
	for i, goal := range goals {
		var err error
		ids[i], _, err = s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: s.Serials[i]})
		if err != nil {
			t.Fatalf("start %q: %v", goal, err)
		}
	}
	for i, id := range ids {
		rctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		res, err := s.Goals.Result(rctx, id)
		cancel()
		if err != nil {
			t.Fatalf("goal %s: %v", id, err)
		}
		if res.Status != workflows.GoalDone {
			t.Errorf("goal %q ended %s: %s", goals[i], res.Status, res.Reason)
		}
	}

	// What `curl /metrics` shows, from the handler the worker serves.
	mctx, mcancel := context.WithCancel(context.Background())
	defer mcancel()
	addr, err := metrics.Serve(mctx, "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := metrics.LabelKeys(body)
	if err != nil {
		t.Fatal(err)
	}
	for name, sets := range keys {
		if len(sets) != 1 {
			t.Errorf("%s has series with different label keys: %q", name, sets)
		}
	}
	for _, name := range []string{
		"temporal_request_total", "temporal_request_latency_seconds", "temporal_long_request_total",
		"temporal_workflow_completed_total", "temporal_workflow_endtoend_latency_seconds",
		"temporal_activity_execution_latency_seconds", "temporal_worker_task_slots_available",
		"phoneflow_steps_total", "phoneflow_model_latency_seconds", "phoneflow_model_tokens_total",
		"phoneflow_device_action_seconds", "phoneflow_devices_served",
	} {
		if keys[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	text := string(body)
	for _, serial := range s.Serials {
		q := `task_queue="` + workflows.DeviceTaskQueue(serial) + `"`
		if !strings.Contains(text, `temporal_activity_execution_latency_seconds_count{activity_type="Step"`) || !strings.Contains(text, q) {
			t.Errorf("/metrics has no Step activity series on %s", q)
		}
	}
	for _, want := range []string{`phoneflow_steps_total{kind="think"}`, `phoneflow_steps_total{kind="act"}`, `phoneflow_steps_total{kind="plan"}`,
		`phoneflow_model_tokens_total{direction="prompt",role="executor"}`, `phoneflow_device_action_seconds_count{action="tap",result="ok"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if d := metrics.DroppedSDKLabels(metrics.SDKHandler()); len(d) > 0 {
		t.Errorf("the SDK tagged metrics with labels the fixed sets leave out: %q", d)
	}

	checkGoalTrace(t, recv, ids[0])
}

// checkGoalTrace waits for the goal's spans to reach the receiver and checks
// their links: the goal's workflow span is an ancestor of a todo's, which is
// an ancestor of a Step activity's, which is the parent of a model call and
// of a device action.
func checkGoalTrace(t *testing.T, recv *otlpReceiver, goalID string) {
	t.Helper()
	var goal, todo, step, model, device *span
	var spans map[string]*span
	deadline := time.Now().Add(time.Minute)
	for {
		fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := tracing.Flush(fctx); err != nil {
			t.Logf("flush: %v", err)
		}
		cancel()
		spans = recv.spans()
		goal, todo, step, model, device = findGoalSpans(spans, goalID)
		if device != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if goal == nil || todo == nil || step == nil || model == nil || device == nil {
		names := map[string]int{}
		for _, sp := range spans {
			names[sp.name]++
		}
		t.Fatalf("goal %s: spans goal=%v todo=%v step=%v model=%v device=%v; received %v", goalID,
			goal != nil, todo != nil, step != nil, model != nil, device != nil, names)
	}
	for _, sp := range []*span{todo, step, model, device} {
		if sp.trace != goal.trace {
			t.Errorf("span %s is in trace %s, the goal's is %s", sp.name, sp.trace, goal.trace)
		}
	}
	names := map[string]int{}
	for _, sp := range spans {
		if sp.trace == goal.trace {
			names[sp.name]++
		}
	}
	t.Logf("trace %s: %s → %s → %s → %s, %s; spans in it: %v", goal.trace, goal.name, todo.name, step.name, model.name, device.name, names)
}

// findGoalSpans picks, among the received spans, the goal's workflow span,
// one of its todos' workflow spans below it, a Step activity span below
// that, and a model-call and a device-action span whose parent is such a
// Step span.
func findGoalSpans(spans map[string]*span, goalID string) (goal, todo, step, model, device *span) {
	below := func(sp, anc *span) bool {
		for p := spans[sp.parent]; p != nil; p = spans[p.parent] {
			if p == anc {
				return true
			}
		}
		return false
	}
	for _, sp := range spans {
		if sp.name == "RunWorkflow:GoalWorkflow" && sp.attrs["temporalWorkflowID"] == goalID {
			goal = sp
		}
	}
	if goal == nil {
		return
	}
	steps := map[*span]bool{}
	for _, sp := range spans {
		if sp.name == "RunWorkflow:TodoWorkflow" && strings.HasPrefix(sp.attrs["temporalWorkflowID"], goalID+"/todo-") && below(sp, goal) {
			todo = sp
		}
	}
	if todo == nil {
		return
	}
	for _, sp := range spans {
		if sp.name == "RunActivity:Step" && below(sp, todo) {
			steps[sp] = true
			step = sp
		}
	}
	for _, sp := range spans {
		if p := spans[sp.parent]; p != nil && steps[p] {
			switch {
			case sp.name == "ModelCall:executor":
				model = sp
			case strings.HasPrefix(sp.name, "DeviceAction:") && sp.attrs["phoneflow.device.action"] == "tap":
				device = sp
			}
		}
	}
	return
}

// span is what the receiver keeps of an exported span.
type span struct {
	trace, id, parent, name string
	attrs                   map[string]string
}

// otlpReceiver is an OTLP/gRPC trace collector on loopback.
type otlpReceiver struct {
	collectortrace.UnimplementedTraceServiceServer
	addr string
	mu   sync.Mutex
	got  map[string]*span
}

func startOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{addr: ln.Addr().String(), got: map[string]*span{}}
	srv := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(srv, r)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	return r
}

func (r *otlpReceiver) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				s := &span{trace: hex.EncodeToString(sp.GetTraceId()), id: hex.EncodeToString(sp.GetSpanId()),
					parent: hex.EncodeToString(sp.GetParentSpanId()), name: sp.GetName(), attrs: map[string]string{}}
				for _, kv := range sp.GetAttributes() {
					s.attrs[kv.GetKey()] = kv.GetValue().GetStringValue()
				}
				r.got[s.id] = s
			}
		}
	}
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

func (r *otlpReceiver) spans() map[string]*span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.got)
}
