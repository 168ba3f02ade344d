package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

type widget = apiservertest.Widget

// newWidget returns a widget with a color and tags.
func newWidget(ns, name, color string, tags ...string) *widget {
	w := apiservertest.NewWidget(ns, name)
	w.Spec.Color = color
	w.Spec.Tags = tags
	return w
}

// errNegativeSize is what sizeIndex returns for a widget it refuses.
var errNegativeSize = errors.New("negative size")

func colorIndex(w *widget) ([]string, error) {
	if w.Spec.Color == "" {
		return nil, nil
	}
	return []string{w.Spec.Color}, nil
}

func tagsIndex(w *widget) ([]string, error) { return w.Spec.Tags, nil }

// sizeIndex fails on a negative size, to test index function errors.
func sizeIndex(w *widget) ([]string, error) {
	if w.Spec.Size < 0 {
		return nil, errNegativeSize
	}
	return []string{fmt.Sprint(w.Spec.Size)}, nil
}

func testIndexers() Indexers[*widget] {
	return Indexers[*widget]{
		"color":        colorIndex,
		"tags":         tagsIndex,
		NamespaceIndex: MetaNamespaceIndexFunc[*widget],
	}
}

// snapshot is the whole visible state of an Indexer: its keys, and for
// each index the keys filed under each value.
type snapshot struct {
	Keys    []string
	Indexes map[string]map[string][]string
}

func snap(t *testing.T, x *Indexer[*widget]) snapshot {
	t.Helper()
	s := snapshot{Keys: x.ListKeys(), Indexes: map[string]map[string][]string{}}
	for name := range x.GetIndexers() {
		vals := map[string][]string{}
		for _, v := range x.ListIndexFuncValues(name) {
			keys, err := x.IndexKeys(name, v)
			if err != nil {
				t.Fatalf("IndexKeys(%q, %q): %v", name, v, err)
			}
			vals[v] = keys
		}
		s.Indexes[name] = vals
	}
	return s
}

// checkIndexer verifies the Indexer's internal invariants: every stored
// key has its own live entry, and no freed id is in use; every index entry
// points at a stored object that produces that value; every stored object
// is filed under exactly its values; no value is empty.
func checkIndexer(t *testing.T, x *Indexer[*widget]) {
	t.Helper()
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !slices.IsSortedFunc(x.indexes, func(a, b *index[*widget]) int { return strings.Compare(a.name, b.name) }) {
		t.Errorf("indexes not sorted by name")
	}
	live := map[uint32]string{}
	for k, id := range x.ids {
		if other, dup := live[id]; dup {
			t.Errorf("keys %q and %q share id %d", k, other, id)
		}
		live[id] = k
		if e := x.entries.at(id); e.key != k || e.obj == nil {
			t.Errorf("key %q: entry %d holds key %q, object %v", k, id, e.key, e.obj)
		}
	}
	for _, id := range x.entries.free {
		if k, ok := live[id]; ok {
			t.Errorf("id %d is free but holds key %q", id, k)
		}
	}
	for _, ix := range x.indexes {
		checkIndex(t, x, ix, live)
	}
}

// checkIndex verifies one index for checkIndexer; live maps the ids in
// use to their keys.
func checkIndex(t *testing.T, x *Indexer[*widget], ix *index[*widget], live map[uint32]string) {
	t.Helper()
	for v, set := range ix.values {
		if cached := set.sorted.Load(); cached != nil {
			want := slices.Collect(maps.Keys(set.ids))
			x.entries.sortByKey(want)
			if !slices.Equal(*cached, want) {
				t.Errorf("index %q value %q: cached sorted ids %v are stale, want %v", ix.name, v, *cached, want)
			}
		}
		if len(set.ids) == 0 {
			t.Errorf("index %q: value %q has no keys but is kept", ix.name, v)
		}
		for id := range set.ids {
			k, ok := live[id]
			if !ok {
				t.Errorf("index %q value %q: id %d is not stored", ix.name, v, id)
				continue
			}
			if vals, _ := ix.fn(x.entries.at(id).obj); !slices.Contains(vals, v) {
				t.Errorf("index %q value %q: key %q has values %q", ix.name, v, k, vals)
			}
		}
	}
	for k, id := range x.ids {
		vals, err := ix.fn(x.entries.at(id).obj)
		if err != nil {
			continue // only a mutated object can fail here; tested separately
		}
		for _, v := range vals {
			if set := ix.values[v]; set == nil {
				t.Errorf("index %q: key %q missing under its value %q", ix.name, k, v)
			} else if _, ok := set.ids[id]; !ok {
				t.Errorf("index %q: key %q missing under its value %q", ix.name, k, v)
			}
		}
	}
}

