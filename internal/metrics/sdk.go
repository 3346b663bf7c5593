package metrics

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
)

// SDKHandler returns a client.MetricsHandler that records the Temporal
// SDK's metrics in Registry.
func SDKHandler() client.MetricsHandler { return NewSDKHandler(Registry) }

// NewSDKHandler returns a client.MetricsHandler recording into reg.
// Prometheus needs a fixed label set per metric name: the tags seen at a
// name's first use fix its labels; later tags outside that set are
// dropped and missing ones are empty.
func NewSDKHandler(reg prometheus.Registerer) client.MetricsHandler {
	return &sdkHandler{vecs: &sdkVecs{reg: reg, m: map[string]*sdkVec{}}}
}

type sdkHandler struct {
	vecs *sdkVecs
	tags map[string]string
}

type sdkVecs struct {
	reg prometheus.Registerer
	mu  sync.Mutex
	m   map[string]*sdkVec
}

type sdkVec struct {
	labels    []string
	counter   *prometheus.CounterVec
	gauge     *prometheus.GaugeVec
	histogram *prometheus.HistogramVec
}

const (
	kindCounter = iota
	kindGauge
	kindTimer
)

func (h *sdkHandler) WithTags(tags map[string]string) client.MetricsHandler {
	merged := maps.Clone(h.tags)
	if merged == nil {
		merged = map[string]string{}
	}
	for k, v := range tags {
		merged[sanitize(k)] = v
	}
	return &sdkHandler{vecs: h.vecs, tags: merged}
}

func (h *sdkHandler) Counter(name string) client.MetricsCounter {
	v, vals := h.vec(name, kindCounter)
	if v == nil || v.counter == nil {
		return client.MetricsNopHandler.Counter(name)
	}
	c := v.counter.WithLabelValues(vals...)
	return counterFunc(func(d int64) {
		if d > 0 {
			c.Add(float64(d))
		}
	})
}

func (h *sdkHandler) Gauge(name string) client.MetricsGauge {
	v, vals := h.vec(name, kindGauge)
	if v == nil || v.gauge == nil {
		return client.MetricsNopHandler.Gauge(name)
	}
	g := v.gauge.WithLabelValues(vals...)
	return gaugeFunc(g.Set)
}

func (h *sdkHandler) Timer(name string) client.MetricsTimer {
	v, vals := h.vec(name, kindTimer)
	if v == nil || v.histogram == nil {
		return client.MetricsNopHandler.Timer(name)
	}
	o := v.histogram.WithLabelValues(vals...)
	return timerFunc(func(d time.Duration) { o.Observe(d.Seconds()) })
}

// vec returns the vector of name (creating it on first use) and the label
// values of h's tags in its label order; nil when name cannot be
// registered (taken by another metric).
func (h *sdkHandler) vec(name string, kind int) (*sdkVec, []string) {
	name = sanitize(name)
	vs := h.vecs
	vs.mu.Lock()
	defer vs.mu.Unlock()
	v, ok := vs.m[name]
	if !ok {
		v = &sdkVec{labels: slices.Sorted(maps.Keys(h.tags))}
		var c prometheus.Collector
		switch kind {
		case kindCounter:
			v.counter = prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: "Temporal SDK counter " + name}, v.labels)
			c = v.counter
		case kindGauge:
			v.gauge = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: "Temporal SDK gauge " + name}, v.labels)
			c = v.gauge
		default:
			v.histogram = prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name: name, Help: "Temporal SDK timer " + name + " in seconds",
				Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
			}, v.labels)
			c = v.histogram
		}
		if err := vs.reg.Register(c); err != nil {
			v = nil
		}
		vs.m[name] = v
	}
	if v == nil {
		return nil, nil
	}
	vals := make([]string, len(v.labels))
	for i, l := range v.labels {
		vals[i] = h.tags[l]
	}
	return v, vals
}

// sanitize maps a name to the Prometheus name alphabet.
func sanitize(s string) string {
	var b strings.Builder
	for i, r := range s {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

type counterFunc func(int64)

func (f counterFunc) Inc(d int64) { f(d) }

type gaugeFunc func(float64)

func (f gaugeFunc) Update(v float64) { f(v) }

type timerFunc func(time.Duration)

func (f timerFunc) Record(d time.Duration) { f(d) }
