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
//     kitchen.Conductor, which lets the kitchen take one hand-off at a time
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

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
)

func main() {
	seed := flag.Int64("seed", 1, "seed of the service: who comes when and orders what")
	orders := flag.Int("orders", 30, "how many orders arrive")
	speed := flag.Duration("speed", kitchen.DefaultMinute, "real duration of one kitchen minute")
	verbose := flag.Bool("v", false, "narrate every event, not just the hand-offs")
	quiet := flag.Bool("q", false, "print the summary only")
	metrics := flag.Bool("metrics", false, "print the controllers' Prometheus metrics at the end")
	flag.Parse()
	level := kitchen.HandOffs
	switch {
	case *quiet:
		level = kitchen.Quiet
	case *verbose:
		level = kitchen.Everything
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := kitchen.RunDinner(ctx, os.Stdout, kitchen.DinnerConfig{Seed: *seed, Orders: *orders, Minute: *speed, Verbosity: level})
	fmt.Println()
	s.Write(os.Stdout)
	if err == nil && *metrics {
		err = writeMetrics(os.Stdout, s.Counters)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "restaurant:", err)
		os.Exit(1)
	}
}

// snapshot is a controller's metrics as they were at the end of the
// service, for the Prometheus adapter.
type snapshot struct {
	name string
	m    reconcile.Metrics
}

func (s snapshot) Name() string               { return s.name }
func (s snapshot) Metrics() reconcile.Metrics { return s.m }

// writeMetrics prints the metrics in Prometheus' text format, without the
// reconcile-time histograms' buckets.
func writeMetrics(w io.Writer, c kitchen.Counters) error {
	reg := prometheus.NewRegistry()
	reg.MustRegister(prommetrics.NewCollector(snapshot{"chef", c.Chef}, snapshot{"brigade", c.Brigade}))
	families, err := reg.Gather()
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, mf := range families {
		if strings.HasSuffix(mf.GetName(), "_seconds") {
			continue
		}
		mf.Help = nil
		if _, err := expfmt.MetricFamilyToText(w, mf); err != nil {
			return err
		}
	}
	return nil
}
