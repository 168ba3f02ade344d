package reconcile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// source is one watch of a controller: an informer and how its events
// become requests. start registers an event handler; the result says when
// that handler has seen the informer's initial list, and how to remove it.
type source interface {
	String() string
	start(ctx context.Context, q PriorityWorkQueue, filters []Predicate[meta.Object]) (startedSource, error)
}

type startedSource struct {
	name   string
	synced <-chan struct{} // closed once the handler has seen the initial list
	stop   func()
}

// startSources starts every source, or none: on error it returns those
// started so far, for stopSources.
func startSources(ctx context.Context, sources []source, q PriorityWorkQueue,
	filters []Predicate[meta.Object]) ([]startedSource, error) {
	started := make([]startedSource, 0, len(sources))
	for _, s := range sources {
		st, err := s.start(ctx, q, filters)
		if err != nil {
			return started, fmt.Errorf("starting %s: %w", s, err)
		}
		started = append(started, st)
	}
	return started, nil
}

func stopSources(started []startedSource) {
	for _, st := range started {
		if st.stop != nil {
			st.stop()
		}
	}
}

// CacheSyncError says that a controller's informers did not deliver their
// initial lists within [Options].CacheSyncTimeout, so its workers never
// started. The usual causes: the informer was never run, or it cannot list
// (see its watch error handler).
type CacheSyncError struct {
	// Controller is the controller's name.
	Controller string
	// Timeout is how long it waited.
	Timeout time.Duration
	// Unsynced names the watches whose caches had not synced, e.g.
	// "For(*apiservertest.Widget)".
	Unsynced []string
}

// Error names the controller, the timeout and the sources still unsynced.
func (e *CacheSyncError) Error() string {
	return fmt.Sprintf("reconcile: controller %q: timed out after %v waiting for caches to sync: %s",
		e.Controller, e.Timeout, strings.Join(e.Unsynced, ", "))
}

// waitForCacheSync waits until every source has synced. It returns nil
// when they have, or when ctx ends first (a shutdown is not an error), and
// a [*CacheSyncError] when the timeout passes. It waits on the handlers'
// Synced channels, so it starts the workers the moment the last one syncs.
func (c *Controller) waitForCacheSync(ctx context.Context, started []startedSource) error {
	timeout := time.NewTimer(c.timeout)
	defer timeout.Stop()
	for _, st := range started {
		select {
		case <-st.synced:
		case <-ctx.Done():
			return nil
		case <-timeout.C:
			err := &CacheSyncError{Controller: c.name, Timeout: c.timeout, Unsynced: unsyncedSources(started)}
			c.log.Error("Could not wait for caches to sync", "error", err)
			return err
		}
	}
	return nil
}

func unsyncedSources(started []startedSource) []string {
	var names []string
	for _, st := range started {
		select {
		case <-st.synced:
		default:
			names = append(names, st.name)
		}
	}
	return names
}
