package workqueue

import (
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func prio(p int) *int { return &p }

// pqStep is one operation of a scripted priority-queue test.
type pqStep struct {
	op       string // "add", "get", "done", "wait" (let After pass)
	item     string
	priority *int
	after    time.Duration
}

func runPQ(t *testing.T, q *PriorityQueue[string], start time.Time, steps []pqStep) []got[string] {
	t.Helper()
	var gots []got[string]
	for _, s := range steps {
		switch s.op {
		case "add":
			q.AddWithOpts(AddOpts{Priority: s.priority, After: s.after}, s.item)
		case "get":
			item, p, shutdown := q.GetWithPriority()
			gots = append(gots, got[string]{Item: item, Priority: p, Shutdown: shutdown, At: time.Since(start)})
		case "done":
			q.Done(s.item)
		case "wait":
			advance(s.after)
		}
		checkPriorityQueue(t, q)
	}
	return gots
}

func TestPriorityQueueRules(t *testing.T) {
	const s = time.Second
	tests := []struct {
		name, reason string
		steps        []pqStep
		want         []got[string]
		wantLen      int
	}{{
		name:   "highest first, fifo within",
		reason: "priority orders bands; the order of adds orders a band",
		steps: []pqStep{{op: "add", item: "a"}, {op: "add", item: "b", priority: prio(1)}, {op: "add", item: "c"},
			{op: "add", item: "d", priority: prio(1)}, {op: "add", item: "e", priority: prio(-1)},
			{op: "get"}, {op: "get"}, {op: "get"}, {op: "get"}, {op: "get"}},
		want: []got[string]{{Item: "b", Priority: 1}, {Item: "d", Priority: 1}, {Item: "a"}, {Item: "c"}, {Item: "e", Priority: -1}},
	}, {
		name:   "raise moves to the back of the new band",
		reason: "controller-runtime gives a raised item a new add counter",
		steps: []pqStep{{op: "add", item: "a"}, {op: "add", item: "b", priority: prio(1)}, {op: "add", item: "c", priority: prio(1)},
			{op: "add", item: "a", priority: prio(1)}, {op: "get"}, {op: "get"}, {op: "get"}},
		want: []got[string]{{Item: "b", Priority: 1}, {Item: "c", Priority: 1}, {Item: "a", Priority: 1}},
	}, {
		name:   "lower and equal are ignored",
		reason: "re-adding never lowers a priority nor loses a place",
		steps: []pqStep{{op: "add", item: "a", priority: prio(5)}, {op: "add", item: "b", priority: prio(5)},
			{op: "add", item: "a", priority: prio(1)}, {op: "add", item: "a", priority: prio(5)}, {op: "get"}, {op: "get"}},
		want:    []got[string]{{Item: "a", Priority: 5}, {Item: "b", Priority: 5}},
		wantLen: 0,
	}, {
		name:   "held while processing, then at its add's place",
		reason: "controller-runtime keeps the re-added item's place; client-go's Queue would put it behind b",
		steps: []pqStep{{op: "add", item: "a"}, {op: "get"}, {op: "add", item: "a"}, {op: "add", item: "b"},
			{op: "done", item: "a"}, {op: "get"}, {op: "get"}},
		want: []got[string]{{Item: "a"}, {Item: "a"}, {Item: "b"}},
	}, {
		name:   "delay over: back of its band",
		reason: "an item whose delay ends gets a new add counter",
		steps: []pqStep{{op: "add", item: "a", after: s}, {op: "add", item: "b"}, {op: "wait", after: 2 * s},
			{op: "add", item: "c"}, {op: "get"}, {op: "get"}, {op: "get"}},
		want: []got[string]{{Item: "b", At: 2 * s}, {Item: "a", At: 2 * s}, {Item: "c", At: 2 * s}},
	}, {
		name:   "add now replaces a pending delayed add",
		reason: "one entry per item: the earlier ready time wins and the item keeps its first place",
		steps: []pqStep{{op: "add", item: "a", after: 10 * s}, {op: "add", item: "b"}, {op: "add", item: "a"},
			{op: "add", item: "end", after: 20 * s}, {op: "get"}, {op: "get"}, {op: "done", item: "a"}, {op: "get"}},
		want: []got[string]{{Item: "a"}, {Item: "b"}, {Item: "end", At: 20 * s}},
	}, {
		name:   "earliest ready time wins",
		reason: "a later delayed add does not push an item back",
		steps: []pqStep{{op: "add", item: "a", after: 3 * s}, {op: "add", item: "a", after: 5 * s},
			{op: "add", item: "a", after: 2 * s}, {op: "add", item: "end", after: 10 * s}, {op: "get"}, {op: "get"}},
		want: []got[string]{{Item: "a", At: 2 * s}, {Item: "end", At: 10 * s}},
	}, {
		name:   "raising a waiting item",
		reason: "the priority applies once the delay is over",
		steps: []pqStep{{op: "add", item: "a", after: s}, {op: "add", item: "a", after: s, priority: prio(3)},
			{op: "add", item: "b", after: s}, {op: "wait", after: s}, {op: "get"}, {op: "get"}},
		want: []got[string]{{Item: "a", Priority: 3, At: s}, {Item: "b", At: s}},
	}, {
		name:   "delayed item done while processing",
		reason: "a delay that ends while a worker holds the item waits for Done",
		steps: []pqStep{{op: "add", item: "a"}, {op: "get"}, {op: "add", item: "a", after: s}, {op: "wait", after: s},
			{op: "done", item: "a"}, {op: "get"}},
		want:    []got[string]{{Item: "a"}, {Item: "a", At: s}},
		wantLen: 0,
	}, {
		name:    "len counts only ready items",
		reason:  "waiting and held items are not ready for Get",
		steps:   []pqStep{{op: "add", item: "a"}, {op: "get"}, {op: "add", item: "a"}, {op: "add", item: "w", after: s}, {op: "add", item: "b"}},
		want:    []got[string]{{Item: "a"}},
		wantLen: 1,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := NewPriorityQueue[string](nil, QueueConfig{})
				defer q.ShutDown()
				if diff := cmp.Diff(tt.want, runPQ(t, q, time.Now(), tt.steps)); diff != "" {
					t.Errorf("Gets (-want +got): %s\n%s", tt.reason, diff)
				}
				if got := q.Len(); got != tt.wantLen {
					t.Errorf("Len() = %d, want %d", got, tt.wantLen)
				}
			})
		})
	}
}

func TestPriorityQueueRateLimitedWithAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewPriorityQueue(NewItemExponentialFailureRateLimiter[string](time.Second, time.Hour), QueueConfig{})
		defer q.ShutDown()
		start := time.Now()
		// As in controller-runtime, the shorter of After and the backoff wins.
		q.AddWithOpts(AddOpts{RateLimited: true, After: 3 * time.Second}, "a")        // backoff 1s
		q.AddWithOpts(AddOpts{RateLimited: true, After: 500 * time.Millisecond}, "b") // backoff 1s
		want := []got[string]{{Item: "b", At: 500 * time.Millisecond}, {Item: "a", At: time.Second}}
		gots := []got[string]{getAt[string](q, start), getAt[string](q, start)}
		if diff := cmp.Diff(want, gots); diff != "" {
			t.Errorf("Gets (-want +got):\n%s", diff)
		}
		checkPriorityQueue(t, q)
	})
}

func TestPriorityQueueShutDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewPriorityQueue[string](nil, QueueConfig{})
		q.AddWithOpts(AddOpts{Priority: prio(1)}, "a", "b")
		q.AddAfter("late", time.Hour)
		item, _ := q.Get()
		q.Add(item) // held
		done := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(done)
		}()
		synctest.Wait()
		q.Add("ignored")
		if !q.ShuttingDown() {
			t.Fatal("ShuttingDown() = false")
		}
		start := time.Now()
		gots := []got[string]{getAt[string](q, start)} // b is still ready
		q.Done("b")
		q.Done(item) // a is held: ready again
		<-done
		gots = append(gots, getAt[string](q, start), getAt[string](q, start))
		want := []got[string]{{Item: "b"}, {Item: "a"}, {Shutdown: true}}
		if diff := cmp.Diff(want, gots); diff != "" {
			t.Errorf("Gets after shutdown (-want +got):\n%s", diff)
		}
		checkPriorityQueue(t, q)
	})
}

func TestPriorityQueueShutDownWakesGet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewPriorityQueue[string](nil, QueueConfig{})
		ch := getAsync[string](q, time.Now())
		synctest.Wait()
		q.ShutDown()
		if g := <-ch; !g.Shutdown {
			t.Fatalf("Get = %+v, want shutdown", g)
		}
		q.AddWithOpts(AddOpts{}) // no items: nothing happens
	})
}

