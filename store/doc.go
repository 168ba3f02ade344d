// Package store is the informer's local cache: a goroutine-safe map of
// objects by key, with named indexes for fast lookups by something other
// than the key.
//
// In the kitchen, this is the runner's (传菜员) memory. The runner copied
// every order once and has heard about every change since, so when the
// chef asks "what is on table 7?" or "which orders are for the grill?",
// the runner answers from memory instead of walking to the front desk (the
// API server). The memory may lag the desk by a moment, but it never
// invents an order, and answering costs the desk nothing.
//
// The package mirrors client-go's tools/cache Store and Indexer, typed
// with generics: an [Indexer] of *Order hands back *Order, never
// interface{}. It asks of an object only its namespace and name ([Object]),
// so it depends on nothing but the standard library.
//
// # Keys
//
// Every object is stored under a key computed by a [KeyFunc]. The default,
// [MetaNamespaceKeyFunc], gives "namespace/name" ("name" for a
// cluster-scoped object); [SplitMetaNamespaceKey] takes a key apart again.
// Workqueues carry these keys, not objects, so a controller always reads
// the newest state from the cache when it gets to the work.
//
// # Indexes
//
// An index is a named [IndexFunc] that files each object under zero, one
// or several values, like the section an order is cooked in. The Indexer
// keeps, for every index and value, the set of keys filed there, and
// updates it on every Add, Update, Delete and Replace: an update moves the
// object between values, and a value whose last key leaves disappears.
// [Indexer.ByIndex] then answers "every order for the grill" without a
// scan. Inside, each stored object has a small integer id, and the
// index sets hold ids rather than key strings (client-go holds keys): a
// quarter of the bytes per entry, and an answer needs no second lookup. [NamespaceIndex] with [MetaNamespaceIndexFunc] is the one almost
// every informer has; listers use it to list one namespace.
//
// An index function that fails makes the call fail with an
// [*IndexFuncError] and leaves the store unchanged (client-go panics
// instead). Naming an index that does not exist is an error wrapping
// [ErrUnknownIndex], never a panic.
//
// # Sharing
//
// The Indexer stores the objects it is given and returns those same
// objects to every reader: it does not copy, because copying every read of
// a large cache would cost more than the cache. So objects you get from it
// are read-only. To change one, copy it first with meta.DeepCopy
// and send the copy to the API server; the informer will update the cache
// when the change comes back on the watch. Mutating a cached object in
// place corrupts what every other reader sees and can leave its index
// entries stale.
package store
