package reconcile_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/store"
)

type widgetT = *apiservertest.Widget

// newCachedClient returns a server and a Client whose cache is filled by
// hand (an informer would do it), plus the cache itself.
func newCachedClient(t *testing.T) (*apiserver.Server, *reconcile.Client[widgetT], *store.Indexer[widgetT]) {
	t.Helper()
	srv := apiservertest.NewServer(t)
	cache := store.NewIndexer(store.MetaNamespaceKeyFunc,
		store.Indexers[widgetT]{store.NamespaceIndex: store.MetaNamespaceIndexFunc[widgetT]})
	c, err := reconcile.NewClient(srv, cache)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, cache
}

func TestClientReadsTheCache(t *testing.T) {
	srv, c, cache := newCachedClient(t)
	ctx := t.Context()
	widgets := client.New[widgetT](srv)
	for _, w := range []struct{ ns, name, station string }{
		{"kitchen", "soup", "stove"}, {"kitchen", "steak", "grill"}, {"bar", "mojito", "grill"},
	} {
		obj := apiservertest.NewWidget(w.ns, w.name)
		obj.Labels = map[string]string{"station": w.station}
		created, err := widgets.Namespace(w.ns).Create(ctx, obj, meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := cache.Add(created); err != nil {
			t.Fatal(err)
		}
	}

	got, err := c.Get(ctx, reconcile.NamespacedName{Namespace: "kitchen", Name: "soup"})
	if err != nil || got.Name != "soup" {
		t.Fatalf("Get = %v, %v", got, err)
	}
	got.Spec.Size = 99 // a copy: the cache must not change
	if cached, _, _ := cache.GetByKey("kitchen/soup"); cached.Spec.Size != 0 {
		t.Errorf("modifying the result of Get modified the cache")
	}
	if _, err := c.Get(ctx, reconcile.NamespacedName{Namespace: "kitchen", Name: "pie"}); !meta.IsNotFound(err) {
		t.Errorf("Get of a missing object: err = %v, want NotFound", err)
	}

	grill, _ := meta.ParseLabelSelector("station=grill")
	for _, tt := range []struct {
		ns   string
		sel  *meta.LabelSelector
		want []string
	}{
		{"", nil, []string{"bar/mojito", "kitchen/soup", "kitchen/steak"}},
		{"kitchen", nil, []string{"kitchen/soup", "kitchen/steak"}},
		{"", grill, []string{"bar/mojito", "kitchen/steak"}},
		{"kitchen", grill, []string{"kitchen/steak"}},
		{"nowhere", nil, []string{}},
	} {
		list, err := c.List(ctx, tt.ns, tt.sel)
		if err != nil {
			t.Fatal(err)
		}
		keys := []string{}
		for _, w := range list {
			keys = append(keys, reconcile.NamespacedNameOf(w).String())
		}
		if diff := cmp.Diff(tt.want, keys); diff != "" {
			t.Errorf("List(%q, %v) (-want +got):\n%s", tt.ns, tt.sel, diff)
		}
	}
}

// The cache lags behind writes: an update based on a stale read
// conflicts, and RetryOnConflict with a fresh read fixes it.
func TestClientWritesTheServer(t *testing.T) {
	srv, c, cache := newCachedClient(t)
	ctx := t.Context()
	created, err := c.Create(ctx, apiservertest.NewWidget("kitchen", "soup"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cache.Add(created); err != nil {
		t.Fatal(err)
	}
	stale, _ := c.Get(ctx, reconcile.NamespacedNameOf(created))
	fresh := meta.DeepCopy(stale)
	fresh.Spec.Size = 1
	if _, err := c.Update(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	stale.Spec.Size = 2
	if _, err := c.Update(ctx, stale); !meta.IsConflict(err) {
		t.Fatalf("update from a stale cache: err = %v, want Conflict", err)
	}

	widgets := client.New[widgetT](srv).Namespace("kitchen")
	err = client.RetryOnConflict(client.DefaultRetry, func() error {
		w, err := widgets.Get(ctx, "soup", meta.GetOptions{})
		if err != nil {
			return err
		}
		w.Status.Phase = "Simmering"
		_, err = c.UpdateStatus(ctx, w)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	patched, err := c.Patch(ctx, reconcile.NamespacedNameOf(created), meta.MergePatchType, []byte(`{"spec":{"color":"red"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if patched.Spec.Color != "red" || patched.Spec.Size != 1 || patched.Status.Phase != "Simmering" {
		t.Errorf("after update, status update and patch: spec %+v status %+v", patched.Spec, patched.Status)
	}
	if err := c.Delete(ctx, patched); err != nil {
		t.Fatal(err)
	}
	if _, err := widgets.Get(ctx, "soup", meta.GetOptions{}); !meta.IsNotFound(err) {
		t.Errorf("after Delete: err = %v, want NotFound", err)
	}
}

func TestNewClientRejectsUnregisteredKinds(t *testing.T) {
	srv := apiservertest.NewServer(t)
	type unregistered = *meta.Status
	if _, err := reconcile.NewClient(srv, store.NewIndexer[unregistered](store.MetaNamespaceKeyFunc, nil)); err == nil {
		t.Errorf("NewClient for an unregistered kind succeeded")
	}
}
