package apiserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestListJSONEqualsMarshal checks that ListJSON, which writes items from
// the stored encodings, gives exactly the bytes of json.Marshal of List,
// for objects with labels, status, managedFields, generateName and
// escapes, across pages, selectors and namespaces.
func TestListJSONEqualsMarshal(t *testing.T) {
	ctx := context.Background()
	srv := apiservertest.NewServer(t)
	rc := srv.Resource(apiservertest.WidgetsResource)
	fillForJSON(t, srv)
	for _, tc := range []struct {
		ns   string
		opts meta.ListOptions
	}{
		{"", meta.ListOptions{}},
		{"default", meta.ListOptions{}},
		{"other", meta.ListOptions{LabelSelector: "app=x"}},
		{"", meta.ListOptions{Limit: 3}},
		{"default", meta.ListOptions{LabelSelector: "app=none"}},
	} {
		c := rc.Namespace(tc.ns)
		list, err := c.List(ctx, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.ListJSON(ctx, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("ns %q %+v:\n got %s\nwant %s", tc.ns, tc.opts, got, want)
		}
	}
}

// fillForJSON creates widgets in two namespaces with labels, status,
// managedFields, generateName and characters JSON escapes.
func fillForJSON(t *testing.T, srv *apiserver.Server) {
	ctx := context.Background()
	for _, ns := range []string{"default", "other"} {
		c := client.New[*apiservertest.Widget](srv).Namespace(ns)
		for i := range 5 {
			w := apiservertest.NewWidget(ns, fmt.Sprintf("w%d", i))
			w.Spec.Color = []string{"red", "<blue&\"green\">", ""}[i%3]
			w.Spec.Tags = []string{"a", "é\u2028"}
			if i%2 == 0 {
				w.Labels = map[string]string{"app": "x", "tier": fmt.Sprint(i)}
			}
			got, err := c.Create(ctx, w, meta.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				got.Status.Phase = "Ready"
				if _, err := c.UpdateStatus(ctx, got, meta.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		a := apiservertest.NewWidget(ns, "applied")
		a.Spec.Size = 3
		if _, err := c.Apply(ctx, a, meta.ApplyOptions{FieldManager: "me"}); err != nil {
			t.Fatal(err)
		}
		g := apiservertest.NewWidget(ns, "")
		g.GenerateName = "gen-"
		if _, err := c.Create(ctx, g, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGetJSONAndWatchJSONEqualMarshal checks that GetJSON, and
// AppendObjectJSON of every object a watch delivers (changes, deletes,
// objects leaving a selection), give exactly json.Marshal's bytes.
func TestGetJSONAndWatchJSONEqualMarshal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		srv := apiservertest.NewServer(t)
		rc := srv.Resource(apiservertest.WidgetsResource)
		all, err := rc.Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion()})
		if err != nil {
			t.Fatal(err)
		}
		selected, err := rc.Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion(), LabelSelector: "app=x"})
		if err != nil {
			t.Fatal(err)
		}
		fillForJSON(t, srv)
		c := client.New[*apiservertest.Widget](srv).Namespace("default")
		w0, err := c.Get(ctx, "w0", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w0.Labels = nil // leaves app=x
		if _, err := c.Update(ctx, w0, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := c.Delete(ctx, "w2", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		all.Stop()
		selected.Stop()
		n := 0
		for _, w := range []meta.WatchInterface{all, selected} {
			for ev := range w.ResultChan() {
				n++
				checkJSON(t, ev.Type, ev.Object, func() ([]byte, error) { return srv.AppendObjectJSON([]byte("x"), ev.Object) }, "x")
			}
		}
		if n < 15 {
			t.Errorf("the watches delivered %d events, want at least 15", n)
		}
		list, err := rc.List(ctx, meta.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range list.Items {
			m := obj.GetObjectMeta()
			checkJSON(t, "GET", obj, func() ([]byte, error) {
				return rc.Namespace(m.Namespace).GetJSON(ctx, m.Name, meta.GetOptions{})
			}, "")
		}
	})
}

// checkJSON compares encode's bytes with prefix and json.Marshal of obj.
func checkJSON(t *testing.T, what meta.EventType, obj meta.Object, encode func() ([]byte, error), prefix string) {
	t.Helper()
	want, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != prefix+string(want) {
		t.Errorf("%s %s:\n got %s\nwant %s%s", what, obj.GetObjectMeta().Name, got, prefix, want)
	}
}
