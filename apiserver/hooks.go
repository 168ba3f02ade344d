package apiserver

import "github.com/kitchensync/kitchensync/apiserver/meta"

// CommitHook is told of a change committed to a resource: the event's
// type and the object as committed (shared: read it, never change it).
type CommitHook func(typ meta.EventType, obj meta.Object)

// OnCommit has fn called after every change committed to resource gr,
// inside the call that made it, as the namespace controller acts (nil
// removes gr's hook): like a registry's AfterCreate,
// AfterUpdate and AfterDelete hooks. package apiserver/apiextensions
// establishes a CustomResourceDefinition this way. fn may write to the
// server, and may be called from several goroutines at once.
func (s *Server) OnCommit(gr meta.GroupResource, fn CommitHook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hooks == nil {
		s.hooks = make(map[meta.GroupResource]CommitHook)
	}
	s.hooks[gr] = fn
}

// hasStatus reports whether obj's kind has a status subresource: its Go
// type has a Status field, or its KindInfo says so.
func hasStatus(info meta.KindInfo, obj meta.Object) bool {
	return info.StatusSubresource || fieldsOf(obj).status >= 0
}

// copyStatus sets dst's status to src's: a Go kind's Status field, or an
// unstructured object's "status".
func copyStatus(dst, src meta.Object, kf kindFields) {
	if u, ok := dst.(*meta.Unstructured); ok {
		u.CopyTopField("status", src.(*meta.Unstructured))
		return
	}
	copyField(dst, src, kf.status)
}

// clearStatus empties obj's status.
func clearStatus(obj meta.Object, kf kindFields) {
	if u, ok := obj.(*meta.Unstructured); ok {
		u.RemoveNestedField("status")
		return
	}
	clearField(obj, kf.status)
}
