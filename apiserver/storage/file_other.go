//go:build !linux

package storage

import "os"

// preallocate does nothing here: a log grows with its writes.
func preallocate(_ *os.File, from, _ int64) (int64, bool) { return from, false }

// datasync makes what was written to f durable.
func datasync(f *os.File) error { return f.Sync() }