// TestPriorityQueueModel compares random adds, gets and dones (no delays)
// with a direct model: a list of (priority, counter) entries.
func TestPriorityQueueModel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewPriorityQueue[int](nil, QueueConfig{})
		defer q.ShutDown()
		m := newPQModel()
		r := rand.New(rand.NewPCG(3, 4))
		for range 3000 {
			switch item := r.IntN(20); r.IntN(3) {
			case 0:
				p := r.IntN(3)
				q.AddWithOpts(AddOpts{Priority: &p}, item)
				m.add(item, p)
			case 1:
				if want, ok := m.get(); ok {
					if got, p, _ := q.GetWithPriority(); got != want.item || p != want.priority {
						t.Fatalf("Get = %d (priority %d), model says %d (priority %d)", got, p, want.item, want.priority)
					}
				}
			case 2:
				q.Done(item)
				m.done(item)
			}
			checkPriorityQueue(t, q)
			if q.Len() != m.len() {
				t.Fatalf("Len() = %d, model says %d", q.Len(), m.len())
			}
		}
	})
}

// pqModel is the priority queue's rule book written as plainly as possible.
type pqModel struct {
	queued     map[int]*modelEntry // queued or held
	processing map[int]bool
	counter    int
}

type modelEntry struct{ item, priority, counter int }

func newPQModel() *pqModel {
	return &pqModel{queued: map[int]*modelEntry{}, processing: map[int]bool{}}
}

func (m *pqModel) add(item, p int) {
	if e, ok := m.queued[item]; ok {
		if p > e.priority {
			e.priority, e.counter = p, m.counter
			m.counter++
		}
		return
	}
	m.queued[item] = &modelEntry{item, p, m.counter}
	m.counter++
}

func (m *pqModel) get() (modelEntry, bool) {
	var best *modelEntry
	for _, e := range m.queued {
		if m.processing[e.item] {
			continue
		}
		if best == nil || e.priority > best.priority || e.priority == best.priority && e.counter < best.counter {
			best = e
		}
	}
	if best == nil {
		return modelEntry{}, false
	}
	delete(m.queued, best.item)
	m.processing[best.item] = true
	return *best, true
}

func (m *pqModel) done(item int) { delete(m.processing, item) }

func (m *pqModel) len() int {
	n := 0
	for item := range m.queued {
		if !m.processing[item] {
			n++
		}
	}
	return n
}

func TestPriorityQueueConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const producers, workers, keys, adds = 4, 3, 30, 300
		q := NewPriorityQueue[int](nil, QueueConfig{})
		var mu sync.Mutex
		inFlight, addedSince := map[int]bool{}, map[int]bool{}
		var wg sync.WaitGroup
		for p := range producers {
			wg.Go(func() {
				for i := range adds {
					k := (p*11 + i*7) % keys
					mu.Lock()
					addedSince[k] = true
					mu.Unlock()
					q.AddWithOpts(AddOpts{Priority: prio(i % 3), After: time.Duration(i%4) * time.Millisecond}, k)
				}
			})
		}
		var workersWG sync.WaitGroup
		for range workers {
			workersWG.Go(func() { work(t, q, &mu, inFlight, addedSince) })
		}
		wg.Wait()
		advance(time.Second) // every delayed add is due and processed
		q.ShutDownWithDrain()
		workersWG.Wait()
		checkPriorityQueue(t, q)
		for k, pending := range addedSince {
			if pending {
				t.Errorf("item %d was added but never processed afterwards", k)
			}
		}
	})
}

func TestPriorityQueueSteadyStateDoesNotAllocate(t *testing.T) {
	q := NewPriorityQueue[int](nil, QueueConfig{})
	defer q.ShutDown()
	priorities := []int{0, 1, 2}
	opts := []AddOpts{{Priority: &priorities[0]}, {Priority: &priorities[1]}, {Priority: &priorities[2]}}
	cycle := func() {
		for k := range 100 {
			q.AddWithOpts(opts[k%3], k)
			q.AddWithOpts(opts[(k+1)%3], k) // a duplicate, sometimes raising
		}
		for range 100 {
			k, _ := q.Get()
			q.AddWithOpts(opts[0], k) // held while processing
			q.Done(k)
		}
		for range 100 {
			k, _ := q.Get()
			q.Done(k)
		}
	}
	cycle()
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("AddWithOpts/Get/Done of 100 items allocates %v times, want 0", n)
	}
}
