package lessons

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// RushHour is the story's rate-limited ticket rail: thirty tables order
// at once. Without a limit the chef gets thirty tickets in the same
// minute; with a token bucket of ten tickets per kitchen minute
// (workqueue.NewBucketRateLimiter, through the [kitchen.TicketRail]) the
// tickets wait on the rail and reach the chef ten a minute. Each ticket is
// counted in the minute the bucket let it through
// ([kitchen.TicketRail.AdmittedAt]), so the figures are the same on a
// loaded machine.
//
// The story's own words, but not client-go's: there a queue's rate
// limiter only paces AddRateLimited, the retry of a failed reconcile, and
// a new ticket (Add) is never held back; the kitchen's rail chooses to
// hold new tickets for the bucket, to play the story's rush hour (the
// tour's chapter "the rail's limit on new tickets is a choice" shows
// both).
func RushHour(ctx context.Context, w io.Writer) error {
	w = serialised(w)
	clock := kitchen.NewClock(10 * Minute) // tokens come every 6 kitchen seconds: give timers room
	for _, limit := range []float64{0, 10} {
		if limit == 0 {
			heading(w, "Thirty tickets at once, no limit")
		} else {
			heading(w, "Thirty tickets at once, %.0f tickets per minute (token bucket)", limit)
		}
		rail := kitchen.NewTicketRail(clock, nil, kitchen.RailOptions{TicketsPerMinute: limit, Burst: 1})
		var first time.Time
		for i := range 30 {
			req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "dinner", Name: fmt.Sprintf("table-%02d", i+1)}}
			rail.Add(req)
			if i == 0 {
				first, _ = rail.AdmittedAt(req)
			}
		}
		perMinute := map[int]int{}
		last := 0
		for range 30 {
			req, shutdown := rail.Get()
			if shutdown || ctx.Err() != nil {
				return fmt.Errorf("the rail closed early: %v", ctx.Err())
			}
			rail.Done(req)
			// Count each ticket in the minute the bucket let it through —
			// the limiter's own decision — not by the clock after Get, which
			// a loaded machine can make late. Tokens come every tenth of a
			// minute from the first; allow a hundredth for rounding.
			at, _ := rail.AdmittedAt(req)
			m := int(math.Floor(clock.Kitchen(at.Sub(first)).Minutes() + 0.01))
			perMinute[m]++
			last = max(last, m)
		}
		rail.ShutDown()
		for m := 0; m <= last; m++ {
			fmt.Fprintf(w, "  minute %d: %2d tickets let through to the chef %s\n", m, perMinute[m], strings.Repeat("▮", perMinute[m]))
		}
	}
	fmt.Fprintln(w, "\n  The bucket does not drop tickets: it spreads them, so the kitchen is never swamped.")
	fmt.Fprintln(w, "  (The kitchen's rail chooses to hold new tickets for the bucket. In client-go and")
	fmt.Fprintln(w, "  controller-runtime a queue's rate limiter paces only retries, AddRateLimited; a new")
	fmt.Fprintln(w, "  ticket, Add, never waits. See the tour: go run ./examples/tour -list.)")
	return nil
}
