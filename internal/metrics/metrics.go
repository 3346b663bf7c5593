package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// Registry holds every metric phoneflow exports: the OpenTelemetry meter
// provider's instruments (the Temporal SDK's and phoneflow's), and Go
// runtime and process metrics.
var Registry = prometheus.NewRegistry()

// Provider is the meter provider behind every metric of this package and
// of the Temporal SDK (SDKHandler); its reader is the Prometheus exporter
// registered in Registry.
var Provider = newProvider(Registry)

// Bucket bounds, in seconds.
var (
	modelBuckets  = []float64{.05, .1, .25, .5, 1, 2, 4, 8, 16, 32, 64}
	deviceBuckets = []float64{.01, .025, .05, .1, .25, .5, 1, 2, 4, 8}
	sdkBuckets    = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}
)

// phoneflow's instruments. Each is recorded only through the functions
// below, which always pass the same attribute keys (docs/design.md §11).
var (
	steps          metric.Int64Counter
	stepsReplayed  metric.Int64Counter
	modelLatency   metric.Float64Histogram
	modelTokens    metric.Int64Counter
	formatRequests metric.Int64Counter
	formatTokens   metric.Int64Counter
	formatLatency  metric.Float64Histogram
	modelErrors    metric.Int64Counter
	deviceAction   metric.Float64Histogram
	blobsRemoved   metric.Int64Counter
	blobsFreed     metric.Int64Counter
	blobsKept      metric.Int64Gauge
	devices        metric.Int64Gauge
)

// newProvider builds a meter provider whose instruments reg exports.
func newProvider(reg prometheus.Registerer) *sdkmetric.MeterProvider {
	exp, err := otelprom.New(
		otelprom.WithRegisterer(reg),
		// Names and labels stay what they were before OpenTelemetry:
		// no otel_scope_* labels, no target_info series.
		otelprom.WithoutScopeInfo(),
		otelprom.WithoutTargetInfo(),
	)
	if err != nil {
		panic("metrics: the Prometheus exporter: " + err.Error())
	}
	return sdkmetric.NewMeterProvider(
		sdkmetric.WithReader(exp),
		// The SDK's timers are histograms in seconds; OpenTelemetry's
		// default bounds are made for milliseconds.
		sdkmetric.WithView(sdkmetric.NewView(
			sdkmetric.Instrument{Name: "temporal_*", Kind: sdkmetric.InstrumentKindHistogram},
			sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: sdkBuckets}},
		)),
	)
}

func init() {
	Registry.MustRegister(
		// The collectors subpackage would pull modules go.mod does not
		// have; these constructors build the same collectors.
		prometheus.NewGoCollector(),                                       //nolint:staticcheck
		prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}), //nolint:staticcheck
	)
	m := Provider.Meter("phoneflow")
	var err error
	must := func(err error) {
		if err != nil {
			panic("metrics: " + err.Error())
		}
	}
	steps, err = m.Int64Counter("phoneflow_steps_total",
		metric.WithDescription("Budgeted steps taken by goals, by kind (think, act, replan)."))
	must(err)
	stepsReplayed, err = m.Int64Counter("phoneflow_steps_replayed_total",
		metric.WithDescription("Retried device actions found already applied and not sent again, by action."))
	must(err)
	modelLatency, err = m.Float64Histogram("phoneflow_model_latency_seconds", metric.WithUnit("s"),
		metric.WithDescription("Model request latency by role (planner, executor) and phase (ttft, think_end, total)."),
		metric.WithExplicitBucketBoundaries(modelBuckets...))
	must(err)
	modelTokens, err = m.Int64Counter("phoneflow_model_tokens_total",
		metric.WithDescription("Tokens used by role (planner, executor) and direction (prompt, completion)."))
	must(err)
	formatRequests, err = m.Int64Counter("phoneflow_model_format_requests_total",
		metric.WithDescription("JSON model requests by role and the response format they were answered in (json_schema, json_object, plain)."))
	must(err)
	formatTokens, err = m.Int64Counter("phoneflow_model_format_tokens_total",
		metric.WithDescription("Tokens of JSON model requests by role, response format and direction (prompt, completion)."))
	must(err)
	formatLatency, err = m.Float64Histogram("phoneflow_model_format_latency_seconds", metric.WithUnit("s"),
		metric.WithDescription("Total latency of JSON model requests by role and response format."),
		metric.WithExplicitBucketBoundaries(modelBuckets...))
	must(err)
	modelErrors, err = m.Int64Counter("phoneflow_model_errors_total",
		metric.WithDescription("Failed model requests by role and whether they will be retried."))
	must(err)
	deviceAction, err = m.Float64Histogram("phoneflow_device_action_seconds", metric.WithUnit("s"),
		metric.WithDescription("Device action latency, settle wait included, by action and result (ok, error)."),
		metric.WithExplicitBucketBoundaries(deviceBuckets...))
	must(err)
	blobsRemoved, err = m.Int64Counter("phoneflow_blobs_removed_total",
		metric.WithDescription("Blobs removed by retention passes."))
	must(err)
	blobsFreed, err = m.Int64Counter("phoneflow_blobs_freed_bytes_total",
		metric.WithDescription("Bytes freed in the blob store by retention passes."))
	must(err)
	blobsKept, err = m.Int64Gauge("phoneflow_blobs_kept_bytes",
		metric.WithDescription("Bytes left in the blob store after the last retention pass."))
	must(err)
	devices, err = m.Int64Gauge("phoneflow_devices_served",
		metric.WithDescription("Phones this worker serves on their own task queues."))
	must(err)
}

