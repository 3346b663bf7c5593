// Package e2etest runs whole goals through GoalWorkflow and TodoWorkflow
// with the real activities against the simulated phone (behind Debian's adb
// server) and the offline model server. It holds tests only and lives apart
// from package workflows so the workflow unit tests do not build the
// simulator and the model server.
package e2etest
