package workqueue

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQueueForgetsIdleItems: idle items are kept to be cheap to add again,
// but a queue that has seen many items forgets them once most are idle,
// and an item forgotten or kept behaves the same when added again.
func TestQueueForgetsIdleItems(t *testing.T) {
	q := New[int]()
	const n = 3 * maxIdleItems
	for i := range n {
		q.Add(i)
	}
	held, _ := q.Get() // item 0 stays in progress through the sweeps
	for i := range n - 1 {
		item, _ := q.Get()
		q.Done(item)
		if i%500 == 0 {
			checkQueue(t, q)
		}
	}
	if got := q.items.len(); got > maxIdleItems+1 {
		t.Errorf("the queue keeps %d items after all but one are done, want at most %d", got, maxIdleItems+1)
	}
	if got, n := len(q.items.index.Load().buckets), q.items.len(); got > 4*n {
		t.Errorf("the index has %d buckets for %d items: it did not shrink with the table", got, n)
	}
	for _, item := range []int{held, 1, n - 1} { // in progress, forgotten, kept
		q.Add(item)
		q.Add(item)
	}
	checkQueue(t, q)
	if got := q.Len(); got != 2 {
		t.Fatalf("Len() = %d after adding two idle items twice, want 2", got)
	}
	q.Done(held) // it was added again while in progress: queued now, last
	var got []int
	for q.Len() > 0 {
		item, _ := q.Get()
		q.Done(item)
		got = append(got, item)
	}
	if diff := cmp.Diff([]int{1, n - 1, held}, got); diff != "" {
		t.Errorf("items got (-want +got):\n%s", diff)
	}
	checkQueue(t, q)
}

// TestNodeSlabChunks: slots fill chunks of 8, 8, 16, 32, 64 and 128
// nodes, then of 256, in order and without gaps, and a node stays where
// it was put while the slab grows.
func TestNodeSlabChunks(t *testing.T) {
	var sl nodeSlab[int]
	const n = 2000
	nodes := make([]*itemNode[int], n)
	for i := range n {
		s, node := sl.alloc()
		if s != slot(i) {
			t.Fatalf("alloc %d returned slot %d", i, s)
		}
		node.item = i
		nodes[i] = node
	}
	var sizes []int
	for _, c := range sl.chunks {
		sizes = append(sizes, len(c))
	}
	want := []int{8, 8, 16, 32, 64, 128, 256, 256, 256, 256, 256, 256, 256}
	if diff := cmp.Diff(want, sizes); diff != "" {
		t.Errorf("chunk sizes (-want +got):\n%s", diff)
	}
	for i, node := range nodes {
		if got := sl.at(slot(i)); got != node || got.item != i {
			t.Fatalf("slot %d holds item %d at %p, want item %d at %p", i, got.item, got, i, node)
		}
		if got := sl.load(slot(i)); got != node {
			t.Fatalf("slot %d loads as %p without the lock, want %p", i, got, node)
		}
	}
}
