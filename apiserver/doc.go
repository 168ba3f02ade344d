// Package apiserver is an in-memory Kubernetes API server: typed objects,
// a scheme of kinds, create/get/list/update/patch/delete, and watches that
// resume from a resourceVersion, with the semantics and errors of the real
// one.
//
// In the kitchen, the API server is the front desk where every order is
// written down. Nobody cooks from memory: the waiter writes an order into
// the book, the runner reads the book and tells the chef, the chef writes
// back how the dish is going. Every write gets the next line number of the
// order book — its resourceVersion — so anyone who has read up to line 41
// can ask "what happened after 41?" and miss nothing.
//
// # Objects
//
// The objects, their metadata, the options of every request and the
// errors of every answer are the vocabulary of package
// [github.com/kitchensync/kitchensync/apiserver/meta]: an [meta.Object]
// embeds [meta.TypeMeta] and [meta.ObjectMeta]; a change to its Spec bumps
// metadata.generation, and its Status is written only through the status
// subresource ([ResourceClient.UpdateStatus], or a Patch of "status"), so
// a controller's status write never fights a user's spec edit.
//
// A [meta.Scheme] registers each kind once, as a [meta.KindInfo]: group, version,
// kind, plural resource, namespaced or not, how to make an empty one, and
// its extra field selectors. The [Server] stores copies: every object a
// request returns (get, list, create, update, patch, delete) is the
// caller's own [meta.DeepCopy], so changing it changes nothing until it is
// written back. Objects from a watch are the exception: see below.
//
// A kind may also be served in a second group and version, as
// Kubernetes serves one stored Event as core/v1 and as events.k8s.io/v1:
// a [meta.ServedVersion] gives that version's Go type and a pair of
// conversions, and [meta.Scheme.RegisterServedVersion] adds it. The server
// stores and watches the stored kind only; the HTTP front converts.
//
// # ResourceVersions
//
// The server keeps one counter for all resources, like etcd's revision.
// Every successful write takes the next value and stamps it on the object
// as metadata.resourceVersion; a no-op update takes none. Treat it as
// opaque: compare for equality, never do arithmetic on it. An update
// carries the resourceVersion it read; if the object has changed since,
// the update fails with 409 Conflict ([meta.IsConflict]) and the cure is to
// read again, reapply the change and retry. A patch
// ([ResourceClient.Patch]) needs no resourceVersion: the server applies
// it to whatever is stored. A list reports the resourceVersion it was
// read at, the starting point for a watch.
//
// # Server-side apply
//
// A Patch of [meta.ApplyPatchType] (or [client.Client.Apply]) is a field
// manager's whole intent: "these fields, these values". The server merges
// it into the object and records in metadata.managedFields which manager
// owns which field, with package
// [github.com/kitchensync/kitchensync/apiserver/fieldmanager]; a field
// another manager owns is a 409 Conflict unless Force takes it.
//
// # Watches
//
// A watch streams events (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) for
// one resource, honouring the same label and field selectors as a list.
// Where it starts depends on [meta.ListOptions.ResourceVersion]:
//
//   - "" or "0": synthetic ADDED events for everything that exists now,
//     then live events.
//   - N: every event after N, in order, none skipped — the changes
//     between a list at N and the watch included. This is how an informer
//     lists once and then never misses a delete.
//   - N older than the history the server keeps: a single ERROR event
//     carrying a 410 Expired [meta.Status] ("too old resource version"), then
//     the watch ends. The client must list again ([meta.IsExpired]).
//
// With AllowWatchBookmarks, the server now and then sends a BOOKMARK: an
// object with only a newer resourceVersion, so an idle watcher can resume
// from a recent point. As from the real server's watch cache, one comes
// every [Options.BookmarkInterval] (a minute) and one 2 seconds before
// the watch's timeout, once the server has moved past where the watch
// started. In watch-list mode (SendInitialEvents with
// resourceVersionMatch NotOlderThan) with AllowWatchBookmarks, the
// initial ADDED events end with a BOOKMARK annotated
// [meta.InitialEventsEndAnnotation].
//
// A watcher that stops reading is cut off: its watch ends, and it must
// watch again from the last resourceVersion it saw. A slow reader never
// blocks a writer.
//
// # Shared objects
//
// The object of a watch event is not a copy: it is the server's own,
// shared by every watcher of the event and, through informers, by every
// cache, lister and handler that holds it — one copy for all, as
// client-go's informer caches share theirs. Treat it as read-only. To
// change an object, change a copy ([meta.DeepCopy]) and write the copy; a
// change made in place corrupts what the server and every other reader
// see, and is never sent anywhere. [Options].CacheMutationDetector (or
// the environment variable [CacheMutationDetectorEnv]) catches such a
// change, as client-go's cache mutation detector does.
//
// # Owners and garbage
//
// A controller marks what it creates with an [meta.OwnerReference] to the
// object it works for ([meta.NewControllerRef]): the cooks an order needs
// point at the order. When the owner is gone, the garbage collector
// (package [github.com/kitchensync/kitchensync/apiserver/gc]) deletes
// every dependent that has no other living owner, and takes the dead
// reference off those that do, as a cluster's collector does with
// background propagation (the default). Finalizers still hold.
// [meta.DeleteOptions].PropagationPolicy picks another order, as
// `kubectl delete --cascade` does: foreground keeps the owner until its
// blocking dependents are gone, orphan keeps the dependents.
//
// # Namespaces
//
// When a scheme registers the Namespace kind (apiserver/builtin does),
// namespaces are real: a create in a namespace that does not exist is 404,
// one in a namespace being deleted is 403, and the namespace controller
// empties a deleted namespace before it goes (package
// [github.com/kitchensync/kitchensync/apiserver/namespaces]). Without that
// kind, a namespace is only a name, and any name will do.
//
// # Validation and errors
//
// Names, labels, annotations, owner references and size are checked for
// every kind, with the rules of package meta; a kind adds its own in its
// [meta.KindInfo]'s Validate function, as a CustomResourceDefinition adds
// a schema. A write that breaks a rule is refused whole with 422 Invalid,
// each cause naming its field. Every failure is a [*meta.StatusError];
// test it with [meta.IsNotFound], [meta.IsConflict] and the other
// predicates, never by its message.
//
// # Faults
//
// Real clusters misbehave, and a controller must cope. The server can
// misbehave on demand, deterministically: [Server.CloseWatches] ends every
// watch, [Server.CompactHistory] (with [Options.CompactionDropsHistory])
// forgets history so that older resourceVersions get 410, [Server.FailNext] fails the next requests of a
// verb with a chosen error, and [Server.SetLatency] slows every call.
// [Server.RequestCount] shows how many calls a client made.
//
// # Restarts and durability
//
// A server from [NewServer] lives in memory: when its process ends, its
// objects are gone. [Open] gives one that keeps them in a directory, as
// the real API server keeps them in etcd: every write is appended to a
// log and synced to the disk before it is acknowledged (writers at once
// share a sync), and a server opened on the same directory later holds
// the same objects at the same resourceVersions. What it does not keep is the history of events: a
// client of the old process that watches from its last resourceVersion
// gets 410 Expired and lists again, as after a compaction. A server
// started afresh (no directory) should not pretend to be the old one:
// give it [Options.ResourceVersionStart] (see [ResourceVersionFromClock])
// so that old resourceVersions expire instead of being mistaken for new.
//
// # Where to find what
//
// The package is the core of the server: [Server] and its [Options], the
// untyped [ResourceClient] (the server is also a [client.Interface], so
// the typed [client.Client] works on it), the resourceVersion log, watch
// and its fan-out, list, finalizers, and faults by [Verb].
//
// Its files read from the bottom up: each uses only what the files below
// it declare (layout_test.go keeps it so, and the core under 5,000 lines;
// go test -run TestCoreFilesFormADAG -v prints an order). At the bottom
// are the parts that know nothing of the Server: options.go; fields.go
// (where a kind keeps spec and status); storage.go (a stored state, and
// the history ring) and content.go (its JSON); list_sort.go, selectors.go
// and server_errors.go; the watch cache that watchers read (watch.go,
// watch_catchup.go, watch_fanout.go, watch_bookmark.go, rv_wait.go); the
// remembered list orders, the owner index and the request counts
// (list_order.go, owners.go, requests.go). server.go puts them together
// into the [Server]. Above it are the Server's methods: durable.go,
// mutation.go, trace.go and faults.go; commit.go, the path of every write;
// namespace.go, a create's admission to its namespace; client.go and a
// file per kind of request (delete.go, update*.go, list*.go,
// watch_open.go, patch.go, deletecollection.go); the seams of the garbage
// collector and the namespace controller (gc_store.go,
// namespace_controller.go); and last open.go, which makes a server and
// wires those in.
//
// Each feature beside the core is a package of its own, behind a seam the
// feature owns, so that it can be read alone:
//
//   - apiserver/meta: the vocabulary (objects, kinds, options, errors,
//     selectors, validation);
//   - apiserver/client: the client seam and the typed client;
//   - apiserver/fieldmanager: server-side apply and managedFields;
//   - apiserver/strategicpatch: strategic merge patch;
//   - apiserver/gc: the garbage collector;
//   - apiserver/namespaces: the namespace lifecycle and controller;
//   - apiserver/storage: the data directory of a durable server.
//
// (JSON and merge patches are applied by apiserver/internal/patch.)
//
// Served versions and their conversion are not a package of their own,
// as the server stores, validates and watches the stored kind only, so
// that they own no state and no step of a request: a seam there would
// have nothing behind it. The scheme declares them, in the vocabulary
// (apiserver/meta's served_version.go: [meta.ServedVersion]); the HTTP
// front converts the objects of a request made in one, and of its answer
// (apiserver/httpapi's served.go); the field manager records each
// writer's managedFields in the version it wrote in
// (apiserver/fieldmanager's versions.go); and the core holds a write made
// through [ResourceClient.InVersion] to that version's rules.
//
// Around it: [github.com/kitchensync/kitchensync/apiserver/httpapi]
// serves a Server over HTTP, to kubectl and client-go; apiserver/rest is
// the client that talks to it; apiserver/builtin has the built-in kinds
// (Lease, Event, Namespace); apiserver/envtest starts a server for a
// controller's tests; apiserver/apiservertest has the Widget and Gadget
// kinds that this project's own tests use.
package apiserver
