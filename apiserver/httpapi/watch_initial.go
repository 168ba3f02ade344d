package httpapi

import (
	"context"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A watch from no resourceVersion (or "0") starts with an ADDED event for
// every object it selects, sorted by namespace and name. When many clients
// start such a watch at once (the informers of many controllers, the
// watchers of a test), each would read, select and sort the same objects,
// and encode the same events. Instead the first takes a snapshot: the
// initial events as JSON lines, read at one resourceVersion R; the watches
// of the same resource, namespace and selectors that start before the
// server moves on send that snapshot as it is, then watch from R, which
// delivers every change after it: what a watch from no resourceVersion
// delivers, as the real server's watch cache serves initial events from
// one state.

// sharedInitialEvents reports whether a watch takes its initial events from
// a shared snapshot: one from no resourceVersion (or "0"), not in
// watch-list mode, in JSON, that does not end before it begins.
func sharedInitialEvents(opts meta.ListOptions, as representation) bool {
	return as == asObject && opts.SendInitialEvents == nil && opts.ResourceVersionMatch == "" &&
		(opts.ResourceVersion == "" || opts.ResourceVersion == "0") &&
		(opts.TimeoutSeconds == nil || *opts.TimeoutSeconds >= 0)
}

// initialSnapshots keeps the snapshots taken at the server's latest
// resourceVersion, one per resource, namespace and selectors; they are
// dropped once the server moves on, or when more than
// initialSnapshotsKept pile up.
type initialSnapshots struct {
	mu sync.Mutex // guards rv and taken
	rv string
	// taken holds snapshots being taken too: their watchers wait for them.
	taken map[snapshotKey]*snapshot
}

const initialSnapshotsKept = 16

type snapshotKey struct {
	gvr            meta.GroupVersionResource
	ns             string
	labels, fields string
}

// snapshot is the initial events of a watch as JSON lines (shared: never
// changed once done is closed) and the resourceVersion they were read at;
// err is why it could not be taken.
type snapshot struct {
	done  chan struct{}
	lines []byte
	rv    string
	err   error
}

// get returns the snapshot for a watch of t with opts' selectors at the
// server's resourceVersion now, taking it with c (t's client) if no other
// watch has, or nil if ctx ends first.
func (s *initialSnapshots) get(ctx context.Context, t target, c *apiserver.ResourceClient, now string, opts meta.ListOptions) *snapshot {
	key := snapshotKey{t.info.GroupVersionResource(), t.namespace, opts.LabelSelector, opts.FieldSelector}
	s.mu.Lock()
	if s.rv != now || len(s.taken) >= initialSnapshotsKept {
		s.rv, s.taken = now, make(map[snapshotKey]*snapshot)
	}
	snap, ok := s.taken[key]
	if !ok {
		snap = &snapshot{done: make(chan struct{})}
		s.taken[key] = snap
	}
	s.mu.Unlock()
	if ok {
		select {
		case <-snap.done:
			return snap
		case <-ctx.Done():
			return nil
		}
	}
	sel := meta.ListOptions{LabelSelector: opts.LabelSelector, FieldSelector: opts.FieldSelector}
	snap.lines, snap.rv, snap.err = c.AppendListItemsJSON(ctx, nil, sel, `{"type":"ADDED","object":`, "}\n")
	if snap.err != nil {
		s.mu.Lock()
		if s.taken[key] == snap {
			delete(s.taken, key) // the next watch tries again
		}
		s.mu.Unlock()
	}
	close(snap.done)
	return snap
}
