package informer

import (
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// traceName is the Name of the records of an informer and of the
// reflector and FIFO it makes: its resource ("orders"), or "" if it has
// none.
func (i *SharedIndexInformer[T]) traceName() string { return i.opts.Resource.Resource }

// traceCached records that the cache took delta d of key.
func (i *SharedIndexInformer[T]) traceCached(key string, d Delta[T]) {
	if t := i.opts.Tracer; t.Enabled() {
		r := objectRecord(key, d.Object)
		r.Component, r.Name, r.Action, r.DeltaType = trace.Informer, i.traceName(), trace.CacheUpdated, string(d.Type)
		t.Emit(r)
	}
}

// traceRecorded records that the FIFO queued delta d of key, leaving depth
// entries queued. Call with mu held.
func (c *fifoCore[T]) traceRecorded(key string, d Delta[T], depth int) {
	if c.tracer.Enabled() {
		r := objectRecord(key, d.Object)
		r.Component, r.Name, r.Action = c.component, c.name, trace.DeltaRecorded
		r.DeltaType, r.Depth = string(d.Type), depth
		if d.Info != nil { // a ReplacedAll or Bookmark: its resourceVersion, and how many objects
			r.ResourceVersion, r.Count = d.Info.ResourceVersion, len(d.Info.Objects)
		}
		c.tracer.Emit(r)
	}
}

// tracePopped records that Pop took key's deltas, leaving depth entries
// queued. Call with mu held.
func (c *fifoCore[T]) tracePopped(key string, deltas Deltas[T], depth int) {
	if c.tracer.Enabled() && len(deltas) > 0 {
		d := deltas[len(deltas)-1]
		r := objectRecord(key, d.Object)
		r.Component, r.Name, r.Action = c.component, c.name, trace.DeltaPopped
		r.DeltaType, r.Count, r.Depth = string(d.Type), len(deltas), depth
		if d.Info != nil {
			r.ResourceVersion = d.Info.ResourceVersion
		}
		c.tracer.Emit(r)
	}
}

// traceCall records that the listener is about to call its handler with n.
func (l *listener[T]) traceCall(n notification[T]) {
	if !l.tracer.Enabled() {
		return
	}
	r := objectRecord("", n.newObj)
	r.Component, r.Name, r.Action, r.Worker = trace.Informer, l.name, trace.HandlerCalled, l.num
	r.Detail = [...]string{addNotification: "OnAdd", updateNotification: "OnUpdate", deleteNotification: "OnDelete"}[n.kind]
	l.tracer.Emit(r)
}

// objectRecord returns a record naming obj: its kind, key (key, or
// namespace/name if key is "") and resourceVersion. A tombstone's object
// may be nil: the record then has only the key.
func objectRecord(key string, obj meta.Object) trace.Record {
	if v := reflect.ValueOf(obj); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return trace.Record{Key: key}
	}
	m := obj.GetObjectMeta()
	if key == "" {
		key = m.Name
		if m.Namespace != "" {
			key = m.Namespace + "/" + m.Name
		}
	}
	return trace.Record{Kind: obj.GetTypeMeta().Kind, Key: key, ResourceVersion: m.ResourceVersion}
}
