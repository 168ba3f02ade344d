package apiservertest_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func TestDeepCopySharesNothing(t *testing.T) {
	w := apiservertest.NewWidget("ns", "a")
	w.Labels = map[string]string{"k": "v"}
	w.Finalizers = []string{"f"}
	w.Spec.Tags = []string{"t"}
	c := meta.DeepCopy(w)
	if diff := cmp.Diff(w, c); diff != "" {
		t.Fatalf("copy differs (-orig +copy)\n%s", diff)
	}
	c.Labels["k"], c.Finalizers[0], c.Spec.Tags[0] = "x", "x", "x"
	if w.Labels["k"] != "v" || w.Finalizers[0] != "f" || w.Spec.Tags[0] != "t" {
		t.Errorf("the copy shares memory with the original: %+v", w)
	}
	g := apiservertest.NewGadget("g")
	if diff := cmp.Diff(g, meta.DeepCopy(g)); diff != "" {
		t.Errorf("gadget copy differs:\n%s", diff)
	}
}

func TestNewServerServesBothKinds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		ctx := context.Background()
		if _, err := srv.Resource(apiservertest.WidgetsResource).Create(ctx, apiservertest.NewWidget("ns", "w"), meta.CreateOptions{}); err != nil {
			t.Error(err)
		}
		if _, err := srv.Resource(apiservertest.GadgetsResource).Create(ctx, apiservertest.NewGadget("g"), meta.CreateOptions{}); err != nil {
			t.Error(err)
		}
		// A watch left running is closed by the cleanup NewServer registered.
		if _, err := srv.Resource(apiservertest.GadgetsResource).Watch(ctx, meta.ListOptions{}); err != nil {
			t.Error(err)
		}
	})
}
