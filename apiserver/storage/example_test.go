package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// A log's owner appends each committed write under its own lock, and
// answers the write once Wait says it is on the disk. Writes appended
// before a Wait share its sync; a restart loads them back, in order.
func ExampleLog() {
	dir, _ := os.MkdirTemp("", "desk")
	defer os.RemoveAll(dir)

	l, _ := storage.Open(dir, storage.Options{})
	l.Load(storage.Loader{Apply: func(storage.Record, any) error { return nil }}) // an empty directory
	l.Start(1, func(rv int64) { fmt.Println("on the disk up to", rv) }, nil)
	l.Append(storage.Record{RV: 2, Type: "ADDED", APIVersion: "v1", Kind: "Order", Key: "dinner/table-7", Object: []byte(`{"table":7}`)})
	l.Append(storage.Record{RV: 3, Type: "ADDED", APIVersion: "v1", Kind: "Order", Key: "dinner/table-9", Object: []byte(`{"table":9}`)})
	l.Wait(3) // one sync for both
	l.Close()

	again, _ := storage.Open(dir, storage.Options{})
	defer again.Close()
	last, _ := again.Load(storage.Loader{Apply: func(r storage.Record, _ any) error {
		fmt.Println("loaded", r.RV, r.Type, r.Key, string(r.Object))
		return nil
	}})
	fmt.Println("newest:", last)
	// Output:
	// on the disk up to 3
	// loaded 2 ADDED dinner/table-7 {"table":7}
	// loaded 3 ADDED dinner/table-9 {"table":9}
	// newest: 3
}

// A bad frame that no crash makes (here a flipped bit in the second of
// three writes) stops the load, naming the file and the byte; Recover
// keeps what comes before it and moves the rest aside.
func ExampleRecover() {
	dir, _ := os.MkdirTemp("", "desk")
	defer os.RemoveAll(dir)
	l, _ := storage.Open(dir, storage.Options{})
	l.Load(storage.Loader{Apply: func(storage.Record, any) error { return nil }})
	l.Start(1, nil, nil)
	for rv := int64(2); rv <= 4; rv++ {
		l.Append(storage.Record{RV: rv, Type: "ADDED", APIVersion: "v1", Kind: "Order", Key: fmt.Sprint("dinner/o", rv), Object: []byte(`{}`)})
		l.Wait(rv)
	}
	l.Close()
	log := filepath.Join(dir, "wal-00000000000000000002.log")
	b, _ := os.ReadFile(log)
	b[bytes.Index(b, []byte(`{"rv":3,`))+20] ^= 1
	os.WriteFile(log, b, 0o600)

	l, _ = storage.Open(dir, storage.Options{Logger: slog.New(slog.DiscardHandler)})
	_, err := l.Load(storage.Loader{Apply: func(storage.Record, any) error { return nil }})
	l.Close()
	var se *storage.StorageError
	fmt.Println(errors.As(err, &se), filepath.Base(se.Path), se.Offset)

	r, _ := storage.Recover(dir)
	fmt.Println("kept up to", r.Kept, "moved to damaged-…:", filepath.Dir(r.MovedTo) == dir)
	// Output:
	// true wal-00000000000000000002.log 132
	// kept up to 2 moved to damaged-…: true
}
