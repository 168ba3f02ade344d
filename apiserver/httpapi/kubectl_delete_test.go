package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestKubectlDeleteWaitsForFinalizers runs `kubectl delete --wait` on a
// widget held by a finalizer: kubectl must keep waiting (it watches the
// object) until a controller removes the finalizer. It tells the object
// it deleted by the uid in the server's answer, so an answer without it
// would let kubectl return at once.
func TestKubectlDeleteWaitsForFinalizers(t *testing.T) {
	srv := apiservertest.NewServer(t)
	widgets := client.New[*apiservertest.Widget](srv).Namespace("default")
	held := apiservertest.NewWidget("default", "held")
	held.Finalizers = []string{"kitchen/cleanup"}
	if _, err := widgets.Create(ctx, held, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	watching := make(chan struct{})
	var once sync.Once
	h := httpapi.NewHandler(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("watch") == "true" {
			once.Do(func() { close(watching) })
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	k := newKubectl(t, ts.URL)

	var out strings.Builder
	cmd := k.command(context.Background(), "delete", "widget", "held", "--wait", "--timeout=5m")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("kubectl delete --wait returned (%v) while a finalizer still held the widget: %s", err, out.String())
	case <-watching: // kubectl watches for the deletion
	}

	got, err := widgets.Get(ctx, "held", meta.GetOptions{})
	if err != nil || got.DeletionTimestamp == nil {
		t.Fatalf("Get(held) = %+v, %v; want it marked for deletion", got, err)
	}
	got.Finalizers = nil
	if _, err := widgets.Update(ctx, got, meta.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("kubectl delete --wait: %v: %s", err, out.String())
	}
	if want := "widget.test.kitchensync.io \"held\" deleted\n"; out.String() != want {
		t.Errorf("kubectl delete --wait printed %q, want %q", out.String(), want)
	}
}

// TestKubectlDeleteCascade deletes owners with kubectl's --cascade
// choices: orphan keeps the dependent without its owner reference,
// foreground and background take it along.
func TestKubectlDeleteCascade(t *testing.T) {
	srv := apiservertest.NewServer(t)
	widgets := client.New[*apiservertest.Widget](srv).Namespace("default")
	k := newKubectl(t, serve(t, srv).URL)
	for _, cascade := range []string{"orphan", "foreground", "background"} {
		t.Run(cascade, func(t *testing.T) {
			owner, err := widgets.Create(ctx, apiservertest.NewWidget("default", "owner"), meta.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			dep := apiservertest.NewWidget("default", "dependent")
			dep.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(owner)}
			if _, err := widgets.Create(ctx, dep, meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			k.must("widget.test.kitchensync.io \"owner\" deleted\n", "delete", "widget", "owner", "--cascade="+cascade)
			k.fail("Error from server (NotFound): widgets.test.kitchensync.io \"owner\" not found\n", "get", "widget", "owner")
			if cascade != "orphan" {
				k.fail("Error from server (NotFound): widgets.test.kitchensync.io \"dependent\" not found\n", "get", "widget", "dependent")
				return
			}
			k.must("dependent \n", "get", "widget", "dependent", "-o", `jsonpath={.metadata.name} {.metadata.ownerReferences}{"\n"}`)
			if err := widgets.Delete(ctx, "dependent", meta.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
