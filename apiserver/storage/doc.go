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
//   - Durable: [Log.Append] returns only after the record is synced to
//     the disk; an acknowledged write survives a crash.
//   - Atomic: a record cut short by a crash (the writer died in the middle
//     of it) is found by its checksum and dropped when the directory is
//     loaded again; it was never acknowledged.
//   - Bounded replay: every so many writes the owner writes a snapshot
//     ([Log.Rotate]) and the logs it replaces are removed.
//   - Loud damage: a bad record anywhere but the end of the last log is a
//     [*StorageError] naming the file and the byte, never a silent loss.
package storage
