package store

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIndexerIndexFuncErrorChangesNothing(t *testing.T) {
	idx := testIndexers()
	idx["size"] = sizeIndex
	x := NewIndexer(nil, idx)
	if err := x.Add(newWidget("a", "w1", "red", "x")); err != nil {
		t.Fatal(err)
	}
	before := snap(t, x)
	bad := newWidget("a", "w1", "blue", "y")
	bad.Spec.Size = -1
	other := newWidget("a", "w2", "green")
	other.Spec.Size = -1
	tests := []struct {
		name string
		do   func() error
	}{
		{"Add of a new key", func() error { return x.Add(other) }},
		{"Update of a stored key", func() error { return x.Update(bad) }},
		{"UpdateByKey of a stored key", func() error { _, _, err := x.UpdateByKey("a/w1", bad); return err }},
		{"Replace", func() error { return x.Replace([]*widget{newWidget("a", "w9", "red"), bad}, "7") }},
		{"AddIndexers", func() error {
			return x.AddIndexers(Indexers[*widget]{"fails": func(*widget) ([]string, error) { return nil, errNegativeSize }})
		}},
	}
	for _, tt := range tests {
		err := tt.do()
		var ie *IndexFuncError
		if !errors.As(err, &ie) || !errors.Is(err, errNegativeSize) {
			t.Errorf("%s: err = %v, want an *IndexFuncError wrapping the function's error", tt.name, err)
		}
		checkIndexer(t, x)
		if diff := cmp.Diff(before, snap(t, x)); diff != "" {
			t.Errorf("%s changed the store (-before +after):\n%s", tt.name, diff)
		}
	}
	if _, ok := x.GetIndexers()["fails"]; ok {
		t.Errorf("a failed AddIndexers registered its index")
	}
	if _, err := x.Index("size", bad); !errors.Is(err, errNegativeSize) {
		t.Errorf("Index with a failing function: err = %v, want the function's error", err)
	}
}

func TestIndexerMutatedObjectIsStillRemoved(t *testing.T) {
	x := NewIndexer(nil, Indexers[*widget]{"size": sizeIndex})
	w := newWidget("a", "w1", "")
	w.Spec.Size = 3
	if err := x.Add(w); err != nil {
		t.Fatal(err)
	}
	w.Spec.Size = -1 // what the docs forbid: mutating a cached object
	if err := x.Delete(w); err != nil {
		t.Fatal(err)
	}
	if got := x.ListIndexFuncValues("size"); len(got) != 0 {
		t.Errorf("values after delete = %q, want none", got)
	}
	if err := x.Add(w); err == nil {
		t.Errorf("Add of a widget the index refuses succeeded")
	}
}

func TestIndexerKeyErrors(t *testing.T) {
	x := NewIndexer(nil, testIndexers())
	for name, err := range map[string]error{
		"nil":     x.Add(nil),
		"no name": x.Add(newWidget("a", "", "")),
		"delete":  x.Delete(nil),
	} {
		var ke *KeyError
		if !errors.As(err, &ke) {
			t.Errorf("%s: err = %v, want a *KeyError", name, err)
		}
	}
	if _, _, err := x.Get(nil); err == nil {
		t.Errorf("Get(nil) succeeded")
	}
	if got := x.ListKeys(); len(got) != 0 {
		t.Errorf("keys after failed adds: %q", got)
	}
}

