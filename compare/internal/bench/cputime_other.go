//go:build !unix

package bench

import "time"

// ProcessCPU is not measured off Unix: the cpu-ms/op metric reads 0.
func ProcessCPU() time.Duration { return 0 }
