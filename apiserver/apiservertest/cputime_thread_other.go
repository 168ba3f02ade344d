//go:build !linux

package apiservertest

import "time"

// ThreadCPU returns 0 where the CPU time of one thread cannot be read
// (RUSAGE_THREAD is Linux's): the benchmarks then report no CPU time.
func ThreadCPU() time.Duration { return 0 }
