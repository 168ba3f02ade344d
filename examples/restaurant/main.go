// Command restaurant runs a whole dinner service on kitchensync and
// narrates each hand-off — waiter, apiserver, runner, rail, chef, cook —
// then prints a summary.
//
//	go run ./examples/restaurant [-seed 1] [-orders 30] [-speed 5ms] [-v | -q]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
)

func main() {
	seed := flag.Int64("seed", 1, "seed of the service: who comes when and orders what")
	orders := flag.Int("orders", 30, "how many orders arrive")
	speed := flag.Duration("speed", kitchen.DefaultMinute, "real duration of one kitchen minute")
	verbose := flag.Bool("v", false, "narrate every event, not just the hand-offs")
	quiet := flag.Bool("q", false, "print the summary only")
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
	if err != nil {
		fmt.Fprintln(os.Stderr, "restaurant:", err)
		os.Exit(1)
	}
}
