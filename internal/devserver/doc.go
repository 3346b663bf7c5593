// Package devserver runs an embedded Temporal server, with its Web UI, inside
// a phoneflow process, so `worker --dev` and `starter demo` need nothing
// installed.
//
// The server keeps its state in one SQLite file under the data directory
// (one history shard), so goals survive a restart of the process; an
// existing file is reused as is and never re-created. Namespaces get the
// phoneflow search attributes when they are created. Every service listens
// on 127.0.0.1 only; the Web UI listens on the frontend port + 1000, or on a
// listener the caller hands over. Start binds every port itself before
// anything starts and holds it: the Web UI serves on its listener (the UI
// library's own server would exit the process on a taken port), and the
// server's ports, which the server library binds itself, are released just
// before it does, so a taken port is an error, never a panic or an exit
// (docs/design.md §14).
//
// The server's own logs go to temporal-server.log next to the database at
// level warn, so they do not drown phoneflow's output.
//
// This package compiles the whole Temporal server; only the worker and
// starter mains import it, never library packages or their unit tests.
package devserver
