// Package informer keeps a local, always-current copy of the API server's
// objects and tells your code about every change: the informer machinery
// of client-go's tools/cache, rebuilt small and typed.
//
// In the kitchen, the informer is the runner (传菜员). At the start of
// service the runner copies every table's order once from the front desk
// (List), then only listens for changes called out from the desk (Watch),
// writes each one on a sticky note (the [DeltaFIFO]), keeps the latest
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
//	apiserver ─List/Watch─▶ Reflector ─▶ DeltaFIFO ─Pop─▶ SharedIndexInformer ─▶ Indexer (cache)
//	                                                          └─▶ one buffered queue per handler ─▶ OnAdd/OnUpdate/OnDelete
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
// # DeltaFIFO
//
// The Reflector does not touch the cache. It writes to a [DeltaFIFO]: a
// queue of keys, where each key collects its changes ([Deltas]: Added,
// Updated, Deleted, Replaced, Sync) until the informer pops it. A key
// keeps its place while changes pile up, so a busy object cannot starve
// the others. With [Options].InOrder the informer uses a [RealFIFO]
// instead, which queues every change on its own, in arrival order.
//
// # Indexer
//
// The informer pops one key at a time and applies its deltas to a
// [store.Indexer], the cache: objects by "namespace/name", plus named
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
// 410 Expired. It lists again, and the DeltaFIFO's Replace compares the
// new list with the cache: objects that vanished in between get a
// tombstone ([DeletedFinalStateUnknown]), which reaches the handlers as
// OnDelete(obj, true) carrying the last state the cache knew — a typed
// value, never something to type-assert.
package informer
