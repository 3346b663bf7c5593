package workflows

import (
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
)

// The SDK's time-skipping environment measures two things in wall-clock
// time: a workflow task that runs over its deadlock threshold (1 s by
// default) fails as a potential deadlock, and a test whose workflow waits
// with no timer to fire for over its test timeout (3 s) panics. On a busy
// machine a starved goroutine stretches both with no deadlock and nothing
// stuck, so the tests use bounds a real deadlock still reaches.
const (
	testDeadlockTimeout = 30 * time.Second
	testIdleTimeout     = 2 * time.Minute
)

// onLoadedMachine is o with the deadlock threshold above.
func onLoadedMachine(o worker.Options) worker.Options {
	o.DeadlockDetectionTimeout = testDeadlockTimeout
	return o
}

// newTestEnvironment is a time-skipping environment with the bounds above
// and the worker options o.
func newTestEnvironment(s *testsuite.WorkflowTestSuite, o worker.Options) *testsuite.TestWorkflowEnvironment {
	env := s.NewTestWorkflowEnvironment()
	env.SetWorkerOptions(onLoadedMachine(o))
	env.SetTestTimeout(testIdleTimeout)
	return env
}
