package drill

import "github.com/phoneflow/phoneflow/internal/stack"

// Process is a worker running as a child process (see package stack).
type Process = stack.Process

// The worker-process helpers of package stack, under the names the drills
// use.
var (
	BuildWorker = stack.BuildWorker
	NewProcess  = stack.NewProcess
	WriteConfig = stack.WriteConfig
)
