package store

import (
	"errors"
	"fmt"
)

// ErrUnknownIndex is wrapped by the error returned when a call names an
// index that was never registered. Test with errors.Is.
var ErrUnknownIndex = errors.New("store: unknown index")

// ErrIndexConflict is wrapped by the error [Indexer.AddIndexers] returns
// when a new index has the name of an existing one. Test with errors.Is.
var ErrIndexConflict = errors.New("store: index already exists")

func unknownIndex(name string) error {
	return fmt.Errorf("%w %q: register it with NewIndexer or AddIndexers before asking for it", ErrUnknownIndex, name)
}

// IndexFuncError reports that an [IndexFunc] failed for an object. The
// store is left as it was before the call that needed the index values.
type IndexFuncError struct {
	Index string // the index whose function failed
	Key   string // the key of the object being indexed
	Err   error  // what the index function returned
}

// Error names the index and, when known, the key whose values failed.
func (e *IndexFuncError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("store: index function %q failed (nothing was changed): %v", e.Index, e.Err)
	}
	return fmt.Sprintf("store: index function %q failed for object %q (nothing was changed): %v", e.Index, e.Key, e.Err)
}

// Unwrap returns the index function's error.
func (e *IndexFuncError) Unwrap() error { return e.Err }
