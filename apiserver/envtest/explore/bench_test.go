package explore_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
)

// BenchmarkExplore explores 200 plans of a 20-write workload (the
// gallery's correct controller under [gallery.Busy] of 20 steps) and
// reports plans per second. The goal of issue 28: under 60 s on 2 cores.
func BenchmarkExplore(b *testing.B) {
	s := gallery.Scenario(gallery.Correct())
	s.Workload = gallery.Busy(20)
	var rep *explore.Report
	for b.Loop() {
		inTest(b, func(t *testing.T) { rep = explore.Explore(t, s, explore.Options{MaxPlans: 200}) })
	}
	if rep.Plans != 200 || len(rep.Violations) > 0 {
		b.Fatalf("explored %d plans, found %d violations; want 200 plans, none", rep.Plans, len(rep.Violations))
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(rep.Plans)/perOp, "plans/s")
	b.ReportMetric(float64(rep.Runs), "runs/op")
}

// inTest runs f with a *testing.T of its own: Explore needs one, for the
// testing/synctest bubbles its runs happen in, and a benchmark has only a
// *testing.B. testing.RunTests is the testing package's own way of
// running a test function; the matcher accepts every name, so that -run
// (often ^$ when benchmarking) does not filter it out.
func inTest(b *testing.B, f func(t *testing.T)) {
	b.Helper()
	ok := testing.RunTests(func(string, string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: b.Name(), F: f}})
	if !ok {
		b.Fatal("the exploration failed")
	}
}
