package reconcile_test

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/store"
)

// A controller remembers the resourceVersion of what it wrote for an
// object, and before acting on that object again checks that its cache
// has caught up: otherwise it would act on a world without its own last
// write — and, say, create the same child twice. Here the cache is an
// Indexer whose resourceVersion we move by hand; an informer behind the
// default (atomic) queue moves it as it applies the server's changes.
func ExampleFreshness() {
	cache := store.NewIndexer[*apiservertest.Widget](nil, nil)
	cache.Bookmark("41")
	fresh := reconcile.NewFreshness()
	widgets := meta.GroupResource{Group: "example.com", Resource: "widgets"}
	fresh.Track(widgets, cache)
	owner := reconcile.NamespacedName{Namespace: "ns", Name: "parent"}

	fmt.Println("before any write:", fresh.EnsureReady(owner))
	_ = fresh.WroteAt(owner, widgets, "42") // the server stored our child at 42
	fmt.Println("cache at 41:", fresh.EnsureReady(owner))
	cache.Bookmark("42")
	fmt.Println("cache at 42:", fresh.EnsureReady(owner))
	_ = fresh.WroteAt(owner, widgets, "50")
	fresh.Clear(owner) // the parent was deleted
	fmt.Println("after Clear:", fresh.EnsureReady(owner))
	// Output:
	// before any write: true
	// cache at 41: false
	// cache at 42: true
	// after Clear: true
}
