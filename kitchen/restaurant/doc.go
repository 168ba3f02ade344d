// Package restaurant wires a whole restaurant on kitchensync: it takes
// the kitchen's people and things (package kitchen) and connects them to
// the library's machinery, as the main package of any controller does.
//
// [Open] builds a [Restaurant] from a [Config], and [Restaurant.Run] runs
// it:
//
//   - the front desk is an [apiserver.Server] made here (in memory, or
//     durable with [Config].DataDir), or one in another process reached
//     through an HTTP client ([Config].Remote); the menu is written to it
//     first;
//   - the [Runner] (传菜员) is three shared informers from one
//     [informer.SharedInformerFactory] — orders indexed by table and
//     section, cooks indexed by order, dishes — made exactly as a
//     controller of your own would make them;
//   - the chef's [reconcile.Controller] works the [kitchen.TicketRail]: it
//     watches orders with [reconcile.For] (through
//     [GenerationChangedOrResyncPredicate]) and the cooks they own with
//     [reconcile.Owns] (through [CookPhaseChangedPredicate]); the
//     brigade's watches cooks with For and hears from the stations when
//     one finishes;
//   - the waiter, the chef and the brigade narrate to the restaurant's
//     Log, and the machinery's trace is told by a [narration.Story].
//
// Nothing here decides anything about orders: that is the domain's job.
// Whatever changes how the kitchen behaves lives in package kitchen;
// whatever changes what it is connected to lives here.
//
// # Over the wire
//
// The chef need not stand at the desk. [Config].Remote runs the kitchen
// against an API server in another process, reached through an HTTP
// client (package apiserver/rest): the runner's informers list and watch
// over HTTP, and the chef, the brigade and the waiter write through the
// client — the same [kitchen.Chef], which reaches the API only through
// typed clients. [Config].DeskOnly opens the other half, the desk without
// a kitchen. [Config].Events makes the chef pin its notes to each order
// as Events, which `kubectl describe order` shows. examples/serve and
// examples/chef are the two halves as programs.
//
// # Seams
//
// Three fields of [Config] let a program reach into the wiring without
// changing it: InformerOptions (the runner lists and watches through a
// ListerWatcher of yours), Queue (each controller's queue wrapped before
// its workers take from it) and Timers (the clock's timers, the cooks'
// at the stations). kitchentest.Conductor uses all three to
// make a restaurant take one step at a time in tests.
package restaurant
