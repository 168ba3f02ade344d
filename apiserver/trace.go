package apiserver

import (
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// traceCommitLocked emits the record of a committed write, if anybody
// listens. It runs under s.mu, so records come in resourceVersion order.
func (s *Server) traceCommitLocked(ch change, key string, prev *entry) {
	typ, obj := ch.typ, ch.obj
	t := s.opts.Tracer
	if !t.Enabled() {
		return
	}
	r := trace.Record{
		Component:       trace.APIServer,
		Kind:            obj.obj.GetTypeMeta().Kind,
		Key:             key,
		ResourceVersion: obj.obj.GetObjectMeta().ResourceVersion, // set by commitLocked
	}
	switch typ {
	case meta.EventAdded:
		r.Action = trace.Created
	case meta.EventDeleted:
		r.Action = trace.Deleted
		r.Detail = ch.by
	default:
		r.Action = trace.Updated
		r.Detail = whatChanged(prev.obj, obj.obj)
	}
	t.Emit(r)
}

// traceConflictLocked emits the record of an update refused with 409
// Conflict: next carried a resourceVersion other than the stored one,
// now. It runs under s.mu.
func (s *Server) traceConflictLocked(kind string, next meta.Object, now string) {
	t := s.opts.Tracer
	if !t.Enabled() {
		return
	}
	m := next.GetObjectMeta()
	t.Emit(trace.Record{Component: trace.APIServer, Action: trace.Conflict, Kind: kind,
		Key: objectKey(m.Namespace, m.Name), ResourceVersion: m.ResourceVersion, Detail: "now at rv " + now})
}

// whatChanged names the part of an object an update changed, for a
// learner reading the trace: "deletion started" (deletionTimestamp set,
// finalizers remain), "spec" (the generation moved), "metadata" (labels,
// finalizers, owners...) or "status" (nothing else: only the status
// subresource writes leave metadata as it was).
func whatChanged(prev, next meta.Object) string {
	pm, nm := *prev.GetObjectMeta(), *next.GetObjectMeta()
	switch {
	case pm.DeletionTimestamp == nil && nm.DeletionTimestamp != nil:
		return "deletion started"
	case pm.Generation != nm.Generation:
		return "spec"
	}
	pm.ResourceVersion, nm.ResourceVersion = "", ""
	if !reflect.DeepEqual(pm, nm) {
		return "metadata"
	}
	return "status"
}
