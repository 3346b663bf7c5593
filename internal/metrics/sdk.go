package metrics

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/metric"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
)

// SDKHandler returns the client.MetricsHandler that records the Temporal
// SDK's metrics through the SDK's OpenTelemetry handler into Provider,
// with a fixed label set per metric (SDKLabels).
func SDKHandler() client.MetricsHandler { return sdkHandlerOf }

var sdkHandlerOf = NewSDKHandler(Provider.Meter("temporal-sdk-go"))

// NewSDKHandler returns a client.MetricsHandler recording into meter with
// the label rule of SDKLabels.
func NewSDKHandler(meter metric.Meter) client.MetricsHandler {
	return &sdkHandler{
		otel: temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
			Meter:                meter,
			UseMonotonicCounters: true,
			// A name taken by another kind of instrument is recorded
			// nowhere rather than crashing the worker.
			OnError: func(error) {},
		}),
		dropped: &droppedKeys{m: map[string]struct{}{}},
		cache:   &sync.Map{},
	}
}

// sdkBaseLabels are the labels of every SDK metric: the tags the SDK puts
// on its root handler. The SDK fills those it does not know with "none".
var sdkBaseLabels = []string{"namespace", "client_name", "worker_type", "workflow_type", "activity_type", "task_queue"}

// sdkExtraLabels are the labels some SDK metrics carry beyond the base
// ones, by metric name (read from the SDK's source, go.temporal.io/sdk
// internal/common/metrics).
var sdkExtraLabels = map[string][]string{
	"temporal_request":                              {"operation"},
	"temporal_request_latency":                      {"operation"},
	"temporal_request_failure":                      {"operation", "status_code"},
	"temporal_request_resource_exhausted":           {"operation", "status_code", "cause"},
	"temporal_long_request":                         {"operation"},
	"temporal_long_request_latency":                 {"operation"},
	"temporal_long_request_failure":                 {"operation", "status_code"},
	"temporal_long_request_resource_exhausted":      {"operation", "status_code", "cause"},
	"temporal_num_pollers":                          {"poller_type"},
	"temporal_workflow_task_execution_failed":       {"failure_reason"},
	"temporal_activity_execution_failed":            {"failure_reason"},
	"temporal_nexus_task_execution_failed":          {"nexus_service", "nexus_operation", "failure_reason"},
	"temporal_nexus_task_execution_latency":         {"nexus_service", "nexus_operation"},
	"temporal_nexus_task_endtoend_latency":          {"nexus_service", "nexus_operation"},
	"temporal_nexus_task_schedule_to_start_latency": {"nexus_service", "nexus_operation"},
}

// SDKLabels returns the label keys every series of the SDK metric name
// carries, sorted: the base labels plus the metric's own. A tag the SDK
// leaves out is "none" (the SDK's own placeholder); a tag outside the set
// is not recorded (see DroppedSDKLabels), so each metric keeps one label
// set whatever the order in which the SDK first uses it.
func SDKLabels(name string) []string {
	return slices.Sorted(slices.Values(append(slices.Clone(sdkBaseLabels), extraLabels(name)...)))
}

// extraLabels looks name up in sdkExtraLabels; the SDK's per-attempt
// request metrics ("…_attempt") carry what their request metric carries.
func extraLabels(name string) []string {
	return sdkExtraLabels[strings.TrimSuffix(name, "_attempt")]
}

// DroppedSDKLabels lists "metric/label" pairs the SDK tagged but
// SDKLabels does not keep, for tests that check the table against a run.
func DroppedSDKLabels(h client.MetricsHandler) []string {
	s, ok := h.(*sdkHandler)
	if !ok {
		return nil
	}
	return s.dropped.list()
}

type sdkHandler struct {
	otel    client.MetricsHandler
	tags    map[string]string
	dropped *droppedKeys
	// cache holds the instruments already made, by kind, name and label
	// values: the SDK asks for a fresh one on every request it records.
	cache *sync.Map
}

type droppedKeys struct {
	mu sync.Mutex
	m  map[string]struct{}
}

func (d *droppedKeys) add(k string) {
	d.mu.Lock()
	d.m[k] = struct{}{}
	d.mu.Unlock()
}

func (d *droppedKeys) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Sorted(maps.Keys(d.m))
}

func (h *sdkHandler) WithTags(tags map[string]string) client.MetricsHandler {
	merged := maps.Clone(h.tags)
	if merged == nil {
		merged = make(map[string]string, len(tags))
	}
	maps.Copy(merged, tags)
	return &sdkHandler{otel: h.otel, tags: merged, dropped: h.dropped, cache: h.cache}
}

// instrument returns the cached instrument of kind and name for h's tags,
// making it with mk on first use.
func (h *sdkHandler) instrument(kind byte, name string, mk func(client.MetricsHandler) any) any {
	extra := extraLabels(name)
	for k := range h.tags {
		if !slices.Contains(sdkBaseLabels, k) && !slices.Contains(extra, k) {
			h.dropped.add(name + "/" + k)
		}
	}
	var b strings.Builder
	b.WriteByte(kind)
	b.WriteString(name)
	for _, k := range sdkBaseLabels {
		b.WriteByte(0)
		b.WriteString(h.tags[k])
	}
	for _, k := range extra {
		b.WriteByte(0)
		b.WriteString(h.tags[k])
	}
	key := b.String()
	if v, ok := h.cache.Load(key); ok {
		return v
	}
	v, _ := h.cache.LoadOrStore(key, mk(h.fixed(name)))
	return v
}

// fixed returns the OpenTelemetry handler tagged with exactly name's
// labels.
func (h *sdkHandler) fixed(name string) client.MetricsHandler {
	extra := extraLabels(name)
	tags := make(map[string]string, len(sdkBaseLabels)+len(extra))
	for _, k := range sdkBaseLabels {
		tags[k] = "none"
	}
	for _, k := range extra {
		tags[k] = "none"
	}
	for k, v := range h.tags {
		if _, ok := tags[k]; !ok {
			continue // listed by instrument
		}
		if v == "" {
			v = "none"
		}
		tags[k] = v
	}
	return h.otel.WithTags(tags)
}

func (h *sdkHandler) Counter(name string) client.MetricsCounter {
	return h.instrument('c', name, func(o client.MetricsHandler) any { return o.Counter(name) }).(client.MetricsCounter)
}

func (h *sdkHandler) Gauge(name string) client.MetricsGauge {
	return h.instrument('g', name, func(o client.MetricsHandler) any { return o.Gauge(name) }).(client.MetricsGauge)
}

func (h *sdkHandler) Timer(name string) client.MetricsTimer {
	return h.instrument('t', name, func(o client.MetricsHandler) any { return o.Timer(name) }).(client.MetricsTimer)
}
