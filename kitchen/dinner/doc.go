// Package dinner plays a whole dinner service on a restaurant (package
// kitchen/restaurant) and sums it up, as a load test does for a
// controller.
//
// [Run] draws a service from a seed — arrivals, amendments,
// cancellations, a dish that is not on the menu, cream that goes off
// before a delivery — plays it with the waiter against a running
// restaurant, and returns a [Summary]: outcomes, latency percentiles in
// kitchen minutes, reconciles and requeues, and the API requests made
// compared with what polling would have cost. In virtual time the same
// seed gives the same Summary (apart from its [Counters]); see Run for
// what is and is not deterministic in a real run, and [Pacer] for how a
// test makes the whole narration the same.
//
//	go run ./examples/restaurant -seed 1
package dinner
