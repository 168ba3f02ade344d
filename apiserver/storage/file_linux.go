package storage

import (
	"os"
	"syscall"
)

// preallocate makes f reach to size bytes (zeros past its data), and
// returns the size it reaches, or false if the file system cannot.
func preallocate(f *os.File, from, size int64) (int64, bool) {
	if err := syscall.Fallocate(int(f.Fd()), 0, from, size-from); err != nil {
		return from, false
	}
	return size, true
}

// datasync makes what was written to f durable, and the file's size, but
// not its times (fdatasync(2), as etcd syncs its WAL).
func datasync(f *os.File) error {
	return syscall.Fdatasync(int(f.Fd()))
}
