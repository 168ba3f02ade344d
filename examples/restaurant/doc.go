// Command restaurant runs a whole dinner service on kitchensync and
// narrates each hand-off — waiter, apiserver, runner, rail, chef, cook —
// then prints a summary.
//
//	go run ./examples/restaurant [-seed 1] [-orders 30] [-speed 5ms] [-v | -q] [-metrics]
//
// The same seed gives the same plan: who comes when, orders what, amends
// or cancels. What the tests pin, for seed 1 (go test
// ./examples/restaurant -update rewrites both files):
//
//   - testdata/seed1.golden: the summary's first lines — length,
//     outcomes, latencies, pantry — in virtual time (testing/synctest),
//     with the kitchen as concurrent as in a real run: they are fixed for
//     a seed there;
//   - testdata/seed1-narration.golden: the whole narration and the whole
//     summary, counters included, in virtual time under a
//     kitchentest.Conductor, which lets the kitchen take one hand-off at a time
//     in a fixed order, so that every line is the same every run.
//
// A real run (go run) differs from both, and from run to run: it is truly
// concurrent, so lines from different goroutines come in another order and
// the counts of reconciles and API requests vary by a few (events merge
// into one ticket or not, writes meet a stale cache or not); and its
// kitchen clock keeps running while goroutines wait for a CPU, so the
// dinner's length and latencies come out longer than the golden figures
// (123 minutes, p50 35, p99 83 for seed 1): three runs on a busy two-core
// machine gave 126 to 135 minutes and p50 37 to 43. A slower -speed brings
// them closer. The outcomes — served, rejected, cancelled — do not change. There is no
// -deterministic flag: a Conductor needs to know when every goroutine is
// idle, and only testing/synctest can tell.
package main
