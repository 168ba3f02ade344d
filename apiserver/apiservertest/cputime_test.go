//go:build unix

package apiservertest_test

import (
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// TestProcessCPU: the process's CPU time grows with work done and never
// goes back.
func TestProcessCPU(t *testing.T) {
	before := apiservertest.ProcessCPU()
	if before <= 0 {
		t.Fatalf("ProcessCPU() = %v before any work, want a positive time (the test binary has run)", before)
	}
	x := 0
	for start := apiservertest.ProcessCPU(); apiservertest.ProcessCPU()-start < 20*time.Millisecond; {
		for i := range 1 << 16 {
			x ^= i * i
		}
	}
	if after := apiservertest.ProcessCPU(); after-before < 20*time.Millisecond {
		t.Errorf("ProcessCPU grew by %v over a loop that spins until it grows by 20ms (x=%d)", after-before, x)
	}
}
