// Package metrics holds phoneflow's metrics: one OpenTelemetry meter
// provider (Provider) exported by OpenTelemetry's Prometheus exporter into
// Registry, which also carries Go runtime and process metrics. The Temporal
// SDK records into it through SDKHandler (the SDK's OpenTelemetry contrib
// handler with a fixed label set per metric, docs/design.md §11), given to
// client.Options.MetricsHandler; activities record steps, model latencies
// and tokens, and device action latencies with the functions of this
// package. The worker serves Registry on metrics.address with Serve.
//
// Recording is cheap and safe from any goroutine; nothing here blocks or
// fails, so instrumentation never changes the outcome of an activity.
package metrics
