package apiservertest_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// TestThreadCPU: the calling thread's CPU time grows with the work it
// does, and no more than the process's.
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, process := apiservertest.ThreadCPU(), apiservertest.ProcessCPU()
	x := 0
	for apiservertest.ThreadCPU()-before < 20*time.Millisecond {
		for i := range 1 << 16 {
			x ^= i * i
		}
	}
	thread := apiservertest.ThreadCPU() - before
	if grew := apiservertest.ProcessCPU() - process; grew < thread {
		t.Errorf("the thread used %v, the whole process only %v (x=%d)", thread, grew, x)
	}
}
