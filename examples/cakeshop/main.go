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
