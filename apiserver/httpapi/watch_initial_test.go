package httpapi_test

import (
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Watches from no resourceVersion that start while the server stays at
// one resourceVersion share their initial events; each still gets what
// its selectors pick, then every later change, and a watch started after
// a change gets the state after it.
func TestWatchInitialEventsShared(t *testing.T) {
	srv := seeded(t, apiserver.Options{})
	ts := serve(t, srv)
	all1, all2 := watch(t, ts.URL+wPath+"?watch=1"), watch(t, ts.URL+wPath+"?watch=1&resourceVersion=0")
	shop := watch(t, ts.URL+wPath+"?watch=1&labelSelector=app%3Dshop")
	all1.expect(event("ADDED", w1JSON), event("ADDED", w2JSON))
	all2.expect(event("ADDED", w1JSON), event("ADDED", w2JSON))
	shop.expect(event("ADDED", w1JSON))

	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	w4 := apiservertest.NewWidget("default", "w4")
	w4.Spec.Color = "green"
	if _, err := c.Create(ctx, w4, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	all1.expect(event("ADDED", w4JSON))
	all2.expect(event("ADDED", w4JSON))
	watch(t, ts.URL+wPath+"?watch=1").expect(event("ADDED", w1JSON), event("ADDED", w2JSON), event("ADDED", w4JSON))

	if err := c.Delete(ctx, "w1", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	deleted := event("DELETED", strings.Replace(w1JSON, `"resourceVersion":"2"`, `"resourceVersion":"7"`, 1))
	shop.expect(deleted)
	all1.expect(deleted)
}
