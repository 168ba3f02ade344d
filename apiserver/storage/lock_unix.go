//go:build unix

package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockName is the lock file of a data directory.
const lockName = "LOCK"

// lockDir takes the data directory's advisory lock (flock(2), as bbolt
// locks its file) and writes this process's id into the lock file, so
// that a second process can say who holds it. The lock goes with the
// process: a process killed holds nothing.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &StorageError{Path: path, Offset: -1, Err: err}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &StorageError{Path: dir, Offset: -1, Err: fmt.Errorf("%w: %s", ErrLocked, holder(path))}
		}
		return nil, &StorageError{Path: path, Offset: -1, Err: err}
	}
	pid := strconv.Itoa(os.Getpid()) + "\n"
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(pid), 0) // only to name the holder
	}
	return f, nil
}

// holder says which process holds the lock file path, as far as it
// knows.
func holder(path string) string {
	b, err := os.ReadFile(path)
	pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || perr != nil {
		return "another process holds it; stop that process, or open another directory"
	}
	if pid == os.Getpid() {
		return fmt.Sprintf("this process (pid %d) has it open already; close that server first", pid)
	}
	return fmt.Sprintf("process %d holds it; stop that process, or open another directory", pid)
}
