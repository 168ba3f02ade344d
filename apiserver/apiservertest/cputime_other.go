//go:build !unix

package apiservertest

import "time"

// ProcessCPU returns 0 where getrusage is missing: the benchmarks then
// report no CPU time.
func ProcessCPU() time.Duration { return 0 }
