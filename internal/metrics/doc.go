// Package metrics holds phoneflow's Prometheus registry: the Temporal SDK's
// own metrics (through SDKHandler, given to client.Options.MetricsHandler)
// and phoneflow's counters and histograms — steps, model latencies and
// tokens, device action latencies — which activities record with the
// functions of this package. The worker serves Registry on
// metrics.address with Serve.
//
// Recording is cheap and safe from any goroutine; nothing here blocks or
// fails, so instrumentation never changes the outcome of an activity.
package metrics
