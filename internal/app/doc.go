// Package app wires phoneflow together from a config.Config: the Temporal
// client (TLS, API key, payload encryption, SDK metrics), the device pool of
// the ADB server, the planner and executor model clients, the blob store,
// prompt memory, and the Activities struct; RunWorker then serves goals on
// the shared task queue and each allowed phone on its own task queue until
// its context ends. The worker main and the demo share this wiring, so a
// demo run exercises exactly what a deployment runs.
//
// Model and device calls are wrapped to record latencies, tokens and steps
// in internal/metrics; the wrapped values behave exactly like the originals.
package app
