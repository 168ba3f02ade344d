package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/kitchensync/kitchensync/examples/internal/cli"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/dinner"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/reconcile/prommetrics"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run plays the service the command line asks for and returns the exit
// status: 0, 1 if the service failed, 2 for a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("restaurant", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./examples/restaurant [-seed N] [-orders N] [-speed D] [-v | -q] [-metrics]\n\n"+
			"Plays a seeded dinner service, narrating each hand-off, then prints a summary.\n\n")
		fs.PrintDefaults()
	}
	seed := fs.Int64("seed", 1, "seed of the service: who comes when and orders what")
	orders := cli.Int(fs, "orders", 30, 1, 10_000, "how many orders arrive")
	speed := cli.Duration(fs, "speed", kitchen.DefaultMinute, time.Microsecond, time.Minute, "real duration of one kitchen minute")
	verbose := fs.Bool("v", false, "narrate every event, not just the hand-offs")
	quiet := fs.Bool("q", false, "print the summary only")
	metrics := fs.Bool("metrics", false, "print the controllers' Prometheus metrics at the end")
	err := fs.Parse(args)
	if err == nil {
		err = cli.NoArgs(fs)
		if err == nil && *verbose && *quiet {
			err = errors.New("-v and -q: choose one")
		}
		if err != nil {
			fmt.Fprintln(stderr, "restaurant:", err)
		}
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		return 2
	}
	level := narration.HandOffs
	switch {
	case *quiet:
		level = narration.Quiet
	case *verbose:
		level = narration.Everything
	}
	if level > narration.Quiet {
		narration.WhoIsWho(stdout)
		fmt.Fprintln(stdout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(time.Minute, 5000**speed))
	defer cancel()
	s, err := dinner.Run(ctx, stdout, dinner.Config{Seed: *seed, Orders: *orders, Minute: *speed, Verbosity: level})
	fmt.Fprintln(stdout)
	s.Write(stdout)
	if err == nil && *metrics {
		err = writeMetrics(stdout, s.Counters)
	}
	if err != nil {
		fmt.Fprintln(stderr, "restaurant:", err)
		return 1
	}
	return 0
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
