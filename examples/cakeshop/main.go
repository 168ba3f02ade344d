// Command cakeshop runs the cake-shop story (蛋糕店) on kitchensync, one
// scene after another, narrating each hand-off — customer, front desk
// (informer), queue, baker (reconciler), oven, manager — and printing a
// summary per scene. No cluster: every API server is in memory, and shop
// time runs on a scaled clock (one shop minute = -minute of real time), so
// all eight scenes take a few seconds.
//
//	go run ./examples/cakeshop [-scene NAME] [-seed 1] [-minute 1ms] [-q] [-v]
//
// The scenes and the parts of the story they play are listed in the doc
// of package [github.com/kitchensync/kitchensync/examples/cakeshop/bakery].
//
// Where several bakers work at once (branches, rush, practices,
// monitoring) the order of their lines follows the scheduler; the summaries
// are deterministic for a given -seed. The first two scenes and the
// wedding-cake lesson are sequential, line for line.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
)

func main() {
	var o options
	flag.StringVar(&o.scene, "scene", "", "run only this scene (default: all); one of "+names())
	flag.Int64Var(&o.seed, "seed", 1, "seed of whatever is drawn at random (the Valentine's rush)")
	flag.DurationVar(&o.minute, "minute", bakery.DefaultMinute, "real duration of one shop minute")
	flag.BoolVar(&o.quiet, "q", false, "print the summaries only")
	flag.BoolVar(&o.verbose, "v", false, "also print the controllers' structured debug logs to stderr")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "cakeshop:", err)
		os.Exit(1)
	}
}

type options struct {
	scene          string
	seed           int64
	minute         time.Duration
	quiet, verbose bool
}

func names() string {
	var s []string
	for _, sc := range bakery.Scenes() {
		s = append(s, sc.Name)
	}
	return strings.Join(s, ", ")
}

// run plays the scenes o asks for, narrating to out and logging to errOut.
func run(ctx context.Context, out, errOut io.Writer, o options) error {
	scenes := bakery.Scenes()
	if o.scene != "" {
		sc, ok := bakery.SceneByName(o.scene)
		if !ok {
			return fmt.Errorf("no scene %q; the scenes are %s", o.scene, names())
		}
		scenes = []bakery.Scene{sc}
	}
	cfg := bakery.Config{Seed: o.seed, Minute: o.minute}
	if !o.quiet {
		cfg.Out = out
	}
	if o.verbose {
		cfg.Logger = slog.New(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	for i, sc := range scenes {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "=== %s\n", sc.Title)
		rep, err := sc.Run(ctx, cfg)
		if err != nil {
			return fmt.Errorf("scene %s: %w", sc.Name, err)
		}
		rep.Write(out)
	}
	return nil
}
