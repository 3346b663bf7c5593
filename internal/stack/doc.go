// Package stack assembles a local phoneflow stack on loopback: the embedded
// Temporal server, the offline model server, simulated phones attached to an
// ADB server, a client, and workers in this process or as child processes.
// The demo, the benchmarks, the drills and the end-to-end, security and
// fleet tests all build their stacks here; options say what differs (a
// SQLite file or an in-memory store, model faults, the real adb binary or
// the built-in ADB server, the Web UI).
//
// Every listener is bound here and handed to its server; only the embedded
// Temporal server and the real adb binary take a port number, and both get
// one the way docs/design.md §14 describes.
//
// This package compiles the whole Temporal server (through devserver): only
// commands and integration tests import it.
package stack
