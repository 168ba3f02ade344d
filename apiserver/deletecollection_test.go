package apiserver_test

import (
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// DeleteCollection deletes what the selector picks, each object by the
// rules of Delete (finalizers hold one), answers the list as read, and
// counts as one request.
func TestDeleteCollection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "a", "red", map[string]string{"set": "x"})  // rv 2
		f.create(t, "b", "blue", map[string]string{"set": "y"}) // rv 3
		held := apiservertest.NewWidget("ns", "c")
		held.Labels, held.Finalizers = map[string]string{"set": "x"}, []string{"example.com/hold"}
		if _, err := f.widgets.Create(f.ctx, held, meta.CreateOptions{}); err != nil { // rv 4
			t.Fatal(err)
		}
		watch := f.watch(t, meta.ListOptions{ResourceVersion: "4"})
		rc := f.res.Namespace("ns")
		list, err := rc.DeleteCollection(f.ctx, meta.DeleteOptions{}, meta.ListOptions{LabelSelector: "set=x"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range list.Items {
			got = append(got, o.GetObjectMeta().Name+" rv="+o.GetObjectMeta().ResourceVersion)
		}
		if diff := cmp.Diff([]string{"a rv=2", "c rv=4"}, got); diff != "" || list.ResourceVersion != "4" {
			t.Errorf("list at rv %s (-want +got):\n%s", list.ResourceVersion, diff)
		}
		diffEvents(t, watch, []string{"DELETED ns/a rv=5", "MODIFIED ns/c rv=6"})
		if n := f.srv.RequestCount(apiserver.VerbDeleteCollection, apiservertest.WidgetsResource.GroupResource()); n != 1 {
			t.Errorf("deletecollection requests = %d, want 1", n)
		}
		if n := f.srv.RequestCount(apiserver.VerbDelete, apiservertest.WidgetsResource.GroupResource()); n != 0 {
			t.Errorf("delete requests = %d, want 0", n)
		}
		bad := meta.DeletionPropagation("Sometimes")
		_, err = rc.DeleteCollection(f.ctx, meta.DeleteOptions{PropagationPolicy: &bad}, meta.ListOptions{})
		if !meta.IsInvalid(err) {
			t.Errorf("bad options: %v, want 422 Invalid", err)
		}
		if _, err := f.widgets.Get(f.ctx, "b", meta.GetOptions{}); err != nil {
			t.Errorf("b, not selected, is gone: %v", err)
		}
	})
}