var bg = context.Background()

func attrs(kv ...attribute.KeyValue) metric.MeasurementOption {
	return metric.WithAttributeSet(attribute.NewSet(kv...))
}

// Step counts one budgeted step of kind "think", "act" or "replan".
func Step(kind string) { steps.Add(bg, 1, attrs(attribute.String("kind", kind))) }

// StepReplayed counts a retried device action whose first attempt had
// already reached the phone, so it was not sent again.
func StepReplayed(action string) {
	stepsReplayed.Add(bg, 1, attrs(attribute.String("action", action)))
}

// ModelLatency records one latency of a model request; phase is "ttft",
// "think_end" or "total". Zero durations (unknown phases) are skipped.
func ModelLatency(role, phase string, d time.Duration) {
	if d > 0 {
		modelLatency.Record(bg, d.Seconds(), attrs(attribute.String("role", role), attribute.String("phase", phase)))
	}
}

// Tokens counts the prompt and completion tokens of one model request.
func Tokens(role string, prompt, completion int) {
	if prompt > 0 {
		modelTokens.Add(bg, int64(prompt), attrs(attribute.String("role", role), attribute.String("direction", "prompt")))
	}
	if completion > 0 {
		modelTokens.Add(bg, int64(completion), attrs(attribute.String("role", role), attribute.String("direction", "completion")))
	}
}

// FormatUsage records one JSON request by the response format it was
// answered in: its total latency and tokens.
func FormatUsage(role, format string, total time.Duration, prompt, completion int) {
	r, f := attribute.String("role", role), attribute.String("format", format)
	formatRequests.Add(bg, 1, attrs(r, f))
	if total > 0 {
		formatLatency.Record(bg, total.Seconds(), attrs(r, f))
	}
	if prompt > 0 {
		formatTokens.Add(bg, int64(prompt), attrs(r, f, attribute.String("direction", "prompt")))
	}
	if completion > 0 {
		formatTokens.Add(bg, int64(completion), attrs(r, f, attribute.String("direction", "completion")))
	}
}

// ModelError counts a failed model request.
func ModelError(role string, retryable bool) {
	modelErrors.Add(bg, 1, attrs(attribute.String("role", role), attribute.String("retryable", strconv.FormatBool(retryable))))
}

// DeviceAction records how long a device action took and whether it failed.
func DeviceAction(action string, d time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	deviceAction.Record(bg, d.Seconds(), attrs(attribute.String("action", action), attribute.String("result", result)))
}

// BlobsCollected records one retention pass: blobs and bytes removed,
// bytes left.
func BlobsCollected(removed int, freed, kept int64) {
	blobsRemoved.Add(bg, int64(removed))
	blobsFreed.Add(bg, freed)
	blobsKept.Record(bg, kept)
}

// DevicesServed sets how many phones this worker serves.
func DevicesServed(n int) { devices.Record(bg, int64(n)) }

// Handler serves Registry in the Prometheus text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{Registry: Registry})
}

// Serve listens on addr and serves /metrics until ctx ends, and under
// other paths what mount adds (the worker's step viewer); mount may be nil.
// It returns once listening, with the bound address (useful with port 0),
// or an error that says how to fix a taken port.
func Serve(ctx context.Context, addr string, mount func(mux *http.ServeMux, addr string)) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("metrics: cannot listen on %s: %w — set another --metrics-address, or an empty one to turn metrics off", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", Handler())
	if mount != nil {
		mount(mux, l.Addr().String())
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = l.Close()
		}
	}()
	return l.Addr().String(), nil
}
