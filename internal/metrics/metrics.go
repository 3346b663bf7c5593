package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds every metric phoneflow exports, including Go runtime and
// process metrics.
var Registry = prometheus.NewRegistry()

var (
	steps = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "phoneflow_steps_total",
		Help: "Budgeted steps taken by goals, by kind (think, act, replan).",
	}, []string{"kind"})
	modelLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "phoneflow_model_latency_seconds",
		Help:    "Model request latency by role (planner, executor) and phase (ttft, think_end, total).",
		Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 16, 32, 64},
	}, []string{"role", "phase"})
	modelTokens = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "phoneflow_model_tokens_total",
		Help: "Tokens used by role (planner, executor) and direction (prompt, completion).",
	}, []string{"role", "direction"})
	formatRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "phoneflow_model_format_requests_total",
		Help: "JSON model requests by role and the response format they were answered in (json_schema, json_object, plain).",
	}, []string{"role", "format"})
	formatTokens = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "phoneflow_model_format_tokens_total",
		Help: "Tokens of JSON model requests by role, response format and direction (prompt, completion).",
	}, []string{"role", "format", "direction"})
	formatLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "phoneflow_model_format_latency_seconds",
		Help:    "Total latency of JSON model requests by role and response format.",
		Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 16, 32, 64},
	}, []string{"role", "format"})
	modelErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "phoneflow_model_errors_total",
		Help: "Failed model requests by role and whether they will be retried.",
	}, []string{"role", "retryable"})
	deviceAction = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "phoneflow_device_action_seconds",
		Help:    "Device action latency, settle wait included, by action and result (ok, error).",
		Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2, 4, 8},
	}, []string{"action", "result"})
	blobsRemoved = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "phoneflow_blobs_removed_total",
		Help: "Blobs removed by retention passes.",
	})
	blobsFreed = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "phoneflow_blobs_freed_bytes_total",
		Help: "Bytes freed in the blob store by retention passes.",
	})
	blobsKept = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "phoneflow_blobs_kept_bytes",
		Help: "Bytes left in the blob store after the last retention pass.",
	})
	devices = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "phoneflow_devices_served",
		Help: "Phones this worker serves on their own task queues.",
	})
)

func init() {
	Registry.MustRegister(
		// The collectors subpackage would pull modules go.mod does not
		// have; these constructors build the same collectors.
		prometheus.NewGoCollector(),                                       //nolint:staticcheck
		prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}), //nolint:staticcheck
		steps, modelLatency, modelTokens, modelErrors, deviceAction, devices,
		formatRequests, formatTokens, formatLatency,
		blobsRemoved, blobsFreed, blobsKept,
	)
}

// Step counts one budgeted step of kind "think", "act" or "replan".
func Step(kind string) { steps.WithLabelValues(kind).Inc() }

// ModelLatency records one latency of a model request; phase is "ttft",
// "think_end" or "total". Zero durations (unknown phases) are skipped.
func ModelLatency(role, phase string, d time.Duration) {
	if d > 0 {
		modelLatency.WithLabelValues(role, phase).Observe(d.Seconds())
	}
}

// Tokens counts the prompt and completion tokens of one model request.
func Tokens(role string, prompt, completion int) {
	if prompt > 0 {
		modelTokens.WithLabelValues(role, "prompt").Add(float64(prompt))
	}
	if completion > 0 {
		modelTokens.WithLabelValues(role, "completion").Add(float64(completion))
	}
}

// FormatUsage records one JSON request by the response format it was
// answered in: its total latency and tokens.
func FormatUsage(role, format string, total time.Duration, prompt, completion int) {
	formatRequests.WithLabelValues(role, format).Inc()
	if total > 0 {
		formatLatency.WithLabelValues(role, format).Observe(total.Seconds())
	}
	if prompt > 0 {
		formatTokens.WithLabelValues(role, format, "prompt").Add(float64(prompt))
	}
	if completion > 0 {
		formatTokens.WithLabelValues(role, format, "completion").Add(float64(completion))
	}
}

// ModelError counts a failed model request.
func ModelError(role string, retryable bool) {
	modelErrors.WithLabelValues(role, fmt.Sprint(retryable)).Inc()
}

// DeviceAction records how long a device action took and whether it failed.
func DeviceAction(action string, d time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	deviceAction.WithLabelValues(action, result).Observe(d.Seconds())
}

// BlobsCollected records one retention pass: blobs and bytes removed,
// bytes left.
func BlobsCollected(removed int, freed, kept int64) {
	blobsRemoved.Add(float64(removed))
	blobsFreed.Add(float64(freed))
	blobsKept.Set(float64(kept))
}

// DevicesServed sets how many phones this worker serves.
func DevicesServed(n int) { devices.Set(float64(n)) }

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
