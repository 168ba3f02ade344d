package apiservertest

import (
	"syscall"
	"time"
)

// ThreadCPU returns the CPU time (user + system) the calling OS thread
// has used so far. A benchmark that locks its goroutine to its thread
// (runtime.LockOSThread) reports the difference across its loop as its
// own cpu-ns/op: what the decoding or encoding on that thread cost,
// without the collector's or other goroutines' work, which ProcessCPU
// counts.
func ThreadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // 1: RUSAGE_THREAD, Linux's alone
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
