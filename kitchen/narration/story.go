package narration

import (
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/trace"
)

// Story renders the machinery's trace as the kitchen's story: each
// [trace.Record] becomes a line of its [Narrator], told by who acts in
// the kitchen — the front desk ([apiserver]) for writes, the runner for
// what its reflectors, FIFOs and caches do, the chef and the brigade
// for their reconciles. Every hop of an order is told at [HandOffs]
// (but the handler calls: every handler is told, so they wait for
// [Everything]); the same hops for cooks and dishes, and the front desk's
// status writes, only at Everything.
//
// Subscribe its Tell to the tracer every component records to
// ([trace.Tracer.Subscribe]); restaurant.Open does it for a restaurant
// that narrates. It is the narrated form of the trace, as the live view
// is its animated one.
type Story struct {
	log *Narrator
}

// NewStory returns a story told to log.
func NewStory(log *Narrator) *Story { return &Story{log: log} }

// Tell narrates one record. It is quick and never calls back into the
// machinery, as a trace subscriber must.
func (s *Story) Tell(r trace.Record) {
	switch r.Component {
	case trace.APIServer:
		s.apiserver(r)
	case trace.Reflector:
		s.reflector(r)
	case trace.RealFIFO, trace.DeltaFIFO, trace.Informer:
		s.runner(r)
	case trace.Workqueue:
		s.queue(r)
	case trace.Controller:
		s.controller(r)
	}
}

// queue tells what happens to the tickets on the rail (the brigade's
// queue only at Everything).
func (s *Story) queue(r trace.Record) {
	say := s.log.Detail
	if r.Name == kitchen.RailName {
		say = s.log.Say
	}
	switch r.Action {
	case trace.Added:
		say("rail", "ticket %s pinned (priority %d; %s waiting)", r.Key, r.Priority, plural(r.Depth, "ticket"))
	case trace.Merged:
		say("rail", "ticket %s is already waiting: merged into it (priority %d)", r.Key, r.Priority)
	case trace.Deferred:
		say("rail", "ticket %s: a worker has it; pinned again when it is done", r.Key)
	case trace.Requeued:
		say("rail", "ticket %s pinned again: it changed while a worker had it", r.Key)
	}
}

// at returns how to tell a hop of an object of kind: orders at HandOffs,
// anything else at Everything.
func (s *Story) at(kind string) func(who, format string, args ...any) {
	if kind == "Order" {
		return s.log.Say
	}
	return s.log.Detail
}

// named names an object for the story: an order by its key, anything
// else by its kind and key ("cook dinner/table-7-0-g1").
func named(r trace.Record) string {
	if r.Kind == "Order" || r.Kind == "" {
		return r.Key
	}
	return strings.ToLower(r.Kind) + " " + r.Key
}

func (s *Story) apiserver(r trace.Record) {
	say, name := s.at(r.Kind), named(r)
	switch r.Action {
	case trace.Created:
		if r.Kind == "Cook" {
			say = s.log.Say // the answer to the chef's "asks for cook"
		}
		say("apiserver", "ADDED %s (rv %s) → watch", name, r.ResourceVersion)
	case trace.Updated:
		what := r.Detail + " changed"
		switch r.Detail {
		case "deletion started":
			what = "deletionTimestamp set, finalizers hold it"
		case "status", "metadata":
			say = s.log.Detail // the chef and the brigade tell their own writes
		}
		say("apiserver", "MODIFIED %s (rv %s): %s → watch", name, r.ResourceVersion, what)
	case trace.Deleted:
		if r.Detail == trace.GarbageCollector {
			s.log.Say("apiserver", "garbage collector: DELETED %s (rv %s; its owner is gone) → watch", name, r.ResourceVersion)
			return
		}
		say("apiserver", "DELETED %s (rv %s) → watch", name, r.ResourceVersion)
	case trace.WatchesClosed:
		s.log.Say("apiserver", "ends every watch (%d)", r.Count)
	case trace.Compacted:
		s.log.Say("apiserver", "compacts its history: every resourceVersion before %s has expired", r.ResourceVersion)
	}
}

