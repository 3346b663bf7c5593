//go:build !linux

package bench

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU falls back to the process's CPU time where a thread's own is
// not available: it then counts every goroutine's work.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const threadCPUNote = "CPU time of the whole process (getrusage RUSAGE_SELF: no per-thread figure on this OS)"
