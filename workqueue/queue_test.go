package workqueue

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// step is one operation of a scripted queue test.
type step struct {
	op   string // "add", "get", "done"
	item string
	want string // for "get": the item Get must return
}

func TestQueueRules(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		steps   []step
		wantLen int
	}{{
		name:    "fifo",
		reason:  "items come out in the order they went in",
		steps:   []step{{op: "add", item: "a"}, {op: "add", item: "b"}, {op: "get", want: "a"}, {op: "get", want: "b"}},
		wantLen: 0,
	}, {
		name:    "collapse",
		reason:  "adding a queued item keeps one copy at its first place",
		steps:   []step{{op: "add", item: "a"}, {op: "add", item: "b"}, {op: "add", item: "a"}, {op: "get", want: "a"}},
		wantLen: 1,
	}, {
		name:   "held while processing",
		reason: "an item added while processing is not queued until Done",
		steps: []step{{op: "add", item: "a"}, {op: "get", want: "a"}, {op: "add", item: "a"}, {op: "add", item: "a"},
			{op: "add", item: "b"}},
		wantLen: 1,
	}, {
		name:   "requeued once after done, at the back",
		reason: "Done puts the re-added item behind what was queued meanwhile (client-go)",
		steps: []step{{op: "add", item: "a"}, {op: "get", want: "a"}, {op: "add", item: "a"}, {op: "add", item: "b"},
			{op: "done", item: "a"}, {op: "get", want: "b"}, {op: "get", want: "a"}},
		wantLen: 0,
	}, {
		name:    "done of unknown items",
		reason:  "Done of an item never handed out, or twice, does nothing",
		steps:   []step{{op: "done", item: "x"}, {op: "add", item: "a"}, {op: "done", item: "a"}, {op: "get", want: "a"}, {op: "done", item: "a"}, {op: "done", item: "a"}},
		wantLen: 0,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := New[string]()
			defer q.ShutDown()
			for _, s := range tt.steps {
				runStep(t, q, s)
				checkQueue(t, q)
			}
			if got := q.Len(); got != tt.wantLen {
				t.Errorf("Len() = %d, want %d (%s)", got, tt.wantLen, tt.reason)
			}
		})
	}
}

func runStep(t *testing.T, q *Queue[string], s step) {
	t.Helper()
	switch s.op {
	case "add":
		q.Add(s.item)
	case "done":
		q.Done(s.item)
	case "get":
		if got, shutdown := q.Get(); got != s.want || shutdown {
			t.Fatalf("Get() = %q, %v; want %q, false", got, shutdown, s.want)
		}
	}
}

func TestQueueGetBlocksUntilAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New[string]()
		defer q.ShutDown()
		ch := getAsync[string](q, time.Now())
		synctest.Wait()
		select {
		case g := <-ch:
			t.Fatalf("Get returned %+v from an empty queue", g)
		default:
		}
		q.Add("a")
		if g := <-ch; g.Item != "a" || g.Shutdown {
			t.Fatalf("Get = %+v, want a", g)
		}
		checkQueue(t, q)
	})
}

func TestQueueShutDownDrainsQueuedItems(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New[string]()
		q.Add("a")
		q.Add("b")
		item, _ := q.Get()
		q.Add("a") // dirty while processing
		q.ShutDown()
		q.Add("c") // ignored
		if !q.ShuttingDown() {
			t.Fatal("ShuttingDown() = false after ShutDown")
		}
		start := time.Now()
		var gots []got[string]
		gots = append(gots, getAt[string](q, start)) // b is still queued
		q.Done(item)                                 // a was added again while processing: queued now
		gots = append(gots, getAt[string](q, start), getAt[string](q, start))
		want := []got[string]{{Item: "b"}, {Item: "a"}, {Shutdown: true}}
		if diff := cmp.Diff(want, gots); diff != "" {
			t.Errorf("Gets after ShutDown (-want +got):\n%s", diff)
		}
		checkQueue(t, q)
	})
}

func TestQueueShutDownWakesBlockedGets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New[int]()
		a, b := getAsync[int](q, time.Now()), getAsync[int](q, time.Now())
		synctest.Wait()
		q.ShutDown()
		if ga, gb := <-a, <-b; !ga.Shutdown || !gb.Shutdown {
			t.Fatalf("blocked Gets returned %+v, %+v; want shutdown", ga, gb)
		}
	})
}

func TestQueueShutDownWithDrainWaitsForDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New[string]()
		q.Add("a")
		item, _ := q.Get()
		returned := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(returned)
		}()
		synctest.Wait()
		select {
		case <-returned:
			t.Fatal("ShutDownWithDrain returned while an item was in progress")
		default:
		}
		q.Done(item)
		synctest.Wait()
		select {
		case <-returned:
		default:
			t.Fatal("ShutDownWithDrain did not return after the last Done")
		}
	})
}

func TestQueueShutDownEndsDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New[string]()
		q.Add("a")
		item, _ := q.Get()
		returned := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(returned)
		}()
		synctest.Wait()
		q.ShutDown() // as in client-go: a plain ShutDown stops the wait
		<-returned
		q.Done(item)
		checkQueue(t, q)
	})
}

// TestQueueConcurrent runs producers and workers together (meaningful under
// -race): no item is ever processed by two workers at once, and every item
// is processed after its last add.
func TestQueueConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const keys = 50
		runConcurrently(t, New[int](), 4, 3, 500, func(p, i int) int { return (p*7 + i*13) % keys })
	})
}

// TestQueueConcurrentSweeps is TestQueueConcurrent over so many items that
// the queue forgets idle ones while producers look items up without its
// lock: an add that finds a forgotten node must not be lost.
func TestQueueConcurrentSweeps(t *testing.T) {
	const producers, keys = 4, 5 * maxIdleItems
	q := New[int]()
	runConcurrently(t, q, producers, 2, 2*keys, func(p, i int) int {
		return (i/2 + p*keys/producers) % keys // each key twice in a row: the second add usually merges
	})
	if n := q.items.len(); n > 2*maxIdleItems {
		t.Errorf("the queue keeps %d of %d items, all idle: it never swept", n, keys)
	}
}

// runConcurrently has producers each add key(p, i) for i < adds while
// workers process, then drains q and checks that no item was processed by
// two workers at once and that every item was processed after its last add.
func runConcurrently(t *testing.T, q *Queue[int], producers, workers, adds int, key func(p, i int) int) {
	var mu sync.Mutex
	inFlight := map[int]bool{}
	addedSince := map[int]bool{} // added and not yet processed since
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range adds {
				k := key(p, i)
				mu.Lock()
				addedSince[k] = true
				mu.Unlock()
				q.Add(k)
			}
		})
	}
	var workersWG sync.WaitGroup
	for range workers {
		workersWG.Go(func() { work(t, q, &mu, inFlight, addedSince) })
	}
	wg.Wait()
	q.ShutDownWithDrain()
	workersWG.Wait()
	checkQueue(t, q)
	for k, pending := range addedSince {
		if pending {
			t.Errorf("item %d was added but never processed afterwards", k)
		}
	}
}

// work is a worker that checks, under mu, that no item is processed twice at
// once, and clears addedSince for each item it processes.
func work(t *testing.T, q worker[int], mu *sync.Mutex, inFlight, addedSince map[int]bool) {
	for {
		k, shutdown := q.Get()
		if shutdown {
			return
		}
		mu.Lock()
		if inFlight[k] {
			t.Errorf("item %d handed to two workers at once", k)
		}
		inFlight[k] = true
		addedSince[k] = false // processing now sees every earlier add
		mu.Unlock()
		mu.Lock()
		inFlight[k] = false
		mu.Unlock()
		q.Done(k)
	}
}

func TestQueueSteadyStateDoesNotAllocate(t *testing.T) {
	q := New[int]()
	defer q.ShutDown()
	cycle := func() {
		for k := range 100 {
			q.Add(k)
			q.Add(k) // a duplicate
		}
		for range 100 {
			k, _ := q.Get()
			q.Add(k) // while processing
			q.Done(k)
		}
		for range 100 {
			k, _ := q.Get()
			q.Done(k)
		}
	}
	cycle() // grow the ring and the map to their high-water marks
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("Add/Get/Done of 100 items allocates %v times, want 0", n)
	}
}

func TestRing(t *testing.T) {
	var r ring[int]
	next, want := 0, 0
	// Interleave pushes and pops so the ring wraps around and grows while
	// wrapped.
	for round := range 50 {
		for range round % 7 * 3 {
			r.push(next)
			next++
		}
		for range round % 5 {
			if r.len() == 0 {
				break
			}
			if got := r.pop(); got != want {
				t.Fatalf("pop() = %d, want %d", got, want)
			}
			want++
		}
	}
	if r.len() != next-want {
		t.Fatalf("len() = %d, want %d", r.len(), next-want)
	}
	for r.len() > 0 {
		if got := r.pop(); got != want {
			t.Fatalf("pop() = %d, want %d", got, want)
		}
		want++
	}
}
