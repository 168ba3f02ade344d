//go:build !unix

package bench

import "time"

// processCPU is not measured off Unix: the cpu-ms/op metric reads 0.
func processCPU() time.Duration { return 0 }
