package httpapi

import (
	"net/http"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// deleteServed answers DELETE on a served version's object as delete does
// for a kind: the object converted, or a Success Status naming the served
// version's group.
func (h *Handler) deleteServed(w http.ResponseWriter, r *http.Request, t target) error {
	if _, err := negotiateOne(r, t.info); err != nil {
		return err
	}
	opts, err := h.readDeleteOptions(w, r)
	if err != nil {
		return err
	}
	obj, gone, err := h.client(t).DeleteObject(r.Context(), t.name, opts)
	switch {
	case err != nil:
		return err
	case gone:
		writeObject(w, r, t.info, http.StatusOK, successStatus(t.info, obj.GetObjectMeta()))
	case opts.OrphanDependents != nil && !*opts.OrphanDependents:
		writeObject(w, r, t.info, http.StatusAccepted, t.served.FromStoredObject(obj))
	default:
		writeObject(w, r, t.info, http.StatusOK, t.served.FromStoredObject(obj))
	}
	return nil
}

// servedEventLine is eventLine for a watch of a served version: each
// object converted (a bookmark's too), a table row the stored kind's.
func (h *Handler) servedEventLine(t target, ev meta.Event, as representation) ([]byte, error) {
	if isPartialForm(as) {
		return partialEventLine(ev, as) // the metadata is the stored object's
	}
	if as == asTable {
		return encodeLine(h.eventBody(t, t.stored, ev, as))
	}
	if ev.Type != meta.EventError {
		ev.Object = t.served.FromStoredObject(ev.Object)
	}
	if as == asProtobuf {
		return protobufFrame(t.info, ev)
	}
	return encodeLine(watchEvent{Type: ev.Type, Object: ev.Object})
}
