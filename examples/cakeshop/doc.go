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
