// Command stale-chef runs the stale-chef lesson of the restaurant; see
// [lessons.StaleChef] for what it shows: a chef acting on a memory that
// lags his own writes sends a cook twice, and reconcile.Freshness (the
// read-your-own-writes check of kube-controller-manager 1.36) stops him.
//
//	go run ./examples/stale-chef
//
// The test pins the whole narration in testdata/narration.golden
// (go test ./examples/stale-chef -update rewrites it), played in virtual
// time under a kitchentest.Conductor. Run with go run, the kitchen is
// truly concurrent and takes about four seconds: its kitchen minute is a
// fifth of a second, so that the runner's slow return is visible.
package main
