// Package e2e holds the integration tests that run phoneflow end to end on
// the embedded Temporal server: a real worker, the simulated phone behind an
// adb server, and the offline model server over HTTP. It has no non-test
// code besides helpers; it is kept apart so the core packages' unit tests do
// not pay for compiling the Temporal server.
package e2e
