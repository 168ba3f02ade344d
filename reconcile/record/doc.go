// Package record writes Events (core/v1, [builtin.Event]) about the
// objects a controller works on, like client-go's tools/record: a
// [Recorder] takes a note (object, type, reason, message) without waiting,
// and its [Recorder.Run] loop writes it to the API server, in process or
// over HTTP. `kubectl describe` then shows an object's notes under it, and
// `kubectl events` shows a namespace's.
//
// In the kitchen, the chef pins notes to an order's ticket as he works it
// ("Cooking", "Served", "DishNotOnMenu"); a note he has pinned before is
// not pinned again, its tally is raised.
//
// # Correlation
//
// Before it is written, each note goes through a [Correlator], which does
// what client-go's EventCorrelator does, with its defaults:
//
//   - Deduplication: an event identical to one already written (same
//     source, object, type, reason and message) is not created again: the
//     existing Event's count goes up by one and its lastTimestamp moves,
//     by a merge patch.
//   - Aggregation: when one object gets more than 10 events of the same
//     source, type and reason with different messages within 10 minutes,
//     the rest are folded into one Event whose message starts
//     "(combined from similar events): " and whose count grows.
//   - Rate limit: a token bucket per source and object (burst 25, then
//     one per 5 minutes) drops the excess, so a hot loop cannot flood the
//     server.
//
// Its caches keep the 4096 most recently used keys, as client-go's do.
//
// # Delivery
//
// [Recorder.Event] never blocks: notes wait in a queue of [DefaultQueueSize]
// and the newest are dropped when it is full, like client-go's broadcaster
// in its drop-if-full mode. A write that fails is retried a few times,
// then reported to Options.ErrorHandler; an event whose object is gone
// from the server is still written, as Kubernetes keeps it.
package record