func TestIndexerSteps(t *testing.T) {
	type step struct {
		name   string
		reason string
		do     func(x *Indexer[*widget]) error
		want   snapshot
	}
	add := func(w *widget) func(*Indexer[*widget]) error {
		return func(x *Indexer[*widget]) error { return x.Add(w) }
	}
	update := func(w *widget) func(*Indexer[*widget]) error {
		return func(x *Indexer[*widget]) error { return x.Update(w) }
	}
	del := func(w *widget) func(*Indexer[*widget]) error {
		return func(x *Indexer[*widget]) error { return x.Delete(w) }
	}
	steps := []step{{
		name: "add red",
		do:   add(newWidget("a", "w1", "red", "x", "y")),
		want: snapshot{Keys: []string{"a/w1"}, Indexes: map[string]map[string][]string{
			"color": {"red": {"a/w1"}}, "tags": {"x": {"a/w1"}, "y": {"a/w1"}}, "namespace": {"a": {"a/w1"}},
		}},
	}, {
		name:   "add blue in b and a cluster-scoped one",
		reason: "cluster-scoped objects are filed under the empty namespace",
		do: func(x *Indexer[*widget]) error {
			return errors.Join(x.Add(newWidget("b", "w2", "blue", "y")), x.Add(newWidget("", "w3", "red")))
		},
		want: snapshot{Keys: []string{"a/w1", "b/w2", "w3"}, Indexes: map[string]map[string][]string{
			"color":     {"red": {"a/w1", "w3"}, "blue": {"b/w2"}},
			"tags":      {"x": {"a/w1"}, "y": {"a/w1", "b/w2"}},
			"namespace": {"": {"w3"}, "a": {"a/w1"}, "b": {"b/w2"}},
		}},
	}, {
		name:   "update moves w1 from red to green and drops tag x",
		reason: "an update moves the key between values; a value left empty disappears",
		do:     update(newWidget("a", "w1", "green", "y", "z")),
		want: snapshot{Keys: []string{"a/w1", "b/w2", "w3"}, Indexes: map[string]map[string][]string{
			"color":     {"red": {"w3"}, "blue": {"b/w2"}, "green": {"a/w1"}},
			"tags":      {"y": {"a/w1", "b/w2"}, "z": {"a/w1"}},
			"namespace": {"": {"w3"}, "a": {"a/w1"}, "b": {"b/w2"}},
		}},
	}, {
		name:   "add of an existing key is an update",
		reason: "Add and Update are the same, as in client-go",
		do:     add(newWidget("b", "w2", "", "y")),
		want: snapshot{Keys: []string{"a/w1", "b/w2", "w3"}, Indexes: map[string]map[string][]string{
			"color":     {"red": {"w3"}, "green": {"a/w1"}},
			"tags":      {"y": {"a/w1", "b/w2"}, "z": {"a/w1"}},
			"namespace": {"": {"w3"}, "a": {"a/w1"}, "b": {"b/w2"}},
		}},
	}, {
		name:   "delete by key only",
		reason: "the stored object, not the argument, decides what is unfiled",
		do:     del(newWidget("a", "w1", "something-else")),
		want: snapshot{Keys: []string{"b/w2", "w3"}, Indexes: map[string]map[string][]string{
			"color":     {"red": {"w3"}},
			"tags":      {"y": {"b/w2"}},
			"namespace": {"": {"w3"}, "b": {"b/w2"}},
		}},
	}, {
		name: "delete of a missing key is not an error",
		do:   del(newWidget("a", "nope", "")),
		want: snapshot{Keys: []string{"b/w2", "w3"}, Indexes: map[string]map[string][]string{
			"color":     {"red": {"w3"}},
			"tags":      {"y": {"b/w2"}},
			"namespace": {"": {"w3"}, "b": {"b/w2"}},
		}},
	}, {
		name:   "replace rebuilds everything",
		reason: "duplicate keys in the list: the later wins",
		do: func(x *Indexer[*widget]) error {
			return x.Replace([]*widget{newWidget("c", "w4", "red"), newWidget("b", "w2", "blue"), newWidget("c", "w4", "pink", "q")}, "42")
		},
		want: snapshot{Keys: []string{"b/w2", "c/w4"}, Indexes: map[string]map[string][]string{
			"color":     {"blue": {"b/w2"}, "pink": {"c/w4"}},
			"tags":      {"q": {"c/w4"}},
			"namespace": {"b": {"b/w2"}, "c": {"c/w4"}},
		}},
	}, {
		name: "replace with nothing empties every index",
		do:   func(x *Indexer[*widget]) error { return x.Replace(nil, "43") },
		want: snapshot{Keys: []string{}, Indexes: map[string]map[string][]string{
			"color": {}, "tags": {}, "namespace": {},
		}},
	}}
	x := NewIndexer(nil, testIndexers())
	for _, s := range steps {
		if err := s.do(x); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		checkIndexer(t, x)
		if diff := cmp.Diff(s.want, snap(t, x)); diff != "" {
			t.Fatalf("%s (%s): state mismatch (-want +got):\n%s", s.name, s.reason, diff)
		}
	}
}

