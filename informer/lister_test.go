package informer

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

func TestLister(t *testing.T) {
	idx := store.NewIndexer(nil, store.Indexers[*widget]{store.NamespaceIndex: store.MetaNamespaceIndexFunc[*widget]})
	for _, w := range []struct{ ns, name, color string }{{"a", "x", "red"}, {"a", "y", "blue"}, {"b", "x", "red"}} {
		obj := apiservertest.NewWidget(w.ns, w.name)
		obj.Labels = map[string]string{"color": w.color}
		if err := idx.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	l := NewLister(idx, apiservertest.WidgetsResource.GroupResource())
	red, _ := meta.ParseLabelSelector("color=red")
	keys := func(ws []*widget, err error) []string {
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, w := range ws {
			out = append(out, w.Namespace+"/"+w.Name)
		}
		return out
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"all, nil selector", keys(l.List(nil)), []string{"a/x", "a/y", "b/x"}},
		{"all red", keys(l.List(red)), []string{"a/x", "b/x"}},
		{"namespace a", keys(l.Namespace("a").List(meta.Everything())), []string{"a/x", "a/y"}},
		{"namespace a, red", keys(l.Namespace("a").List(red)), []string{"a/x"}},
		{"empty namespace", keys(l.Namespace("zzz").List(nil)), nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	if w, err := l.Namespace("b").Get("x"); err != nil || w.Namespace != "b" {
		t.Errorf("Namespace(b).Get(x) = %v, %v", w, err)
	}
	_, err := l.Namespace("b").Get("y")
	if !meta.IsNotFound(err) {
		t.Fatalf("Get of a missing object = %v, want NotFound", err)
	}
	if want := `widgets.test.kitchensync.io "y" not found`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if _, err := l.Get("x"); !meta.IsNotFound(err) {
		t.Errorf("cluster-wide Get of a namespaced object = %v, want NotFound (use Namespace)", err)
	}
}
