package apiserver_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Stored states may share a label map when their labels are equal (the
// objects a controller creates in a row, an update that leaves the labels
// alone), but what a writer gets back is its own: changing it, or the
// object it passed in, changes nothing stored, nothing a watch has had,
// and no other writer's copy. With the cache mutation detector on, no
// two states share, and nothing is reported.
func TestWritersCopiesAreTheirOwn(t *testing.T) {
	for _, detector := range []bool{false, true} {
		t.Run(fmt.Sprintf("detector=%v", detector), func(t *testing.T) {
			f := newFixture(t, apiserver.Options{CacheMutationDetector: detector})
			w := f.watch(t, meta.ListOptions{})
			labels := map[string]string{"app": "shop"}
			in := apiservertest.NewWidget("ns", "a")
			in.Labels = labels
			var got []*apiservertest.Widget
			for _, name := range []string{"a", "b", "c"} {
				in.Name = name
				out, err := f.widgets.Create(f.ctx, in, meta.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, out)
			}
			a := meta.DeepCopy(got[0])
			a.Spec.Size = 1
			updated := f.update(t, a)
			patched, err := f.widgets.Patch(f.ctx, "b", meta.MergePatchType, []byte(`{"spec":{"size":2}}`), meta.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c := meta.DeepCopy(got[2])
			c.Status.Phase = "Ready"
			status, err := f.widgets.UpdateStatus(f.ctx, c, meta.UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			labels["app"] = "changed by the caller"
			for i, out := range append(got, updated, patched, status) {
				out.Labels["app"] = fmt.Sprintf("mine %d", i)
			}
			for _, name := range []string{"a", "b", "c"} {
				if stored := f.get(t, name); stored.Labels["app"] != "shop" {
					t.Errorf("stored %s has labels %v, want app=shop", name, stored.Labels)
				}
			}
			var seen []string
			for range 6 {
				ev := <-w.ResultChan()
				seen = append(seen, fmt.Sprintf("%s %s %v", ev.Type, ev.Object.GetName(), ev.Object.GetObjectMeta().Labels))
			}
			want := []string{"ADDED a map[app:shop]", "ADDED b map[app:shop]", "ADDED c map[app:shop]",
				"MODIFIED a map[app:shop]", "MODIFIED b map[app:shop]", "MODIFIED c map[app:shop]"}
			if diff := cmp.Diff(want, seen); diff != "" {
				t.Errorf("watch events (-want +got):\n%s", diff)
			}
			if err := f.srv.CheckMutations(); err != nil {
				t.Error(err)
			}
		})
	}
}
