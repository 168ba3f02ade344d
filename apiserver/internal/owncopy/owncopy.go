package owncopy

import (
	"maps"
	"sync/atomic"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Split returns the writer's copy of next, a state about to be stored
// that nobody else has seen yet: a deep copy of it, made by its
// DeepCopyObject. If next's labels equal prior (the labels of a stored
// state; nil: none), next takes prior's map, and the copy takes the one
// next had, which nothing else holds, instead of a clone of it. It
// reports whether next shares prior.
func Split(next meta.Object, prior map[string]string) (meta.Object, bool) {
	m := next.GetObjectMeta()
	own := m.Labels
	if len(own) == 0 || len(own) != len(prior) || !maps.Equal(own, prior) {
		return next.DeepCopyObject(), false
	}
	m.Labels = nil // so that DeepCopyObject does not clone it
	out := next.DeepCopyObject()
	out.GetObjectMeta().Labels = own
	m.Labels = prior
	return out, true
}

// Recent remembers the labels of the latest state [Recent.Split] did not
// share, for the next one to share: the objects a controller creates one
// after another mostly carry the same labels. The zero value remembers
// nothing. It is safe for concurrent use.
type Recent struct {
	labels atomic.Pointer[map[string]string]
}

// Split is [Split] with the labels r remembers as prior; if next does not
// share them, r remembers next's instead. next's labels must never be
// changed again, nor handed out.
func (r *Recent) Split(next meta.Object) meta.Object {
	var prior map[string]string
	if p := r.labels.Load(); p != nil {
		prior = *p
	}
	out, shared := Split(next, prior)
	if m := next.GetObjectMeta(); !shared && len(m.Labels) > 0 {
		own := m.Labels // a variable of its own: only a change allocates
		r.labels.Store(&own)
	}
	return out
}
