package compare

import (
	"context"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
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
// COMPARE_SEED=85,399 replays only the listed seeds (the number a failure
// names), e.g. to run one of them many times with -count.
var long = flag.Bool("long", false, "run ten times as many seeded sequences")

// seeds returns the seeds of the sequences a test runs: 0 up to base,
// scaled by -long or COMPARE_SEEDS and cut to a tenth under -short, or just
// those COMPARE_SEED lists.
func seeds(t *testing.T, base int) iter.Seq[uint64] {
	t.Helper()
	if s := os.Getenv("COMPARE_SEED"); s != "" {
		var list []uint64
		for f := range strings.SplitSeq(s, ",") {
			n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("COMPARE_SEED=%q: %v", s, err)
			}
			list = append(list, n)
		}
		return slices.Values(list)
	}
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
	return func(yield func(uint64) bool) {
		for seed := range uint64(n) {
			if !yield(seed) {
				return
			}
		}
	}
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
