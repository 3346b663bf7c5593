// Package tracing exports phoneflow's traces over OTLP: a goal's workflow,
// its todo children and their activities (spans from the Temporal SDK's
// OpenTelemetry contrib interceptor, on the client and the worker), and
// inside activities a span per model call and per device action
// (docs/design.md §11). With no telemetry.otlp_endpoint nothing is traced
// and the helpers here cost a context lookup.
package tracing
