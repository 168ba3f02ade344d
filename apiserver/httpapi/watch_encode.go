package httpapi

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// encodedEventsKept is how many encoded watch events a [Handler] keeps for
// the watchers that have yet to send them.
const encodedEventsKept = 4096

// encodedEvents remembers the wire form of the latest watch events, JSON
// lines and protobuf frames, so that the watchers of one event in one form
// encode it once between them, as the real server caches each object's
// serialisation. It works because every watcher of an event receives the
// same object (the apiserver's own, shared and never changed): the key is
// the object's identity and the form. Only changes (ADDED, MODIFIED,
// DELETED) are kept; tables show an age, which changes with the clock, and
// bookmarks and errors are each watcher's own.
type encodedEvents struct {
	mu    sync.Mutex // guards lines, order and next
	lines map[encodedKey][]byte
	order [encodedEventsKept]encodedKey // a ring: the oldest key is evicted first
	next  int
}

type encodedKey struct {
	typ meta.EventType
	obj meta.Object
	as  representation // asObject, asProtobuf or a metadata-only form
}

// line returns ev's wire form as (asObject: a JSON line, newline
// included; asProtobuf: a frame; a metadata-only form: either, of a
// PartialObjectMetadata), encoding it only if no other watcher
// has done so lately. info is the kind of ev's object. The returned slice
// must not be changed.
func (c *encodedEvents) line(srv *apiserver.Server, info meta.KindInfo, ev meta.Event, as representation) ([]byte, error) {
	switch ev.Type {
	case meta.EventAdded, meta.EventModified, meta.EventDeleted:
	default:
		return encodeEvent(srv, info, ev, as)
	}
	key := encodedKey{ev.Type, ev.Object, as}
	c.mu.Lock()
	b, ok := c.lines[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := encodeEvent(srv, info, ev, as)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lines == nil {
		c.lines = make(map[encodedKey][]byte, encodedEventsKept)
	}
	if _, ok := c.lines[key]; !ok {
		delete(c.lines, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % encodedEventsKept
		c.lines[key] = b
	}
	return b, nil
}

// encodeEvent encodes ev as line returns it.
func encodeEvent(srv *apiserver.Server, info meta.KindInfo, ev meta.Event, as representation) ([]byte, error) {
	switch {
	case isPartialForm(as):
		return partialEventLine(ev, as)
	case as == asProtobuf:
		return protobufFrame(info, ev)
	case ev.Type == meta.EventAdded, ev.Type == meta.EventModified, ev.Type == meta.EventDeleted:
		return encodeChange(srv, ev)
	case ev.Type == meta.EventBookmark && !isBuiltin(info):
		return encodeLine(watchEvent{Type: ev.Type, Object: bareObject(ev.Object)})
	default:
		return encodeLine(watchEvent{Type: ev.Type, Object: ev.Object})
	}
}

// bareObject is obj with only its apiVersion, kind and metadata: a
// custom resource's BOOKMARK as kube-apiserver sends it (an unstructured
// object with nothing else set). A built-in kind's bookmark is its typed
// empty object, zero-valued fields and all, as there.
func bareObject(obj meta.Object) any {
	tm := obj.GetTypeMeta()
	return struct {
		APIVersion string           `json:"apiVersion"`
		Kind       string           `json:"kind"`
		Metadata   *meta.ObjectMeta `json:"metadata"`
	}{tm.APIVersion, tm.Kind, obj.GetObjectMeta()}
}

// encodeLine encodes v as json.Encoder does: JSON and a newline.
func encodeLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// encodeChange encodes a change as encodeLine does, writing the object
// from the server's stored JSON ([apiserver.Server.AppendObjectJSON]).
func encodeChange(srv *apiserver.Server, ev meta.Event) ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, string(ev.Type)) // ADDED, MODIFIED or DELETED: nothing to escape
	b = append(b, `,"object":`...)
	b, err := srv.AppendObjectJSON(b, ev.Object)
	if err != nil {
		return nil, err
	}
	return append(b, '}', '\n'), nil
}
