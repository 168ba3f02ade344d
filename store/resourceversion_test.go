package store

import "testing"

// TestLastStoreSyncResourceVersion walks the store through what an
// informer does to it and checks the recorded resourceVersion after each
// step: only Replace and Bookmark move it; Add, Update and Delete leave
// it alone (the store cannot read resourceVersions); a failed Replace
// leaves it too.
func TestLastStoreSyncResourceVersion(t *testing.T) {
	x := NewIndexer(nil, Indexers[*widget]{"size": sizeIndex})
	bad := newWidget("a", "bad", "red")
	bad.Spec.Size = -1
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"new store", func() error { return nil }, ""},
		{"first list", func() error { return x.Replace([]*widget{newWidget("a", "w1", "red")}, "10") }, "10"},
		{"add says nothing", func() error { return x.Add(newWidget("a", "w2", "red")) }, "10"},
		{"bookmark after the add", func() error { x.Bookmark("11"); return nil }, "11"},
		{"delete says nothing", func() error { return x.Delete(newWidget("a", "w2", "")) }, "11"},
		{"watch bookmark", func() error { x.Bookmark("15"); return nil }, "15"},
		{"failed relist changes nothing", func() error {
			if err := x.Replace([]*widget{bad}, "20"); err == nil {
				t.Error("Replace with a refused object: no error")
			}
			return nil
		}, "15"},
		{"relist", func() error { return x.Replace(nil, "21") }, "21"},
		{"a bookmark is taken as given, even older", func() error { x.Bookmark("3"); return nil }, "3"},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := x.LastStoreSyncResourceVersion(); got != s.want {
			t.Fatalf("%s: LastStoreSyncResourceVersion() = %q, want %q", s.name, got, s.want)
		}
	}
	var zero Indexer[*widget]
	if got := zero.LastStoreSyncResourceVersion(); got != "" {
		t.Fatalf("zero Indexer: %q, want \"\"", got)
	}
}
