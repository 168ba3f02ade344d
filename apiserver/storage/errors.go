package storage

import (
	"errors"
	"fmt"
)

// StorageError says what is wrong with a data directory or a snapshot:
// which file, where in it, and what to do. Kubernetes' storage layer
// (k8s.io/apiserver/pkg/storage) names its errors the same way.
type StorageError struct {
	Path   string // the file (or directory)
	Offset int64  // the byte where the bad record starts, or -1
	Err    error
}

// Error says which file, where in it, and what is wrong.
func (e *StorageError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("apiserver storage: %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("apiserver storage: %s: record at byte %d: %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *StorageError) Unwrap() error { return e.Err }

// ErrClosed is the error of a write to a closed [Log].
var ErrClosed = errors.New("the server is closed")

// ErrLocked is the error (inside a [*StorageError]) of an [Open] of a
// data directory that another process, or another server of this one,
// holds open.
var ErrLocked = errors.New("the data directory is in use")
