package liveview

import (
	"context"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// catalogue lists the guided scenes, one per lesson with a picture.
func catalogue() []*scene {
	return []*scene{
		sceneWatchCut(), sceneRelist(), sceneRush(), sceneVIP(),
		sceneDedup(), sceneConflict(), sceneStale(), sceneFinalizer(), sceneLease(),
	}
}

// Matchers of held hand-offs.
func takeOf(key string) func(Hold) bool {
	return func(h Hold) bool { return h.What == "take" && h.Name == kitchen.RailName && h.Key == key }
}

func anyTake(h Hold) bool { return h.What == "take" && h.Name == kitchen.RailName }

func eventOf(key string) func(Hold) bool {
	return func(h Hold) bool { return h.What == "event" && h.Key == key }
}

func callOf(what, resource string) func(Hold) bool {
	return func(h Hold) bool { return h.What == what && h.Name == resource }
}

func either(a, b func(Hold) bool) func(Hold) bool {
	return func(h Hold) bool { return a(h) || b(h) }
}

// place has the waiter place an order for dish (random when "") and
// returns its key.
func (s *sceneRun) place(ctx context.Context, dish, section string) (string, error) {
	o, err := s.v.placeOne(ctx, dish, section)
	if err != nil {
		return "", err
	}
	s.say("the waiter places %s (%s, rv %s)", o.Name, o.Spec.Items[0].Dish, o.ResourceVersion)
	return joinKey(o.Namespace, o.Name), nil
}

// placeHeld places an order whose ticket a worker takes and then holds
// at the gate, before the chef sees it: every worker's take is held until
// the order's name is known, then only the order's.
func (s *sceneRun) placeHeld(ctx context.Context, dish string) (string, error) {
	s.v.gate.HoldOnly(anyTake)
	key, err := s.place(ctx, dish, "main")
	if err != nil {
		return "", err
	}
	s.v.gate.HoldOnly(takeOf(key))
	return key, s.held(ctx, "the order's ticket", 1, takeOf(key))
}

// held waits until the gate holds n hand-offs that match accepts.
func (s *sceneRun) held(ctx context.Context, what string, n int, match func(Hold) bool) error {
	return s.until(ctx, what, func() bool {
		c := 0
		for _, h := range s.v.gate.State().Waiting {
			if match(h) {
				c++
			}
		}
		return c >= n
	})
}

// The tour's chapters the scenes name, by number and title
// (examples/serve's tests check that they still agree with the tour).
const (
	tourDoc         = "go doc github.com/kitchensync/kitchensync/"
	tourCommand     = "go run ./examples/tour -step "
	tourDisconn     = tourCommand + "10"
	chapterDisconn  = "A chef that survives a disconnect"
	tourRail        = tourCommand + "6"
	chapterRail     = "The ticket rail: dedup and priority"
	tourConflict    = tourCommand + "2"
	chapterConflict = "Two waiters, one order: 409 Conflict"
	tourCancel      = tourCommand + "9"
	chapterCancel   = "The table leaves: finalizer and garbage collector"
	tourBucket      = tourCommand + "41"
	chapterBucket   = "both: the rail's limit on new tickets is a choice"
	// A scene with no tour chapter names the README's section.
	readme = "README.md"
)

func sceneWatchCut() *scene {
	return &scene{
		ID: "watch-cut", Title: "A watch cut, and the runner's way back",
		Question: "The front desk cuts every watch. What will the runner do next?",
		Choices:  []string{"List every order again", "Watch again from the last resourceVersion it saw", "Wait for the next resync"},
		Answer:   1,
		Explain: "The reflector remembers the resourceVersion of the last event it queued, and asks to WATCH from " +
			"there: no LIST, and nothing missed, because the front desk still has its history after that version. " +
			"A relist is needed only when that history is gone: the next scene.",
		Tour: tourDisconn, Chapter: chapterDisconn, Docs: []string{tourDoc + "informer Reflector", tourDoc + "apiserver Server.CloseWatches"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			if err := s.settle(ctx); err != nil {
				return nil, err
			}
			key := callOf("watch", "orders")
			s.v.gate.HoldOnly(key)
			s.v.r.Server.CloseWatches()
			s.say("the front desk cuts every watch at rv %s", s.v.r.Server.ResourceVersion())
			return key, nil
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			s.v.gate.Resume()
			return s.until(ctx, "the orders watch to start again", func() bool { return s.v.m.watching("orders") })
		},
	}
}

func sceneRelist() *scene {
	return &scene{
		ID: "relist-410", Title: "Compaction, 410 Gone, a relist and a tombstone",
		Question: "The history is compacted, and while the runner is cut off an order is deleted. How does the runner learn it is gone?",
		Choices:  []string{"From a DELETED watch event", "The relist no longer has it: its handlers get a tombstone", "It never does: the cache keeps it"},
		Answer:   1,
		Explain: "The runner's watch from its old resourceVersion was answered 410 Expired: the history it needed was " +
			"compacted away, so the DELETED event no longer exists. The reflector LISTs again; the new list lacks the " +
			"order, so the informer's queue replaces the cache in one step and tells the handlers OnDelete with " +
			"finalStateUnknown: a DeletedFinalStateUnknown tombstone carrying the last state the cache had.",
		Tour: tourDisconn, Chapter: chapterDisconn, Docs: []string{tourDoc + "informer DeletedFinalStateUnknown", tourDoc + "informer QueueAtomic"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			g, srv := s.v.gate, s.v.r.Server
			// Hold the chef off the new order, so that it gets no finalizer
			// and a delete removes it at once.
			key, err := s.placeHeld(ctx, "caesar-salad")
			if err != nil {
				return nil, err
			}
			g.HoldOnly(either(takeOf(key), callOf("list", "orders")))
			// Each of the runner's re-watches then gets one of the 410s.
			if err := s.settle(ctx); err != nil {
				return nil, err
			}
			s.data = s.v.m.countOf("tombstone")
			srv.CompactHistory()
			srv.FailNext(apiserver.VerbWatch, runnerWatches, meta.NewResourceExpired("too old resource version: compacted (a guided scene)"))
			srv.CloseWatches()
			s.say("the front desk compacts its history at rv %s and cuts every watch", srv.ResourceVersion())
			_, name := splitKey(key)
			if err := s.v.r.Waiter.Cancel(ctx, name); err != nil {
				return nil, err
			}
			s.say("while the runner is away, %s is deleted (rv %s)", name, srv.ResourceVersion())
			return callOf("list", "orders"), nil
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			s.v.gate.Resume()
			before := s.data.(int)
			return s.until(ctx, "the tombstone", func() bool { return s.v.m.countOf("tombstone") > before })
		},
	}
}

func sceneRush() *scene {
	return &scene{
		ID: "rush", Title: "Rush hour: the token bucket backs the rail up",
		Question: "50 orders arrive at once, and the rail admits about 5 new tickets a second. Where do the orders wait?",
		Choices:  []string{"In the runner's queue", "On the ticket rail, waiting for tokens", "At the cook stations"},
		Answer:   1,
		Explain: "The runner is fast: every order went through its queue, cache and handlers at once. The rail's token " +
			"bucket admits a new ticket only when it has a token, so the tickets pile up on the rail, each delayed " +
			"until its token comes due, and the workers take them as they become ready: the rail is the bottleneck, " +
			"and it protects the kitchen behind it. That is this rail's own rule: in client-go a queue's " +
			"BucketRateLimiter paces only AddRateLimited (retries), and an informer's Add never waits.",
		Tour: tourBucket, Chapter: chapterBucket, Docs: []string{tourDoc + "kitchen TicketRail", tourDoc + "workqueue RateLimiter"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			s.cleanup(s.v.limitRail())
			s.say("the rail's token bucket: %s", s.v.bucket())
			s.v.gate.HoldOnly(anyTake)
			for range RushHourOrders {
				if _, err := s.v.placeOne(ctx, "", ""); err != nil {
					return nil, err
				}
			}
			s.say("the waiter places %d orders at once", RushHourOrders)
			err := s.until(ctx, "the tickets to reach the rail", func() bool { return s.v.m.backlog() >= RushHourOrders-10 })
			return anyTake, err
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			s.v.gate.Resume()
			err := s.until(ctx, "the rail to admit every ticket", func() bool { return s.v.m.backlog() == 0 })
			s.say("every ticket admitted: the bucket's limit is lifted again")
			return err
		},
	}
}

func sceneVIP() *scene {
	return &scene{
		ID: "vip", Title: "A VIP jumps the line",
		Question: "Both workers are busy and four tickets wait on the rail. A VIP table orders now. Which ticket will the next free worker take?",
		Choices:  []string{"The oldest waiting ticket", "The VIP's ticket", "Whichever the scheduler picks"},
		Answer:   1,
		Explain: "The rail is a priority queue: a worker's Get takes the ready ticket of highest priority, first come " +
			"first served within a priority. The VIP section adds 100 to an order's priority, so its ticket goes " +
			"before the four that waited longer (controller-runtime's priority queue does the same).",
		Tour: tourRail, Chapter: chapterRail, Docs: []string{tourDoc + "kitchen TicketPriority", tourDoc + "workqueue PriorityQueue"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			s.v.gate.HoldOnly(anyTake)
			for range 6 {
				if _, err := s.place(ctx, "tomato-soup", "main"); err != nil {
					return nil, err
				}
			}
			if err := s.until(ctx, "four tickets waiting", func() bool { return s.v.m.ticketsIn("queued") >= 4 }); err != nil {
				return nil, err
			}
			vip, err := s.place(ctx, "tomato-soup", "vip")
			if err != nil {
				return nil, err
			}
			s.mu.Lock()
			s.state.Said = append(s.state.Said, "(the VIP's order is "+vip+")")
			s.mu.Unlock()
			err = s.until(ctx, "the VIP's ticket", func() bool { t, ok := s.v.m.ticketOf(vip); return ok && t.State == "queued" })
			return anyTake, err
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			err := s.until(ctx, "the next ticket a worker takes", func() bool {
				_, ok := s.v.gate.holding(func(h Hold) bool { return anyTake(h) && h.Key != "" && s.v.m.priorityOf(h.Key) >= kitchen.VIPBonus })
				return ok
			})
			if err == nil {
				s.say("the worker took the VIP's ticket first")
			}
			return err
		},
	}
}

func sceneDedup() *scene {
	return &scene{
		ID: "dedup", Title: "Dedup: three changes, one ticket",
		Question: "While both workers are busy, an order changes three times. How many tickets does it have on the rail?",
		Choices:  []string{"Three", "One", "None until a worker is free"},
		Answer:   1,
		Explain: "A work queue holds each key once: an add of a key already waiting is merged into its ticket. The " +
			"reconciler reads the latest state from the cache anyway, so one reconcile serves all three changes. An " +
			"add while a worker has the key marks it dirty instead: it goes back on the rail when the worker is done, " +
			"so a key is never worked by two workers at once.",
		Tour: tourRail, Chapter: chapterRail, Docs: []string{tourDoc + "workqueue Queue", tourDoc + "reconcile Controller"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			s.v.gate.HoldOnly(anyTake)
			for range 2 {
				if _, err := s.place(ctx, "tomato-soup", "main"); err != nil {
					return nil, err
				}
			}
			if err := s.busy(ctx); err != nil {
				return nil, err
			}
			key, err := s.place(ctx, "grilled-salmon", "main")
			if err != nil {
				return nil, err
			}
			_, name := splitKey(key)
			for _, extra := range []string{"black-truffle", "chili"} {
				o, err := s.v.r.Waiter.AddExtra(ctx, name, 0, extra)
				if err != nil {
					return nil, err
				}
				s.say("the waiter adds %s to %s (rv %s)", extra, name, o.ResourceVersion)
			}
			err = s.until(ctx, "the changes to merge", func() bool { t, ok := s.v.m.ticketOf(key); return ok && t.Merged >= 2 })
			return anyTake, err
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			s.v.gate.Resume()
			return nil
		},
	}
}

func sceneConflict() *scene {
	return &scene{
		ID: "conflict", Title: "A 409 Conflict, retried",
		Question: "A worker took an order's ticket; before the chef writes, the waiter changes the order, and the runner's cache has not heard yet. What happens when the chef writes?",
		Choices:  []string{"The chef's write wins; the waiter's change is lost", "The front desk refuses it (409 Conflict); the chef reads the order again and retries", "The front desk merges both"},
		Answer:   1,
		Explain: "Every write carries the resourceVersion it was computed from. The chef's cache still had the old " +
			"one, so the front desk refused the write with 409 Conflict rather than lose the waiter's change: " +
			"optimistic concurrency. The chef read the latest order from the front desk and wrote again " +
			"(client.RetryOnConflict, like client-go's retry.RetryOnConflict).",
		Tour: tourConflict, Chapter: chapterConflict, Docs: []string{tourDoc + "apiserver/client RetryOnConflict", tourDoc + "apiserver/meta IsConflict"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			g := s.v.gate
			key, err := s.placeHeld(ctx, "seafood-pasta")
			if err != nil {
				return nil, err
			}
			g.HoldOnly(either(takeOf(key), eventOf(key)))
			_, name := splitKey(key)
			o, err := s.v.r.Waiter.AddExtra(ctx, name, 0, "parmesan")
			if err != nil {
				return nil, err
			}
			s.say("the waiter adds parmesan to %s: rv %s (the runner's watch event for it is held)", name, o.ResourceVersion)
			s.data = s.v.m.conflicts()
			return takeOf(key), s.held(ctx, "the watch event", 1, eventOf(key))
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			before := s.data.(int)
			err := s.until(ctx, "the 409", func() bool { return s.v.m.conflicts() > before })
			s.v.gate.Resume()
			return err
		},
	}
}

func sceneFinalizer() *scene {
	return &scene{
		ID: "finalizer", Title: "A finalizer, then the garbage collector",
		Question: "The table leaves while its order is cooking. Can the order vanish while its cook is still at the stove?",
		Choices:  []string{"Yes: the delete removes it at once", "No: the chef's finalizer holds it until the chef has cleaned up", "The cook is deleted first, then the order"},
		Answer:   1,
		Explain: "The delete only set deletionTimestamp: the chef's finalizer holds the order. The chef's reconcile saw " +
			"it being deleted, stopped the work and removed its finalizer; only then did the front desk delete the " +
			"order. The cooks have the order as their owner, so the front desk's garbage collector deleted them after " +
			"it (ownerReferences, background propagation).",
		Tour: tourCancel, Chapter: chapterCancel, Docs: []string{tourDoc + "kitchen OrderFinalizer", tourDoc + "apiserver/gc"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			key, err := s.place(ctx, "beef-wellington", "main")
			if err != nil {
				return nil, err
			}
			_, name := splitKey(key)
			cooking := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderCooking }
			wctx, cancel := context.WithTimeout(ctx, sceneTimeout)
			defer cancel()
			if err := s.v.r.WaitForOrder(wctx, name, cooking); err != nil {
				return nil, err
			}
			s.say("%s is cooking", name)
			s.v.gate.HoldOnly(takeOf(key))
			s.data = s.v.m.countOf("gc")
			if err := s.v.r.Waiter.Cancel(ctx, name); err != nil {
				return nil, err
			}
			s.say("the table leaves: the waiter deletes %s", name)
			return takeOf(key), nil
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			s.v.gate.Resume()
			before := s.data.(int)
			return s.until(ctx, "the garbage collector", func() bool { return s.v.m.countOf("gc") > before })
		},
	}
}

// settle waits until the runner's watches have been open for longer
// than a very short watch. A reflector takes a watch that ends sooner,
// without an event, for a broken connection: it waits out its backoff and
// lists again, instead of watching again from its resourceVersion (as a
// scene that cuts the watches at once after another would show).
func (s *sceneRun) settle(ctx context.Context) error {
	return s.until(ctx, "the runner's watches to have run a second", func() bool { return s.v.m.watchesSettled(time.Now()) })
}

// busy waits until every chef worker holds a ticket at the gate: one
// does, and the two orders placed are held or waiting.
func (s *sceneRun) busy(ctx context.Context) error {
	return s.until(ctx, "every worker busy", func() bool {
		held := 0
		for _, h := range s.v.gate.State().Waiting {
			if anyTake(h) {
				held++
			}
		}
		return held >= 1 && held+s.v.m.ticketsIn("queued") >= 2
	})
}
