package bench

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time (user and system) the calling OS thread has
// used. Callers lock their goroutine to its thread first, so work of other
// goroutines (the simulated phone, the server) is not counted.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPUNote says what threadCPU measures here.
const threadCPUNote = "CPU time of the measuring thread (getrusage RUSAGE_THREAD, the goroutine locked to it)"
