package httpapi

import (
	"bytes"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A change is encoded once per form for every watcher that receives it:
// the second JSON watcher and the second protobuf watcher get the bytes
// the first one's encoding made, each the same as encoding it anew;
// bookmarks are each watcher's own and never kept.
func TestEncodedEventsSharedPerForm(t *testing.T) {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	lease, err := client.New[*builtin.Lease](srv).Namespace("default").Create(t.Context(),
		&builtin.Lease{ObjectMeta: meta.ObjectMeta{Name: "l"}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	info := builtin.LeaseKind()
	ev := meta.Event{Type: meta.EventModified, Object: lease}
	var c encodedEvents
	for _, as := range []representation{asObject, asProtobuf} {
		first, err := c.line(srv, info, ev, as)
		if err != nil {
			t.Fatal(err)
		}
		second, err := c.line(srv, info, ev, as)
		if err != nil {
			t.Fatal(err)
		}
		if &first[0] != &second[0] {
			t.Errorf("form %v: the second watcher's event was encoded again", as)
		}
		fresh, err := encodeEvent(srv, info, ev, as)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, fresh) {
			t.Errorf("form %v: kept %q, encoding anew gives %q", as, first, fresh)
		}
	}
	if n := len(c.lines); n != 2 {
		t.Errorf("%d encodings kept after one change in two forms, want 2", n)
	}
	bookmark := meta.Event{Type: meta.EventBookmark, Object: lease}
	if _, err := c.line(srv, info, bookmark, asProtobuf); err != nil {
		t.Fatal(err)
	}
	if n := len(c.lines); n != 2 {
		t.Errorf("%d encodings kept after a bookmark, want still 2", n)
	}
}
