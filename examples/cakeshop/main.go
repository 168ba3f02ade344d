// Command cakeshop runs the cake-shop story (蛋糕店) on kitchensync, one
// scene after another, narrating each hand-off — customer, front desk
// (informer), queue, baker (reconciler), oven, manager — and printing a
// summary per scene. No cluster: every API server is in memory, and shop
// time runs on a scaled clock (one shop minute = -minute of real time).
//
//	go run ./examples/cakeshop [-scene NAME] [-seed 1] [-minute 1ms] [-q] [-v]
//
// The scenes and the parts of the story they play are listed in the doc
// of package bakery.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
)

func main() {
	scene := flag.String("scene", "", "run only this scene (default: all); one of "+names())
	seed := flag.Int64("seed", 1, "seed of whatever is drawn at random (the Valentine's rush)")
	minute := flag.Duration("minute", bakery.DefaultMinute, "real duration of one shop minute")
	quiet := flag.Bool("q", false, "print the summaries only")
	verbose := flag.Bool("v", false, "also print the controllers' structured debug logs to stderr")
	flag.Parse()
	if err := run(*scene, *seed, *minute, *quiet, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "cakeshop:", err)
		os.Exit(1)
	}
}

func names() string {
	s := ""
	for i, sc := range bakery.Scenes() {
		if i > 0 {
			s += ", "
		}
		s += sc.Name
	}
	return s
}

func run(only string, seed int64, minute time.Duration, quiet, verbose bool) error {
	scenes := bakery.Scenes()
	if only != "" {
		sc, ok := bakery.SceneByName(only)
		if !ok {
			return fmt.Errorf("no scene %q; the scenes are %s", only, names())
		}
		scenes = []bakery.Scene{sc}
	}
	cfg := bakery.Config{Seed: seed, Minute: minute}
	if !quiet {
		cfg.Out = os.Stdout
	}
	if verbose {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i, sc := range scenes {
		if i > 0 {
			fmt.Println()
		}
		var out io.Writer = os.Stdout
		fmt.Fprintf(out, "=== %s\n", sc.Title)
		rep, err := sc.Run(ctx, cfg)
		if err != nil {
			return fmt.Errorf("scene %s: %w", sc.Name, err)
		}
		rep.Write(out)
	}
	return nil
}
