// Package informer keeps a local, always-current copy of the API server's
// objects and tells your code about every change: the informer machinery
// of client-go's tools/cache, rebuilt small and typed.
//
// In the kitchen, the informer is the runner (传菜员). At the start of
// service the runner copies every table's order once from the front desk
// (List), then only listens for changes called out from the desk (Watch),
// writes each one on a sticky note, in the order heard (the queue: a
// [RealFIFO]), keeps the latest
// state of every order in memory (the [store.Indexer]) so that the chef
// never walks to the front desk, and rings the bell of everyone who asked
// to be told ([ResourceEventHandler]: the chef's ticket rail, a dashboard)
// — each listener has their own pile of notes, so a slow one never holds
// up the others. (Cooks are the pods; they are not told, they are sent.)
// Now and then the runner re-reads every order aloud to the listeners who
// asked (resync); and when the runner
// has been away so long that the desk no longer remembers what changed
// (410 Gone), the runner copies everything again and works out what was
// missed.
//
// The pieces below run left to right; a [SharedIndexInformer] wires them
// together, and a [SharedInformerFactory] shares one informer per kind
// across a program.
//
//	apiserver ─List/Watch─▶ Reflector ─▶ RealFIFO ─Pop─▶ SharedIndexInformer ─▶ Indexer (cache)
//	                                                         └─▶ one buffered queue per handler ─▶ OnAdd/OnUpdate/OnDelete
//
// # List
//
// A [Reflector] starts by listing every object of its kind through a
// [ListerWatcher] (any [client.ResourceInterface] is one: the in-process
// server's or the HTTP client's). The list comes with
// a resourceVersion: the point in the server's history it was read at.
// The Reflector hands the whole list to its store's Replace. Lists can be
// paged ([ReflectorOptions].PageSize).
//
// # Watch
//
// Then it watches from the list's resourceVersion: the server streams
// every change after that point, in order, so nothing between the list
// and the watch is lost. Each event, bookmarks included, advances the
// Reflector's last-seen resourceVersion. When a watch ends cleanly — the
// server restarted, a timeout passed — the Reflector watches again from
// that resourceVersion, without listing. Errors are retried after a
// [BackoffManager] (0.8s doubling to 30s, with jitter, as in client-go).
//
// Two exceptions, both client-go's. A watch from "0" starts with ADDED
// events for everything that exists, in no resourceVersion order; they do
// not advance the resourceVersion until an event of another type or a
// bookmark arrives, so a re-watch before then starts from "0" again. (Real
// servers never report "0"; a hand-written ListerWatcher might.) And a
// watch that ends within a second of being requested, having delivered
// nothing, is taken as broken ([VeryShortWatchError]): the Reflector backs
// off and lists again.
//
// In watch-list mode ([Options].UseWatchList) the initial state arrives
// on the watch itself, as ADDED events ended by a bookmark annotated
// meta.InitialEventsEndAnnotation, instead of a separate list.
//
// # The queue
//
// The Reflector does not touch the cache. It writes to a queue, which the
// informer pops, one entry at a time, to apply each change to the cache
// and tell the handlers. By default ([QueueAtomic]) the queue is what
// client-go v0.37 uses — a [RealFIFO] with atomic events:
//
//   - Every change is its own entry, in the order the server made it, so
//     the cache and the handlers see changes across objects in that
//     order.
//   - A list (the first one, or a relist after 410) is one entry,
//     ReplacedAll. The informer applies it to the cache in one step —
//     nobody reading the cache ever sees half a relist — and only then
//     tells the handlers: first OnDelete(obj, true) for every cached
//     object the list lacks, then, in list order, OnUpdate for each
//     object it had (old and new the same resourceVersion if it did not
//     change) and OnAdd for each new one.
//   - A resync is one entry, SyncAll: in its turn, every cached object is
//     re-delivered as it then is.
//   - A watch bookmark is an entry too. So the cache can say how far it
//     has caught up: [store.Indexer.LastStoreSyncResourceVersion] is the
//     resourceVersion of the last list, change or bookmark applied, and
//     everything before it is in the cache. A controller that wrote an
//     object at resourceVersion N can wait until the cache is at N or
//     later before it trusts what it reads (package reconcile's
//     Freshness).
//   - The informer processes an entry without holding the queue's lock,
//     so the Reflector keeps queueing meanwhile.
//
// The stories — and client-go before 1.33 — describe the [DeltaFIFO]
// ([QueueDeltaFIFO]): a queue of keys, where each key collects its
// changes ([Deltas]: Added, Updated, Deleted, Replaced, Sync) until the
// informer pops it. A key keeps its place while changes pile up, so a
// busy object cannot starve the others — but b's add, queued after a's
// first update, is told after a's later updates too: the order across
// objects is lost. A relist is spread into one Replaced delta per object
// and the tombstones come last, and since changes are applied out of
// order the cache can vouch for no resourceVersion (it stays "", as
// client-go's does with its AtomicFIFO gate off). Client-go 1.33 made
// every informer use a RealFIFO (InOrderInformers) for the order, and
// 1.36 made its events atomic (AtomicFIFO) for the relist and the
// resourceVersion. [QueueInOrder] is the step between: one entry per
// change and per listed object, tombstones first. [ExampleQueueKind]
// shows one relist behind each.
//
// # Indexer
//
// The informer applies what it pops to a [store.Indexer], the cache: objects by "namespace/name", plus named
// indexes (the namespace index is always there). A [Lister] reads it,
// typed, the way controllers do instead of calling the server. Cached
// objects are shared — with every handler and lister, and with an
// in-process API server, whose watch hands every watcher its own stored
// object: never mutate them; change an [meta.DeepCopy]. A test can
// catch a mutation with the server's cache mutation detector
// ([apiserver.CacheMutationDetectorEnv]). A transform hook
// ([Options].Transform) can trim objects before they are cached.
//
// # Handlers
//
// For every change applied to the cache, the informer queues a
// notification for each [ResourceEventHandler]: OnAdd, OnUpdate or
// OnDelete. Each handler has its own unbounded queue and goroutine, so it
// sees changes in order and never blocks the informer or other handlers.
// A handler added while the informer runs first receives OnAdd for
// everything cached. [Registration.HasSynced] says when a handler has seen
// the whole initial list — which the informer's own HasSynced does not
// (kubernetes#113763). [WaitForCacheSync] waits for several of them.
//
// # Resync
//
// With a resync period, the informer periodically re-delivers every cached
// object as OnUpdate(obj, obj) — same resourceVersion — to the handlers
// whose own period is due, so that a controller re-checks the world even
// if it missed something. Resync does not talk to the server.
//
// A relist makes the same kind of update: a handler gets OnUpdate(old,
// new) with old == new for every object that did not change, so tolerate
// them. As in client-go, without a resync period every handler gets them;
// with one, a handler gets them until the informer's first resync check,
// and afterwards only while its own resync is due.
//
// # 410 Gone
//
// The server keeps a bounded history. A Reflector that was away too long
// asks to watch from a resourceVersion the server has forgotten and gets
// 410 Expired. It lists again, and the informer compares the new list
// with the cache: objects that vanished in between get a tombstone
// ([DeletedFinalStateUnknown]), which reaches the handlers as
// OnDelete(obj, true) carrying the last state the cache knew — a typed
// value, never something to type-assert. (Behind a DeltaFIFO its Replace
// makes the tombstones, against the cache and what is still queued.)
package informer
