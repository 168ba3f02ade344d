//go:build unix

package apiservertest

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user + system) the process has used so
// far, all threads together: what a benchmark's operations cost, whatever
// else a shared machine runs. Benchmarks report the difference across
// their loop as cpu-ns/op.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
