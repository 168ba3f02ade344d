package apiserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// TestListJSONEqualsMarshal checks that ListJSON, which writes items from
// the stored encodings, gives exactly the bytes of json.Marshal of List,
// for objects with labels, status, managedFields, generateName and
// escapes, across pages, selectors and namespaces.
func TestListJSONEqualsMarshal(t *testing.T) {
	ctx := context.Background()
	srv := apiservertest.NewServer(t)
	rc := srv.Resource(apiservertest.WidgetsResource)
	for _, ns := range []string{"default", "other"} {
		c := apiserver.NewClient[*apiservertest.Widget](srv).Namespace(ns)
		for i := range 5 {
			w := apiservertest.NewWidget(ns, fmt.Sprintf("w%d", i))
			w.Spec.Color = []string{"red", "<blue&\"green\">", ""}[i%3]
			w.Spec.Tags = []string{"a", "é\u2028"}
			if i%2 == 0 {
				w.Labels = map[string]string{"app": "x", "tier": fmt.Sprint(i)}
			}
			got, err := c.Create(ctx, w, apiserver.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				got.Status.Phase = "Ready"
				if _, err := c.UpdateStatus(ctx, got, apiserver.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		a := apiservertest.NewWidget(ns, "applied")
		a.Spec.Size = 3
		if _, err := c.Apply(ctx, a, apiserver.ApplyOptions{FieldManager: "me"}); err != nil {
			t.Fatal(err)
		}
		g := apiservertest.NewWidget(ns, "")
		g.GenerateName = "gen-"
		if _, err := c.Create(ctx, g, apiserver.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		ns   string
		opts apiserver.ListOptions
	}{
		{"", apiserver.ListOptions{}},
		{"default", apiserver.ListOptions{}},
		{"other", apiserver.ListOptions{LabelSelector: "app=x"}},
		{"", apiserver.ListOptions{Limit: 3}},
		{"default", apiserver.ListOptions{LabelSelector: "app=none"}},
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
