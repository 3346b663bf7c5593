// Package bench measures phoneflow on this machine and writes the figures as
// a markdown report: orchestration overhead against a plain loop over the
// same activity code, history cost per executor step, many phones on one
// worker, the screenshot pipeline, settle waiting, and the agent loop's
// robustness against wrong taps. Everything runs in-process on the embedded
// Temporal server, the offline model server and simulated phones behind a
// private adb server; `starter bench` is the command that drives it.
package bench
