package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/examples/internal/cli"
)

func main() {
	o, code := parse(os.Args[1:], os.Stderr)
	if code >= 0 {
		os.Exit(code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(time.Minute, 2000*o.minute))
	defer cancel()
	if err := run(ctx, os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "cakeshop:", err)
		os.Exit(1)
	}
}

// parse reads the command line. A code of 0 or more means: exit with it
// (0 after -h, 2 for a bad command line, told to errOut); -1 means run.
func parse(args []string, errOut io.Writer) (options, int) {
	var o options
	fs := flag.NewFlagSet("cakeshop", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&o.scene, "scene", "", "run only this scene (default: all); one of "+names())
	fs.Int64Var(&o.seed, "seed", 1, "seed of whatever is drawn at random (the Valentine's rush)")
	minute := cli.Duration(fs, "minute", bakery.DefaultMinute, time.Microsecond, time.Minute, "real duration of one shop minute")
	fs.BoolVar(&o.quiet, "q", false, "print the summaries only")
	fs.BoolVar(&o.verbose, "v", false, "also print the controllers' structured debug logs to stderr")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return o, 0
	}
	if err == nil {
		err = cli.NoArgs(fs)
	}
	if _, ok := bakery.SceneByName(o.scene); err == nil && o.scene != "" && !ok {
		err = fmt.Errorf("-scene %s: no such scene; the scenes are %s", o.scene, names())
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "invalid value") && !strings.HasPrefix(err.Error(), "flag provided") {
			fmt.Fprintln(errOut, "cakeshop:", err) // the flag package has told the others
		}
		return o, 2
	}
	o.minute = *minute
	return o, -1
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
