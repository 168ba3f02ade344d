// Package lessons holds the logic of the lesson programs under examples/,
// one exported function per lesson, so that the programs stay a few lines
// long and the tests can run each lesson and check what it tells.
//
// Each lesson writes its narration to an io.Writer and returns an error
// if the restaurant did not behave as the lesson says it should. Given a
// context from [WithConductor], a lesson's kitchen takes one hand-off at
// a time (see kitchentest.Conductor): the programs' tests play them so, in
// virtual time, and pin their whole narration in golden files (package
// examples/internal/golden).
package lessons

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/kitchentest"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// Minute is the kitchen minute of the lessons: fast, but slow enough for
// the chef to react well within one.
const Minute = 5 * time.Millisecond

// heading prints a lesson's section title.
func heading(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "\n== %s ==\n", fmt.Sprintf(format, args...))
}

// open opens a restaurant and runs it until the returned stop is called;
// stop waits for everything to end.
func open(ctx context.Context, cfg restaurant.Config) (*restaurant.Restaurant, func() error, error) {
	if cfg.Minute == 0 {
		cfg.Minute = Minute
	}
	conductorFrom(ctx).Pace(&cfg)
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Out != nil && cfg.Verbosity > narration.Quiet {
		fmt.Fprintln(cfg.Out)
		narration.WhoIsWho(cfg.Out)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	_ = r.WaitReady(ctx) && turn(ctx)
	return r, func() error {
		// Closing time: let the last hand-offs finish, then stop.
		_ = sleep(ctx, r, 2*time.Minute)
		cancel()
		return <-done
	}, nil
}

// pause lets a little kitchen time pass, so that the hand-offs in flight
// are narrated before the lesson moves on.
func pause(ctx context.Context, r *restaurant.Restaurant) {
	_ = sleep(ctx, r, time.Minute)
	settle(ctx, r)
}

// quietTime is how long, in real time, the kitchen must tell nothing
// before [settle] calls it settled.
const quietTime = 20 * time.Millisecond

// settle waits until the kitchen has told nothing for [quietTime], so
// that what the last step caused — a handler's ticket, a predicate's
// drop, told from other goroutines — is narrated before the lesson moves
// on to its next heading. With a conductor the kitchen is already quiet
// whenever the waiter has his turn, and settle returns at once.
func settle(ctx context.Context, r *restaurant.Restaurant) {
	if conductorFrom(ctx) != nil || r.Tracer == nil {
		return
	}
	told := make(chan struct{}, 1)
	defer r.Tracer.Subscribe(func(trace.Record) {
		select {
		case told <- struct{}{}:
		default:
		}
	})()
	quiet := time.NewTimer(quietTime)
	defer quiet.Stop()
	for {
		select {
		case <-told:
			quiet.Reset(quietTime)
		case <-quiet.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// sleep lets d of kitchen time pass, then waits for the waiter's turn
// (see [turn]) before the lesson acts again.
func sleep(ctx context.Context, r *restaurant.Restaurant, d time.Duration) error {
	if err := r.Clock.Sleep(ctx, d); err != nil {
		return err
	}
	if !turn(ctx) {
		return ctx.Err()
	}
	return nil
}

// waitFor waits until cond holds for the order name, as the runner's
// cache has it (see restaurant.Restaurant.WaitForOrder), then for the
// waiter's turn.
func waitFor(ctx context.Context, r *restaurant.Restaurant, name string, cond func(*kitchen.Order) bool) error {
	if err := r.WaitForOrder(ctx, name, cond); err != nil {
		return err
	}
	settle(ctx, r)
	if !turn(ctx) {
		return fmt.Errorf("waiting for order %s: %w", name, ctx.Err())
	}
	return nil
}

// turn waits until the lesson may act on the kitchen: at once, unless ctx
// carries a conductor (see kitchentest.Conductor.WaitTurn). It returns
// false if ctx ended first.
func turn(ctx context.Context) bool {
	return conductorFrom(ctx).WaitTurn(ctx)
}

// conductorFrom returns the conductor ctx carries (nil: none).
func conductorFrom(ctx context.Context) *kitchentest.Conductor {
	c, _ := ctx.Value(conductorKey{}).(*kitchentest.Conductor)
	return c
}

// conductorKey is the context key of [WithConductor].
type conductorKey struct{}

// WithConductor returns ctx carrying c: the lessons run with it pace
// their restaurant with c (kitchentest.Conductor.Pace) and act in the
// waiter's turns, so that their narration is the same every run (for
// tests, which drive c with synctest.Wait).
func WithConductor(ctx context.Context, c *kitchentest.Conductor) context.Context {
	return context.WithValue(ctx, conductorKey{}, c)
}

// printLedger prints the pantry's account of some ingredients.
func printLedger(w io.Writer, r *restaurant.Restaurant, names ...string) {
	ledgers := r.Pantry.Ledgers(r.Clock.Now())
	if len(names) == 0 {
		names = slices.Sorted(maps.Keys(ledgers))
	}
	for _, name := range names {
		l := ledgers[name]
		fmt.Fprintf(w, "  %-14s opening %6d%-3s used %5d  wasted %5d  reserved %5d  on the shelf %6d\n",
			name, l.Opening, l.Unit, l.Used, l.Wasted, l.Reserved, l.Shelf)
	}
	if err := r.Pantry.Check(); err != nil {
		fmt.Fprintf(w, "  pantry: %v\n", err)
	} else {
		fmt.Fprintf(w, "  pantry balanced: nothing lost, nothing counted twice\n")
	}
}

// syncWriter serialises writes to w: a lesson's own lines and the
// narration of the restaurant's goroutines share one writer.
type syncWriter struct {
	mu sync.Mutex // guards w
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// serialised returns w wrapped so that concurrent writes never interleave.
func serialised(w io.Writer) io.Writer {
	if _, ok := w.(*syncWriter); ok {
		return w
	}
	return &syncWriter{w: w}
}
