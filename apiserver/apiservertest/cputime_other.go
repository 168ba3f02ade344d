//go:build !unix

package apiservertest

import "time"

// processCPU returns 0 where getrusage is missing: the benchmarks then
// report no CPU time.
func processCPU() time.Duration { return 0 }
