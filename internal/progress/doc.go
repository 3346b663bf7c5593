// Package progress renders the live view of a running goal for the starter
// CLI: the todo checklist, the step counter, the current action and any
// question or approval the goal is waiting for.
//
// On a terminal the view is a block that is redrawn in place on every
// update. When the output is not a terminal (a pipe, a log file, CI) the
// renderer prints one plain line per change instead, so the output reads as
// a log and never contains cursor-control sequences.
//
// The package knows nothing about Temporal: callers fill a Snapshot from the
// goal's `status` and `todos` queries and call Update.
package progress
