// Package kitchentest helps test programs that run on the kitchen, as
// net/http/httptest helps test HTTP servers: its [Conductor] makes a
// restaurant — or a controller of your own — take one step at a time, in
// an order that does not depend on the goroutine scheduler, so that a
// service tells the same story every run.
//
// A Conductor is for tests under testing/synctest, which alone can tell
// when every goroutine is idle ([Conductor.Drive] with synctest.Wait). It
// reaches into a restaurant only through the seams of its
// [restaurant.Config] — the runner's ListerWatchers, the controllers'
// queues, the clock's timers ([Conductor.Pace] sets them) — and the
// waiter waits for its turn with [Conductor.WaitTurn]; a program run with
// go run has no conductor and stays concurrent.
//
// # Example: a conducted restaurant
//
//	synctest.Test(t, func(t *testing.T) {
//		c := kitchentest.NewConductor()
//		ctx, cancel := context.WithCancel(t.Context())
//		defer cancel()
//		go c.Drive(ctx, synctest.Wait)
//		cfg := restaurant.Config{Out: &out, Verbosity: narration.HandOffs}
//		c.Pace(&cfg)
//		r, _ := restaurant.Open(ctx, cfg)
//		go r.Run(ctx)
//		r.WaitReady(ctx)
//		c.WaitTurn(ctx)
//		r.Waiter.Place(ctx, order) // ...
//	})
package kitchentest
