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
	"github.com/kitchensync/kitchensync/kitchen/dinner"
	"github.com/kitchensync/kitchensync/kitchen/narration"
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
	level := narration.HandOffs
	switch {
	case *quiet:
		level = narration.Quiet
	case *verbose:
		level = narration.Everything
	}
	if level > narration.Quiet {
		narration.WhoIsWho(os.Stdout)
		fmt.Println()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := dinner.Run(ctx, os.Stdout, dinner.Config{Seed: *seed, Orders: *orders, Minute: *speed, Verbosity: level})
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
func writeMetrics(w io.Writer, c dinner.Counters) error {
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