func (s *Story) reflector(r trace.Record) {
	switch {
	case r.Err != nil && r.Action == trace.Expired:
		s.log.Say("runner", "watch %s from rv %s: 410 Expired → lists again", r.Name, r.ResourceVersion)
	case r.Err != nil:
		s.log.Say("runner", "%s %s: %v", r.Action, r.Name, r.Err)
	case r.Action == trace.Listed:
		s.log.Detail("runner", "LIST %s: %d at rv %s", r.Name, r.Count, r.ResourceVersion)
	case r.Action == trace.WatchStarted:
		s.log.Detail("runner", "WATCH %s from rv %s", r.Name, r.ResourceVersion)
	}
}

func (s *Story) runner(r trace.Record) {
	say := s.at(r.Kind)
	switch r.Action {
	case trace.DeltaRecorded:
		say("runner", "delta %s %s queued in the FIFO (rv %s; %d pending)", r.DeltaType, r.Key, r.ResourceVersion, r.Depth)
	case trace.DeltaPopped:
		if r.Count == 1 {
			say("runner", "pops %s: %s (rv %s)", r.Key, r.DeltaType, r.ResourceVersion)
			return
		}
		say("runner", "pops %s: %s, newest %s (rv %s)", r.Key, plural(r.Count, "delta"), r.DeltaType, r.ResourceVersion)
	case trace.CacheUpdated:
		switch r.DeltaType {
		case "Sync", "Replaced":
			say("runner", "resync or relist: hands %s over again (rv %s)", r.Key, r.ResourceVersion)
			return
		case "Deleted":
			say("runner", "cache: %s removed (last rv %s)", r.Key, r.ResourceVersion)
			return
		}
		say("runner", "cache: %s now at rv %s (%s)", r.Key, r.ResourceVersion, r.DeltaType)
	case trace.HandlerCalled:
		// Every handler is told, a waiting test's as much as the chef's:
		// only the curious want them all. The line after a cache update
		// (a predicate's drop, a ticket pinned) is the chef's handler.
		s.log.Detail("runner", "calls handler %d: %s(%s, rv %s)", r.Worker, r.Detail, r.Key, r.ResourceVersion)
	}
}

func (s *Story) controller(r trace.Record) {
	say := s.at(r.Kind)
	if r.Name == "chef" {
		say = s.log.Say
	}
	switch r.Action {
	case trace.Dropped:
		say = s.at(r.Kind)
		say("runner", "%s drops the %s of %s (rv %s): no ticket for the %s", shortName(r.Detail), r.DeltaType, r.Key, r.ResourceVersion, r.Name)
	case trace.Mapped:
		say = s.at(r.Kind)
		if r.Name == "chef" {
			say = s.log.Say // the chef's tickets are hand-offs, whatever woke them
		}
		say("runner", "%s %s (rv %s): a ticket for its owner, %s", named(r), changed[r.DeltaType], r.ResourceVersion, r.Detail)
	case trace.StaleSkipped:
		say(r.Name, "%s: my memory does not show my own last writes for it yet: skipped, the ticket goes back on the rail", r.Key)
	case trace.ReconcileStarted:
		say(r.Name, "%s: worker %d takes the ticket", r.Key, r.Worker)
	case trace.ReconcileFinished:
		if r.Err != nil {
			s.log.Say(r.Name, "%s: reconcile failed (%v) → back on the rail after a backoff", r.Key, r.Err)
			return
		}
		say(r.Name, "%s: reconcile done (%s)", r.Key, s.outcome(r))
	}
}

// changed says what an event did to an object.
var changed = map[string]string{"Create": "is new", "Update": "changed", "Delete": "is gone", "Generic": "was poked"}

// outcome says how a reconcile ended, a requeue's wait in kitchen
// minutes (the machinery measures it in real time).
func (s *Story) outcome(r trace.Record) string {
	if r.Result != trace.ResultRequeueAfter {
		return strings.TrimSpace(strings.ReplaceAll(r.Result, "_", " ") + " " + r.Detail)
	}
	d, err := time.ParseDuration(strings.TrimPrefix(r.Detail, "after "))
	if err != nil {
		return "back on the rail later"
	}
	return fmt.Sprintf("back on the rail in %.1f kitchen minutes", s.log.clock.Kitchen(d).Minutes())
}

// shortName drops a predicate's package: "GenerationChangedPredicate".
func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
