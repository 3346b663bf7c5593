// Package routines tests learned routines end to end: the embedded Temporal
// server, the offline model server, a simulated phone behind an ADB server
// and a worker (internal/stack), one data directory for every goal. Its
// test of the repeated-run cost also prints a table of it
// (PHONEFLOW_ROUTINE_BENCH=1 adds the 1 s model latency and repeats).
package routines
