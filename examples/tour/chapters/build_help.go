package chapters

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// shopServer returns an API server for the kinds register adds, telling
// tr what it does.
func shopServer(register func(*meta.Scheme) error, tr *trace.Tracer) *apiserver.Server {
	scheme := meta.NewScheme()
	if err := register(scheme); err != nil {
		panic(err)
	}
	return apiserver.NewServer(scheme, apiserver.Options{Tracer: tr})
}

// until waits until cond holds, looking again each time tr hears of a
// hand-off; it panics after ten seconds, as a chapter whose machinery
// never gets there has found a bug.
func until(tr *trace.Tracer, cond func() bool) {
	poke := make(chan struct{}, 1)
	defer tr.Subscribe(func(trace.Record) {
		select {
		case poke <- struct{}{}:
		default:
		}
	})()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !cond() {
		select {
		case <-poke:
		case <-ctx.Done():
			panic("the chapter waited ten seconds for something that did not happen")
		}
	}
}

// underneath prints, under a heading, the hand-offs rec heard, then
// forgets them all: first those the first filter keeps, in the order
// they came, then the second filter's, and so on — an order that does
// not depend on how the goroutines of different components happened to
// interleave.
func underneath(w io.Writer, heading string, rec *trace.Recorder, keep ...func(trace.Record) bool) {
	fmt.Fprintf(w, "underneath, %s:\n", heading)
	recs := rec.Records()
	for _, k := range keep {
		for _, r := range recs {
			if k(r) {
				fmt.Fprintf(w, "  %s\n", handOff(r))
			}
		}
	}
	rec.Reset()
}

// handOff says one hand-off in a line.
func handOff(r trace.Record) string {
	who := string(r.Component)
	if r.Name != "" {
		who += "[" + r.Name + "]"
	}
	what := strings.ToLower(r.Kind) + " " + r.Key
	switch r.Action {
	case trace.Created, trace.Updated, trace.Deleted:
		verb := map[trace.Action]string{trace.Created: "ADDED", trace.Updated: "MODIFIED", trace.Deleted: "DELETED"}[r.Action]
		if r.Detail != "" {
			return fmt.Sprintf("%s: %s %s (rv %s; %s)", who, verb, what, r.ResourceVersion, r.Detail)
		}
		return fmt.Sprintf("%s: %s %s (rv %s)", who, verb, what, r.ResourceVersion)
	case trace.Listed:
		return fmt.Sprintf("%s: LIST, %d at rv %s", who, r.Count, r.ResourceVersion)
	case trace.WatchStarted:
		return fmt.Sprintf("%s: WATCH from rv %s", who, r.ResourceVersion)
	case trace.CacheUpdated:
		return fmt.Sprintf("%s: cache takes %s %s (rv %s)", who, r.DeltaType, what, r.ResourceVersion)
	case trace.Added:
		return fmt.Sprintf("%s: %s queued", who, r.Key)
	case trace.RateLimited:
		return fmt.Sprintf("%s: %s queued again after a backoff", who, r.Key)
	case trace.ReconcileFinished:
		if r.Err != nil {
			return fmt.Sprintf("%s: reconcile of %s failed: %v", who, r.Key, r.Err)
		}
		return fmt.Sprintf("%s: reconciled %s (%s)", who, r.Key, r.Result)
	}
	return r.String()
}

// heard reports whether rec has heard a hand-off that keep accepts.
func heard(rec *trace.Recorder, keep func(trace.Record) bool) bool {
	return slices.ContainsFunc(rec.Records(), keep)
}

// is returns a filter of records by component and action.
func is(c trace.Component, actions ...trace.Action) func(trace.Record) bool {
	return func(r trace.Record) bool {
		if r.Component != c {
			return false
		}
		for _, a := range actions {
			if r.Action == a {
				return true
			}
		}
		return false
	}
}
