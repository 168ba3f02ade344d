package compare

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// long multiplies the number of seeded sequences per test. CI runs the
// default (a few minutes in all); `go test -long` or COMPARE_LONG=1 runs
// ten times as many, and COMPARE_SEEDS=N sets the multiplier exactly.
var long = flag.Bool("long", false, "run ten times as many seeded sequences")

// seeds returns how many seeded sequences a test runs: base, scaled by
// -long or COMPARE_SEEDS, and cut to a tenth under -short.
func seeds(t *testing.T, base int) int {
	t.Helper()
	n := base
	if *long || os.Getenv("COMPARE_LONG") != "" {
		n *= 10
	}
	if s := os.Getenv("COMPARE_SEEDS"); s != "" {
		if m, err := strconv.Atoi(s); err == nil && m > 0 {
			n = base * m
		}
	}
	if testing.Short() {
		n = max(1, n/10)
	}
	return n
}

// formatOps prints a sequence one step a line, numbered as in the traces.
func formatOps[T fmt.Stringer](seq []T) string {
	var b strings.Builder
	for i, op := range seq {
		fmt.Fprintf(&b, "  %d: %s\n", i, op)
	}
	return b.String()
}

var quietOnce sync.Once

// quietClientGo stops client-go's reflector from logging the watch errors
// the tests inject on purpose, and replaces apimachinery's global error
// handlers. Those include a rate limiter that sleeps for
// minPeriod - (now - lastErrorTime), with lastErrorTime set from the real
// clock at init: inside a synctest bubble (whose clock starts in 2000) the
// first HandleError would sleep for decades of virtual time, and the
// reflector that reported the error would never retry.
func quietClientGo() {
	quietOnce.Do(func() {
		klog.LogToStderr(false)
		klog.SetOutput(io.Discard)
		utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{
			func(context.Context, error, string, ...any) {},
		}
	})
}
