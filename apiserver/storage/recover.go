package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Recovery is what [Recover] did to a damaged data directory.
type Recovery struct {
	// Damage is the damage Load found, or nil if there was none (Recover
	// then did nothing).
	Damage *StorageError
	// MovedTo is the directory inside the data directory that now holds
	// the damaged file as it was and every file after it.
	MovedTo string
	// Kept is the newest resourceVersion the data directory still holds:
	// every write up to the damage, none after it.
	Kept int64
}

// Recover makes the damaged data directory dir usable again, keeping what
// comes before the first damage and nothing after it, as etcd's
// `etcdutl snapshot restore` starts from what a snapshot holds: a log
// damaged at byte N keeps its first N bytes, and it and the logs after it
// move, as they were, to a directory "damaged-TIME" inside dir; a
// damaged snapshot keeps its objects before the damage, and all the logs
// move. Nothing is deleted. Writes acknowledged after the damage are lost
// unless they can be read from the moved files by hand.
//
// Damage is what [Log.Load] refuses in the files themselves (a bad frame,
// a record that is not JSON, resourceVersions out of order); a record
// that the server cannot apply (a kind it does not know) is not damage,
// and is left alone. The directory must not be open.
func Recover(dir string) (Recovery, error) {
	var rec Recovery
	damage, err := findDamage(dir)
	if err != nil || damage == nil {
		return rec, err
	}
	rec.Damage = damage
	rec.MovedTo = filepath.Join(dir, "damaged-"+time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := os.Mkdir(rec.MovedTo, 0o700); err != nil {
		return rec, err
	}
	if filepath.Base(damage.Path) == snapshotName {
		err = keepSnapshotPrefix(dir, rec.MovedTo, damage.Offset)
	} else {
		err = keepLogPrefix(dir, rec.MovedTo, damage.Path, damage.Offset)
	}
	if err != nil {
		return rec, err
	}
	if err := syncDir(dir); err != nil {
		return rec, err
	}
	again, err := findDamage(dir)
	if err == nil && again != nil {
		err = fmt.Errorf("still damaged after the recovery: %w", again)
	}
	if err == nil {
		rec.Kept, err = lastRV(dir)
	}
	return rec, err
}

// findDamage loads dir without applying anything, and returns the damage
// it finds in the files, or nil.
func findDamage(dir string) (*StorageError, error) {
	l, err := Open(dir, Options{})
	if err != nil {
		return nil, err
	}
	defer l.Close()
	_, err = l.Load(Loader{Apply: func(Record, any) error { return nil }})
	var se *StorageError
	switch {
	case err == nil:
		return nil, nil
	case errors.As(err, &se) && se.Offset >= 0:
		return se, nil
	}
	return nil, err
}

// lastRV returns the newest resourceVersion dir holds.
func lastRV(dir string) (int64, error) {
	l, err := Open(dir, Options{})
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Load(Loader{Apply: func(Record, any) error { return nil }})
}

// keepLogPrefix moves the damaged log and every later one to moved, and
// puts the damaged log's first good bytes back.
func keepLogPrefix(dir, moved, damaged string, good int64) error {
	names, _, err := logs(dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		if name >= damaged {
			if err := os.Rename(name, filepath.Join(moved, filepath.Base(name))); err != nil {
				return err
			}
		}
	}
	return copyPrefix(filepath.Join(moved, filepath.Base(damaged)), damaged, good)
}

// keepSnapshotPrefix moves the damaged snapshot and every log to moved,
// and writes a snapshot of the records before the damage.
func keepSnapshotPrefix(dir, moved string, good int64) error {
	names, _, err := logs(dir)
	if err != nil {
		return err
	}
	for _, name := range append(names, filepath.Join(dir, snapshotName)) {
		if err := os.Rename(name, filepath.Join(moved, filepath.Base(name))); err != nil {
			return err
		}
	}
	if good == 0 {
		return nil // not even the header is good: no snapshot
	}
	return copyPrefix(filepath.Join(moved, snapshotName), filepath.Join(dir, snapshotName), good)
}

// copyPrefix writes the first n bytes of from to a new file to, synced.
func copyPrefix(from, to string, n int64) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b[:min(n, int64(len(b)))])
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}
