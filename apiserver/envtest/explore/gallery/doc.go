// Package gallery is a gallery of planted bugs for package explore: small
// controllers, each wrong in one classic way, and one done right, all
// reconciling the same two kinds, so that a test (or a tour) can show the
// explorer finding each bug and finding nothing wrong with the right one.
//
// A [Parent] asks for one [Child] carrying its version; the controller
// makes the child, keeps its version, marks the parent Ready, and on
// deletion deletes the child. The five bugs:
//
//   - [StaleCache]: a child created from a stale cache, so two children;
//   - [EventNotState]: the delete handled on the event, not the state, so
//     a delete made while the controller was down is missed;
//   - [NotIdempotent]: a create that is not safe across a crash, so two
//     children;
//   - [StatusDeepEqual]: "done" decided by comparing the status with the
//     spec, and the status written before the work, so a child left behind
//     the spec;
//   - [EarlyFinalizer]: the finalizer removed before the cleanup
//     finishes, so a child left without a parent.
//
// In the kitchen: the five cooks every head chef has met — the one who
// plates a second dish because the pass looked empty, the one who only
// clears a table when he sees the guests leave, the one who loses count
// when called away, the one who trusts the ticket over the plate, and the
// one who takes the table off the book before it is cleared.
//
// [Correct] gets all five right. [Scenario] puts any of them under
// [Workload] with the invariant [OneChildPerParent].
package gallery