// TestIndexerUpdateByKey checks that UpdateByKey files an object as
// Update does and hands back the object it replaced.
func TestIndexerUpdateByKey(t *testing.T) {
	byKey, byObj := NewIndexer(nil, testIndexers()), NewIndexer(nil, testIndexers())
	first, second := newWidget("a", "w1", "red", "x"), newWidget("a", "w1", "blue", "y")
	type got struct {
		Old     *widget
		Existed bool
	}
	for _, step := range []struct {
		obj  *widget
		want got
	}{
		{first, got{nil, false}},
		{second, got{first, true}},
	} {
		old, existed, err := byKey.UpdateByKey("a/w1", step.obj)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(step.want, got{old, existed}); diff != "" {
			t.Errorf("UpdateByKey returned (-want +got):\n%s", diff)
		}
		if err := byObj.Update(step.obj); err != nil {
			t.Fatal(err)
		}
		checkIndexer(t, byKey)
		if diff := cmp.Diff(snap(t, byObj), snap(t, byKey)); diff != "" {
			t.Errorf("UpdateByKey filed differently from Update (-Update +UpdateByKey):\n%s", diff)
		}
	}
}

func TestIndexerDuplicateIndexValues(t *testing.T) {
	x := NewIndexer(nil, Indexers[*widget]{"tags": tagsIndex})
	if err := x.Add(newWidget("a", "w", "", "x", "x")); err != nil {
		t.Fatal(err)
	}
	checkIndexer(t, x)
	if err := x.Update(newWidget("a", "w", "", "y")); err != nil {
		t.Fatal(err)
	}
	checkIndexer(t, x)
	if diff := cmp.Diff([]string{"y"}, x.ListIndexFuncValues("tags")); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

func TestIndexerQueries(t *testing.T) {
	x := NewIndexer(nil, testIndexers())
	w1, w2, w3 := newWidget("a", "w1", "red", "x"), newWidget("a", "w2", "blue", "y"), newWidget("b", "w3", "red", "x", "y")
	for _, w := range []*widget{w3, w2, w1} {
		if err := x.Add(w); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		got  func() ([]*widget, error)
		want []*widget
	}{
		{"ByIndex red", func() ([]*widget, error) { return x.ByIndex("color", "red") }, []*widget{w1, w3}},
		{"ByIndex missing value", func() ([]*widget, error) { return x.ByIndex("color", "green") }, []*widget{}},
		{"ByIndex namespace", func() ([]*widget, error) { return x.ByIndex(NamespaceIndex, "a") }, []*widget{w1, w2}},
		{"Index unions every value of the probe", func() ([]*widget, error) {
			return x.Index("tags", newWidget("z", "probe", "", "x", "y"))
		}, []*widget{w1, w2, w3}},
		{"Index single value", func() ([]*widget, error) { return x.Index("color", newWidget("z", "probe", "blue")) }, []*widget{w2}},
		{"List is sorted by key", func() ([]*widget, error) { return x.List(), nil }, []*widget{w1, w2, w3}},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	got, ok, err := x.Get(newWidget("a", "w2", ""))
	if err != nil || !ok || got != w2 {
		t.Errorf("Get = %v, %v, %v; want the stored w2", got, ok, err)
	}
	if _, ok, _ := x.GetByKey("a/none"); ok {
		t.Errorf("GetByKey of a missing key found something")
	}
}

func TestIndexerUnknownIndex(t *testing.T) {
	x := NewIndexer(nil, testIndexers())
	calls := map[string]error{}
	_, calls["Index"] = x.Index("nope", newWidget("a", "w", ""))
	_, calls["IndexKeys"] = x.IndexKeys("nope", "v")
	_, calls["ByIndex"] = x.ByIndex("nope", "v")
	for name, err := range calls {
		if !errors.Is(err, ErrUnknownIndex) {
			t.Errorf("%s: err = %v, want ErrUnknownIndex", name, err)
		}
	}
	if got := x.ListIndexFuncValues("nope"); len(got) != 0 {
		t.Errorf("ListIndexFuncValues of an unknown index = %q, want none", got)
	}
}
