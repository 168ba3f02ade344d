package apiserver_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A list after writes shows them, in key order, whatever lists came
// before (the server reuses the order of a list only while nothing of its
// resource and namespace was written), with paging too.
func TestListOrderFollowsWrites(t *testing.T) {
	ctx := context.Background()
	srv := apiservertest.NewServer(t)
	c := client.New[*apiservertest.Widget](srv)
	create := func(ns, name string) {
		t.Helper()
		if _, err := c.Namespace(ns).Create(ctx, apiservertest.NewWidget(ns, name), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	names := func(ns string, limit int64) []string {
		t.Helper()
		var out []string
		opts := meta.ListOptions{Limit: limit}
		for {
			items, om, err := c.Namespace(ns).List(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range items {
				out = append(out, w.Namespace+"/"+w.Name)
			}
			if opts.Continue = om.Continue; opts.Continue == "" {
				return out
			}
		}
	}
	check := func(ns string, want ...string) {
		t.Helper()
		for _, limit := range []int64{0, 0, 2} { // twice from the remembered order
			if diff := cmp.Diff(want, names(ns, limit)); diff != "" {
				t.Errorf("list of %q, limit %d (-want +got):\n%s", ns, limit, diff)
			}
		}
	}
	for _, n := range []string{"c", "a", "d"} {
		create("default", n)
	}
	check("default", "default/a", "default/c", "default/d")
	create("default", "b")
	check("default", "default/a", "default/b", "default/c", "default/d")
	create("other", "a")
	check("default", "default/a", "default/b", "default/c", "default/d")
	check("", "default/a", "default/b", "default/c", "default/d", "other/a")
	if err := c.Namespace("default").Delete(ctx, "c", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	check("", "default/a", "default/b", "default/d", "other/a")
	check("default", "default/a", "default/b", "default/d")
	if !slices.IsSorted(names("", 0)) {
		t.Error("not sorted")
	}
}
