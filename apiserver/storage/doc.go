// Package storage keeps an API server's objects on disk, as etcd keeps
// kube-apiserver's: a data directory holding a snapshot of every object
// and the write-ahead logs of the writes since ([Log]), and the snapshot
// format that backups use ([WriteSnapshot], [ReadSnapshot]).
//
// In the kitchen, this is the carbon copy of the order book kept in the
// office safe: every line the front desk writes is copied there before
// the desk says "noted", so that after a power cut the desk reopens with
// every order it acknowledged, and none it did not.
//
// The package knows records, not objects: a [Record] is a resourceVersion,
// a write's type, the object's kind and key, and its JSON. The API server
// (package apiserver, [github.com/kitchensync/kitchensync/apiserver.Open])
// turns its writes into records and records back into objects.
//
// # Guarantees
//
//   - Durable: a write is acknowledged only once [Log.Wait] says the sync
//     that covers it is done; an acknowledged write survives a crash.
//   - Shared syncs (group commit): writers that come at once share one
//     write and one sync, as etcd batches its raft log, so the writes a
//     second grow with the writers instead of staying at one per sync.
//   - Atomic: a frame that a crash cut short (or left as zeros) at the
//     end of the last log is found by its checksum, dropped, and the
//     repair logged ([Log.Repairs]); it was never acknowledged.
//   - Loud damage: a bad frame anywhere else, even a flipped bit in the
//     last one, is a [*StorageError] naming the file and the byte, and
//     saying what to do; [Recover] keeps what comes before it. Records
//     must come in resourceVersion order: none is ever skipped unsaid.
//   - One process: [Open] locks the directory; a second process is refused
//     with the first one's process id.
//   - Bounded replay: a snapshot is due once the logs since the last one
//     are as big as it (at least [Options.SnapshotBytes]) or old
//     ([Options.SnapshotAge]), counted across restarts; a writer writes
//     it, outside the owner's lock, and the logs it replaces are removed.
//
// # Recovering a damaged directory
//
// When [Log.Load] (and so apiserver.Open) refuses a directory, its error
// names the file and the byte. Copy the directory first if you can; then
// [Recover] (or `go run ./examples/serve -data DIR -recover`) keeps every
// write before the damage, moves the damaged file and every later one,
// unchanged, into DIR/damaged-TIME, and the directory opens again.
package storage