func TestIndexerAddIndexers(t *testing.T) {
	x := NewIndexer(nil, Indexers[*widget]{"color": colorIndex})
	for _, w := range []*widget{newWidget("a", "w1", "red", "x"), newWidget("b", "w2", "blue", "x", "y")} {
		if err := x.Add(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.AddIndexers(Indexers[*widget]{"tags": tagsIndex, NamespaceIndex: MetaNamespaceIndexFunc[*widget]}); err != nil {
		t.Fatal(err)
	}
	checkIndexer(t, x)
	want := snapshot{Keys: []string{"a/w1", "b/w2"}, Indexes: map[string]map[string][]string{
		"color":     {"red": {"a/w1"}, "blue": {"b/w2"}},
		"tags":      {"x": {"a/w1", "b/w2"}, "y": {"b/w2"}},
		"namespace": {"a": {"a/w1"}, "b": {"b/w2"}},
	}}
	if diff := cmp.Diff(want, snap(t, x)); diff != "" {
		t.Errorf("after AddIndexers (-want +got):\n%s", diff)
	}
	err := x.AddIndexers(Indexers[*widget]{"tags": tagsIndex, "new": tagsIndex})
	if !errors.Is(err, ErrIndexConflict) {
		t.Errorf("AddIndexers with a taken name: err = %v, want ErrIndexConflict", err)
	}
	if _, ok := x.GetIndexers()["new"]; ok {
		t.Errorf("a conflicting AddIndexers registered its other index")
	}
}

func TestIndexerConcurrent(t *testing.T) {
	x := NewIndexer(nil, testIndexers())
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				w := newWidget("ns", string(rune('a'+g))+"-"+string(rune('a'+i%26)), []string{"red", "blue"}[i%2])
				if err := x.Add(w); err != nil {
					t.Error(err)
					return
				}
				if _, err := x.ByIndex("color", "red"); err != nil {
					t.Error(err)
					return
				}
				if i%3 == 0 {
					_ = x.Delete(w)
				}
			}
		})
	}
	wg.Wait()
	checkIndexer(t, x)
}

func TestIndexerErrorMessages(t *testing.T) {
	idx := testIndexers()
	idx["size"] = sizeIndex
	x := NewIndexer(nil, idx)
	bad := newWidget("a", "w1", "")
	bad.Spec.Size = -1
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"index function", x.Add(bad), `store: index function "size" failed for object "a/w1" (nothing was changed): negative size`},
		{"nil object", x.Add(nil), `store: cannot make a key for <nil>: the object is nil`},
		{"nameless object", x.Add(newWidget("a", "", "")), `store: cannot make a key for *apiservertest.Widget "a/": metadata.name is empty; set the name (the API server does on create)`},
	}
	for _, tt := range tests {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("%s: error\n%v\nwant\n%s", tt.name, tt.err, tt.want)
		}
	}
	var ke *KeyError
	if err := x.Add(nil); !errors.As(err, &ke) || errors.Unwrap(err) == nil {
		t.Errorf("KeyError does not unwrap: %v", err)
	}
}

func TestIndexerUpdateOfMutatedObjectAndDeleteByKey(t *testing.T) {
	x := NewIndexer(nil, Indexers[*widget]{"size": sizeIndex})
	w := newWidget("a", "w1", "")
	w.Spec.Size = 3
	if err := x.Add(w); err != nil {
		t.Fatal(err)
	}
	w.Spec.Size = -1 // mutated in the cache: its old values cannot be recomputed
	if err := x.Update(newWidget("a", "w1", "")); err != nil {
		t.Fatal(err)
	}
	checkIndexer(t, x)
	if diff := cmp.Diff([]string{"0"}, x.ListIndexFuncValues("size")); diff != "" {
		t.Errorf("values after update (-want +got):\n%s", diff)
	}
	x.DeleteByKey("a/w1")
	x.DeleteByKey("a/none")
	if x.Len() != 0 || len(x.ListIndexFuncValues("size")) != 0 {
		t.Errorf("DeleteByKey left %d objects, values %q", x.Len(), x.ListIndexFuncValues("size"))
	}
}

func TestIndexerZeroValue(t *testing.T) {
	var x Indexer[*widget]
	if err := x.Add(newWidget("a", "w1", "red")); err != nil {
		t.Fatal(err)
	}
	if err := x.AddIndexers(Indexers[*widget]{"color": colorIndex}); err != nil {
		t.Fatal(err)
	}
	checkIndexer(t, &x)
	if keys, err := x.IndexKeys("color", "red"); err != nil || len(keys) != 1 {
		t.Errorf("IndexKeys = %q, %v", keys, err)
	}
}
