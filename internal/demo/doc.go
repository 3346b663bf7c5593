// Package demo brings up everything `starter demo` needs in one process:
// the embedded Temporal server with its Web UI, a simulated phone served on
// a free loopback port and attached to a private ADB server (Debian's adb
// when it is installed, else phoneflow's built-in internal/adbserver; both
// speak the real host and device protocols, so the worker drives the phone
// exactly as it drives a USB or network phone), the offline model server,
// and a worker. The starter then runs the showcase
// goal on it and prints the live view.
//
// Only one demo runs per data directory: Start takes an exclusive lock on
// a file in it, and the embedded server checks its ports, so a second demo
// fails with a message saying what is running and what to do.
package demo
