package apiserver_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// FuzzRestore reads arbitrary bytes as a snapshot: no panic, and either a
// *StorageError or a server whose own snapshot reads back the same.
//
//	go test -run '^$' -fuzz FuzzRestore -fuzztime 10m ./apiserver/
func FuzzRestore(f *testing.F) {
	srv := apiservertest.NewServer(f)
	writeSome(f, srv)
	var good bytes.Buffer
	if _, err := srv.Snapshot(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add(good.Bytes()[:good.Len()/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		restored, err := apiserver.Restore(apiservertest.NewScheme(), bytes.NewReader(data), apiserver.Options{})
		if err != nil {
			var se *storage.StorageError
			if !errors.As(err, &se) {
				t.Fatalf("Restore: %T %v, want a *StorageError", err, err)
			}
			return
		}
		var again bytes.Buffer
		if _, err := restored.Snapshot(&again); err != nil {
			t.Fatal(err)
		}
		if _, err := apiserver.Restore(apiservertest.NewScheme(), &again, apiserver.Options{}); err != nil {
			t.Fatalf("a restored server's own snapshot does not restore: %v", err)
		}
	})
}
