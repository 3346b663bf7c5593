package bench

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Machine describes where a benchmark ran.
type Machine struct {
	CPUs     int
	CPUModel string
	MemoryGB float64
	GoVer    string
	OS       string
}

// ReadMachine reads the machine's facts from the runtime and /proc.
func ReadMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GoVer: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var kb float64
			if n, _ := fmt.Sscanf(sc.Text(), "MemTotal: %f kB", &kb); n == 1 {
				m.MemoryGB = kb / 1024 / 1024
				break
			}
		}
		f.Close()
	}
	return m
}

// PeakRSSMB returns the process's peak resident set size (VmHWM) in MiB,
// or 0 when /proc is not available.
func PeakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		var kb float64
		if n, _ := fmt.Sscanf(line, "VmHWM: %f kB", &kb); n == 1 {
			return kb / 1024
		}
	}
	return 0
}
