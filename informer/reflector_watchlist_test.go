package informer

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestCollectorSorted checks that a watch-list hands Replace the streamed
// state sorted by key, each key once with its last state, whatever order
// the events came in.
func TestCollectorSorted(t *testing.T) {
	type step struct {
		typ  meta.EventType
		name string
		rv   string
	}
	tests := []struct {
		name   string
		reason string
		steps  []step
		want   []string // name@rv
	}{{
		name:   "in key order",
		reason: "as the server streams it: nothing to sort",
		steps:  []step{{meta.EventAdded, "a", "1"}, {meta.EventAdded, "b", "2"}, {meta.EventAdded, "c", "3"}},
		want:   []string{"a@1", "b@2", "c@3"},
	}, {
		name:  "out of order",
		steps: []step{{meta.EventAdded, "c", "1"}, {meta.EventAdded, "a", "2"}, {meta.EventAdded, "b", "3"}},
		want:  []string{"a@2", "b@3", "c@1"},
	}, {
		name:   "updated and deleted",
		reason: "a key keeps its first place and its last state; a deleted key is left out",
		steps: []step{{meta.EventAdded, "a", "1"}, {meta.EventAdded, "b", "2"}, {meta.EventModified, "a", "3"},
			{meta.EventAdded, "c", "4"}, {meta.EventDeleted, "b", "5"}},
		want: []string{"a@3", "c@4"},
	}, {
		name:   "deleted and added again",
		reason: "the key arrives twice: sorted from the map, listed once",
		steps:  []step{{meta.EventAdded, "a", "1"}, {meta.EventDeleted, "a", "2"}, {meta.EventAdded, "b", "3"}, {meta.EventAdded, "a", "4"}},
		want:   []string{"a@4", "b@3"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &collector{objs: map[string]meta.Object{}}
			r := NewReflector(nil, c, ReflectorOptions{})
			for _, s := range tt.steps {
				if _, err := r.apply(event(s.typ, s.name, s.rv), c); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, obj := range c.sorted() {
				m := obj.GetObjectMeta()
				got = append(got, m.Name+"@"+m.ResourceVersion)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: sorted() mismatch (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}
