package apiserver

import (
	"bytes"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// rememberJSONLocked records the JSON of a just-committed entry, when the
// detector is on. s.mu must be held (e is not shared before it is
// released).
func (s *Server) rememberJSONLocked(e *entry) {
	if s.opts.CacheMutationDetector {
		e.committedJSON, _ = jsonenc.Marshal(e.obj)
	}
}

// checkShared returns a 500 naming the object if e's object has changed
// since it was committed, which only someone holding it from a watch, an
// informer's cache or a lister can have done. Without the detector it
// does nothing.
func checkShared(gr meta.GroupResource, key string, e *entry) error {
	if e == nil || e.committedJSON == nil {
		return nil
	}
	if now, err := jsonenc.Marshal(e.obj); err == nil && bytes.Equal(now, e.committedJSON) {
		return nil
	}
	return meta.NewInternalError(fmt.Errorf("cache mutation detected: %s %q at resourceVersion %d was changed "+
		"after the server shared it; objects from a watch, an informer's cache or a lister are shared "+
		"and read-only: change a copy (meta.DeepCopy) and write that", gr, key, e.rv))
}

// CheckMutations returns an error naming the first stored object that was
// changed after the server shared it, when [Options].CacheMutationDetector
// is on; otherwise it returns nil. The server also checks every object it
// reads for a get, a list or a write. A test can call it at its end
// (apiservertest's servers do): a mutation of a cached object is caught
// even if nothing read the object again.
func (s *Server) CheckMutations() error {
	if !s.opts.CacheMutationDetector {
		return nil
	}
	s.mu.Lock()
	all := s.storedLocked()
	s.mu.Unlock()
	for _, o := range all {
		if err := checkShared(o.gr, o.key, o.e); err != nil {
			return err
		}
	}
	return nil
}
