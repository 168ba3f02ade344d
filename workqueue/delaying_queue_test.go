package workqueue

import (
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// getAll calls Get n times, Done after each, and returns what it got with
// the virtual times.
func getAll(t *testing.T, q *DelayingQueue[string], start time.Time, n int) []got[string] {
	t.Helper()
	var gots []got[string]
	for range n {
		g := getAt[string](q, start)
		gots = append(gots, g)
		q.Done(g.Item)
		checkDelaying(t, q)
	}
	return gots
}

func TestAddAfterReadyTimes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewDelaying[string]()
		defer q.ShutDown()
		start := time.Now()
		q.AddAfter("c", 3*time.Second)
		q.AddAfter("a", time.Second)
		q.AddAfter("b", 2*time.Second)
		q.AddAfter("b2", 2*time.Second) // same instant as b: first in, first out
		q.AddAfter("now", 0)            // d <= 0 adds at once
		q.AddAfter("past", -time.Second)
		checkDelaying(t, q)
		want := []got[string]{
			{Item: "now"}, {Item: "past"},
			{Item: "a", At: time.Second}, {Item: "b", At: 2 * time.Second},
			{Item: "b2", At: 2 * time.Second}, {Item: "c", At: 3 * time.Second},
		}
		if diff := cmp.Diff(want, getAll(t, q, start, len(want))); diff != "" {
			t.Errorf("Gets (-want +got):\n%s", diff)
		}
	})
}

func TestAddAfterKeepsEarliest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewDelaying[string]()
		defer q.ShutDown()
		start := time.Now()
		q.AddAfter("a", 10*time.Second)
		q.AddAfter("a", 2*time.Second)    // earlier: wins
		q.AddAfter("a", 5*time.Second)    // later: ignored
		q.AddAfter("end", 20*time.Second) // a sentinel: nothing comes before it but a at 2s
		checkDelaying(t, q)
		want := []got[string]{{Item: "a", At: 2 * time.Second}, {Item: "end", At: 20 * time.Second}}
		if diff := cmp.Diff(want, getAll(t, q, start, len(want))); diff != "" {
			t.Errorf("Gets (-want +got):\n%s", diff)
		}
	})
}

// TestAddDoesNotCancelAddAfter pins client-go's behaviour (kubernetes#126027):
// a plain Add of an item that waits for AddAfter processes it now, and the
// pending delayed add still fires later.
func TestAddDoesNotCancelAddAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewDelaying[string]()
		defer q.ShutDown()
		start := time.Now()
		q.AddAfter("a", 5*time.Second)
		q.Add("a")
		want := []got[string]{{Item: "a"}, {Item: "a", At: 5 * time.Second}}
		if diff := cmp.Diff(want, getAll(t, q, start, len(want))); diff != "" {
			t.Errorf("Gets (-want +got):\n%s", diff)
		}
	})
}

func TestAddAfterCollapsesWithQueuedItem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewDelaying[string]()
		defer q.ShutDown()
		q.Add("a")
		q.AddAfter("a", time.Second)
		advance(time.Second) // the delayed add finds a still queued
		if got := q.Len(); got != 1 {
			t.Errorf("Len() = %d after the delayed add of a queued item, want 1", got)
		}
		checkDelaying(t, q)
	})
}

func TestDelayingShutDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewDelaying[string]()
		q.AddAfter("late", time.Hour)
		ch := getAsync[string](q, time.Now())
		synctest.Wait()
		q.ShutDown() // ends the timer goroutine (the bubble would report it otherwise) and drops "late"
		if g := <-ch; !g.Shutdown || g.At != 0 {
			t.Fatalf("Get = %+v, want shutdown at once", g)
		}
		q.AddAfter("ignored", 0)
		q.AddAfter("ignored", time.Second)
		if q.Len() != 0 {
			t.Fatalf("Len() = %d after shutdown, want 0", q.Len())
		}
	})
}

func TestDelayingShutDownWithDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := NewDelaying[string]()
		q.Add("a")
		q.AddAfter("b", time.Minute)
		item, _ := q.Get()
		done := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(done)
		}()
		synctest.Wait()
		q.Done(item)
		<-done
		if g, shutdown := q.Get(); !shutdown {
			t.Fatalf("Get = %q after drain, want shutdown (delayed items are dropped)", g)
		}
	})
}

// TestWaitSetModel drives a waitSet with random adds and removals and
// compares it with a map of earliest ready times.
func TestWaitSetModel(t *testing.T) {
	var w waitSet[int]
	base := time.Unix(0, 0)
	w.init(base)
	model := map[int]time.Time{}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		if r.IntN(3) > 0 {
			item, at := r.IntN(40), base.Add(time.Duration(r.IntN(100))*time.Second)
			w.add(item, at)
			if old, ok := model[item]; !ok || at.Before(old) {
				model[item] = at
			}
		} else if w.len() > 0 {
			item, at := w.first()
			for _, other := range model {
				if other.Before(at) {
					t.Fatalf("first() = %v at %v, but an item is ready at %v", item, at, other)
				}
			}
			if !model[item].Equal(at) {
				t.Fatalf("first() = %v at %v, model says %v", item, at, model[item])
			}
			w.removeFirst()
			delete(model, item)
		}
		checkWaitSet(t, &w)
	}
	if len(w.slots) != len(model) {
		t.Fatalf("%d items waiting, model has %d", len(w.slots), len(model))
	}
}
