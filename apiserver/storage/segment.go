package storage

import (
	"os"
	"path/filepath"
)

// preallocBytes is how much room a log takes ahead of its writes. Writing
// into space the file already has, a sync needs no change to the file's
// size, and costs about half as much (etcd preallocates its WAL for the
// same reason). The room reads as zeros, where the data ends ([Log.Load]).
const preallocBytes = 8 << 20

// segment is one log file being appended to.
type segment struct {
	f    *os.File
	path string
	// end is where the next batch goes: the end of the frames written
	// and of those handed to a leader (guarded by the Log's mu).
	end int64
	// alloc is how far the file reaches, and written whether anything was
	// written to it (touched by the leader only).
	alloc   int64
	written bool
}

// createSegment creates the log in dir for the records from
// resourceVersion from on, and makes its name durable.
func createSegment(dir string, from int64) (*segment, error) {
	path := filepath.Join(dir, logName(from))
	s, err := openSegment(path, 0)
	if err == nil {
		if err = syncDir(dir); err != nil {
			s.f.Close()
			return nil, &StorageError{Path: dir, Offset: -1, Err: err}
		}
	}
	return s, err
}

// openSegment opens (creating it) the log path for writing at end.
func openSegment(path string, end int64) (*segment, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &StorageError{Path: path, Offset: -1, Err: err}
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &StorageError{Path: path, Offset: -1, Err: err}
	}
	return &segment{f: f, path: path, end: end, alloc: info.Size()}, nil
}

// write writes b at off, making room ahead first when the file is too
// short.
func (s *segment) write(b []byte, off int64) error {
	if need := off + int64(len(b)); need > s.alloc {
		if grown, ok := preallocate(s.f, s.alloc, need+preallocBytes); ok {
			s.alloc = grown
		}
	}
	s.written = true
	if _, err := s.f.WriteAt(b, off); err != nil {
		return err
	}
	s.alloc = max(s.alloc, off+int64(len(b)))
	return nil
}

// close cuts the room ahead off, syncs and closes the file.
func (s *segment) close() error {
	if !s.written && s.alloc == s.end {
		return s.f.Close() // nothing to sync
	}
	err := s.f.Truncate(s.end)
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &StorageError{Path: s.path, Offset: -1, Err: err}
	}
	return nil
}
