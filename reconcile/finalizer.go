package reconcile

import (
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// AddFinalizer adds finalizer to obj's metadata unless it is already there,
// and reports whether it changed obj. It only edits obj in memory: the
// caller writes it with an Update. Adding a finalizer to an object whose
// deletionTimestamp is set is refused by the API server.
//
// A finalizer holds an object back from deletion until the controller that
// added it has cleaned up; see the package doc, "Finalizers".
func AddFinalizer(obj meta.Object, finalizer string) bool {
	m := metaOf(obj)
	if m == nil || slices.Contains(m.Finalizers, finalizer) {
		return false
	}
	m.Finalizers = append(m.Finalizers, finalizer)
	return true
}

// RemoveFinalizer removes every copy of finalizer from obj's metadata and
// reports whether it changed obj. The caller writes obj with an Update;
// once the last finalizer of a deleting object is gone, the API server
// deletes it.
func RemoveFinalizer(obj meta.Object, finalizer string) bool {
	m := metaOf(obj)
	if m == nil {
		return false
	}
	n := len(m.Finalizers)
	m.Finalizers = slices.DeleteFunc(m.Finalizers, func(f string) bool { return f == finalizer })
	if len(m.Finalizers) == 0 {
		m.Finalizers = nil
	}
	return len(m.Finalizers) != n
}

// ContainsFinalizer reports whether obj's metadata lists finalizer.
func ContainsFinalizer(obj meta.Object, finalizer string) bool {
	m := metaOf(obj)
	return m != nil && slices.Contains(m.Finalizers, finalizer)
}
