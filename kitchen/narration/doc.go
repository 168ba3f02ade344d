// Package narration tells the story of a kitchen as it runs, one line per
// hand-off, prefixed by the kitchen minute and by who acts:
//
//	0.0 [waiter]    table 7 (vip) orders 1× seafood-pasta: create table-7
//	0.0 [apiserver] ADDED dinner/table-7 (rv 8) → watch
//	0.0 [runner]    cache: dinner/table-7 now at rv 8 (Added)
//	0.0 [rail]      ticket dinner/table-7 pinned (priority 100; 1 ticket waiting)
//	0.0 [chef]      dinner/table-7: compares order (generation 1, rv 8) with the kitchen
//
// Two sources feed it. The kitchen's people (the waiter, the rail, the
// chef, the brigade) tell what they decide to a [Narrator], which is the
// [kitchen.Logger] they are given. What the machinery does — the front
// desk's writes, the runner's reflectors and caches, the predicates, the
// reconciles — is not told by wrappers around it but drawn from its trace
// (package trace) by a [Story], subscribed to the tracer every component
// records to. The live view (package kitchen/liveview) draws the same
// trace as an animation.
//
// How much is told is the narrator's [Verbosity]: [HandOffs] tells every
// hop of an order; [Everything] adds cooks, dishes, handler calls and the
// rail's detail.
package narration
