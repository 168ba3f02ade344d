package owncopy_test

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/internal/owncopy"
)

// sameMap reports whether a and b are one map, not two equal ones.
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func widget(labels map[string]string) *apiservertest.Widget {
	w := apiservertest.NewWidget("ns", "w")
	w.Labels = labels
	w.Spec.Tags = []string{"a"}
	return w
}

// Split shares prior's map with the stored state only when the labels
// are equal, and the writer's copy never holds a map the stored state
// holds, nor any other memory of it.
func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name          string
		labels, prior map[string]string
		shared        bool
	}{
		{"equal", map[string]string{"app": "a"}, map[string]string{"app": "a"}, true},
		{"another value", map[string]string{"app": "a"}, map[string]string{"app": "b"}, false},
		{"fewer", map[string]string{"app": "a"}, map[string]string{"app": "a", "x": "y"}, false},
		{"no prior", map[string]string{"app": "a"}, nil, false},
		{"no labels", nil, map[string]string{"app": "a"}, false},
		{"both empty", map[string]string{}, map[string]string{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := widget(tc.labels)
			own := next.Labels
			got, shared := owncopy.Split(next, tc.prior)
			out := got.(*apiservertest.Widget)
			if shared != tc.shared {
				t.Fatalf("shared = %v, want %v", shared, tc.shared)
			}
			if diff := cmp.Diff(next, out); diff != "" {
				t.Fatalf("the copy differs (-stored +copy):\n%s", diff)
			}
			if tc.shared && (!sameMap(next.Labels, tc.prior) || !sameMap(out.Labels, own)) {
				t.Error("the stored state does not hold prior's map, or the copy not the state's own")
			}
			if !tc.shared && !sameMap(next.Labels, own) {
				t.Error("the stored state's map was replaced without sharing")
			}
			if len(out.Labels) > 0 && sameMap(out.Labels, next.Labels) || &out.Spec.Tags[0] == &next.Spec.Tags[0] {
				t.Error("the copy holds memory of the stored state")
			}
		})
	}
}

// Recent offers the labels of the latest state it did not share, and the
// writer's copies never hold a remembered map.
func TestRecent(t *testing.T) {
	var r owncopy.Recent
	first := widget(map[string]string{"app": "a"})
	out1 := r.Split(first).(*apiservertest.Widget)
	second := widget(map[string]string{"app": "a"})
	out2 := r.Split(second).(*apiservertest.Widget)
	other := widget(map[string]string{"app": "b"})
	r.Split(other)
	third := widget(map[string]string{"app": "b"})
	out3 := r.Split(third).(*apiservertest.Widget)
	switch {
	case sameMap(out1.Labels, first.Labels):
		t.Error("the first copy holds the first state's map")
	case !sameMap(second.Labels, first.Labels):
		t.Error("the second state does not share the first's labels")
	case sameMap(out2.Labels, first.Labels):
		t.Error("the second copy holds the shared map")
	case !sameMap(third.Labels, other.Labels) || sameMap(out3.Labels, other.Labels):
		t.Error("after other labels, Recent does not offer them")
	}
	for _, out := range []*apiservertest.Widget{out1, out2, out3} {
		out.Labels["mine"] = "x" // the writer's to change
	}
	for _, stored := range []*apiservertest.Widget{first, second, other, third} {
		if _, ok := stored.Labels["mine"]; ok {
			t.Fatalf("a change to a writer's copy reached a stored state: %v", stored.Labels)
		}
	}
}
