package chapters

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/examples/build"
	step5 "github.com/kitchensync/kitchensync/examples/build/step5"
	step6 "github.com/kitchensync/kitchensync/examples/build/step6"
	step7 "github.com/kitchensync/kitchensync/examples/build/step7"
	step8 "github.com/kitchensync/kitchensync/examples/build/step8"
	"github.com/kitchensync/kitchensync/trace"
)

// Step 5: an owned child. Each cake gets a Box, a second kind, whose
// metadata.ownerReferences names the cake as its controller (as a Pod
// names its ReplicaSet). Run now also watches boxes: Owns maps a box's
// event to its owner's key, so a box thrown away wakes the baker for its
// cake. Underneath, the delete of a cake is one DELETED; the API server's
// garbage collector then finds the box whose owner is gone and deletes it
// too — the baker does nothing.
func BuildAnOwnedChild(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	srv := shopServer(step5.Register, tr)
	go step5.Run(ctx, srv, &step5.Oven{}, tr)
	cakes, boxes := client.New[*step5.Cake](srv).Namespace("shop"), client.New[*step5.Box](srv).Namespace("shop")
	cakes.Create(ctx, step5.NewCake("shop", "birthday", "chocolate", "happy birthday"), meta.CreateOptions{})
	boxed := func() bool { _, err := boxes.Get(ctx, "birthday", meta.GetOptions{}); return err == nil }
	until(tr, boxed)
	box, _ := boxes.Get(ctx, "birthday", meta.GetOptions{})
	owner := box.OwnerReferences[0]
	fmt.Fprintf(w, "box %s says %q; its owner: %s %s (controller: %v)\n", box.Name, box.Message, owner.Kind, owner.Name, *owner.Controller)
	rec.Reset()
	cakes.Delete(ctx, "birthday", meta.DeleteOptions{})
	until(tr, func() bool { return !boxed() })
	underneath(w, "the cake's delete", rec, is(trace.APIServer, trace.Deleted))
}

// Step 6: status. The baker reports what it did in the cake's status:
// the generation it acted on (observedGeneration) and a Ready condition,
// written through the status subresource (UpdateStatus). The status
// subresource keeps the two writers apart: a status write never moves
// the generation and is not an Update of the spec, and an Update leaves
// the status as it was. So "has the baker seen my change?" is
// observedGeneration == generation, which a user or another controller
// can wait for. The baker writes only when the status would change: its
// own status write wakes it once more, and that reconcile writes nothing.
func BuildStatus(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	srv := shopServer(step6.Register, tr)
	go step6.Run(ctx, srv, &step6.Oven{}, tr)
	cakes := client.New[*step6.Cake](srv).Namespace("shop")
	seen := func(gen int64) func() bool {
		return func() bool {
			c, _ := cakes.Get(ctx, "birthday", meta.GetOptions{})
			return c.Status.ObservedGeneration == gen
		}
	}
	cakes.Create(ctx, step6.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{})
	until(tr, seen(1))
	c, _ := cakes.Get(ctx, "birthday", meta.GetOptions{})
	ready := meta.FindStatusCondition(c.Status.Conditions, "Ready")
	fmt.Fprintf(w, "generation %d, observedGeneration %d, Ready %s (%s)\n", c.Generation, c.Status.ObservedGeneration, ready.Status, ready.Reason)
	rec.Reset()
	c.Spec.Flavor = "lemon"
	cakes.Update(ctx, c, meta.UpdateOptions{})
	until(tr, seen(2))
	underneath(w, "a change of flavor", rec, is(trace.APIServer, trace.Updated))
	c, _ = cakes.Get(ctx, "birthday", meta.GetOptions{})
	c.Status.ObservedGeneration = 99
	c, _ = cakes.Update(ctx, c, meta.UpdateOptions{})
	fmt.Fprintf(w, "an Update that sets observedGeneration 99: stored %d\n", c.Status.ObservedGeneration)
}

// Step 7: a finalizer, for cleanup outside the API. The oven is not an
// API object: no garbage collector frees it. Without help, a cake deleted
// while the baker is away is simply gone, and when the baker comes back
// its informer lists the cakes there are, not the ones there were: the
// oven bakes on for nobody. So the baker puts its finalizer on each
// cake; a delete then only sets deletionTimestamp, the cake stays until
// the finalizer is removed, and the baker — now or whenever it is back —
// frees the oven first, then removes the finalizer, and the server
// deletes the cake.
func BuildAFinalizer(w io.Writer) {
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	srv := shopServer(step7.Register, tr)
	oven := &step7.Oven{}
	cakes := client.New[*step7.Cake](srv).Namespace("shop")
	ctx, away := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- step7.Run(ctx, srv, oven, tr) }()
	cakes.Create(ctx, step7.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{})
	until(tr, func() bool {
		c, _ := cakes.Get(ctx, "birthday", meta.GetOptions{})
		return c.Status.ObservedGeneration == 1
	})
	away() // the baker goes home
	<-done

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec.Reset()
	cakes.Delete(ctx, "birthday", meta.DeleteOptions{})
	c, _ := cakes.Get(ctx, "birthday", meta.GetOptions{})
	flavor, _ := oven.Load("shop/birthday")
	fmt.Fprintf(w, "deleted while the baker is away: still there (deletionTimestamp set: %v, finalizers %v); the oven bakes %v\n",
		c.DeletionTimestamp != nil, c.Finalizers, flavor)
	go step7.Run(ctx, srv, oven, tr) // the baker is back
	until(tr, func() bool { return heard(rec, is(trace.APIServer, trace.Deleted)) && !boxed(ctx, srv) })
	_, baking := oven.Load("shop/birthday")
	_, err := cakes.Get(ctx, "birthday", meta.GetOptions{})
	fmt.Fprintf(w, "the baker is back: the cake is gone: %v; the oven bakes for it: %v\n", meta.IsNotFound(err), baking)
	underneath(w, "the delete", rec, is(trace.APIServer, trace.Updated, trace.Deleted))
}

// boxed reports whether birthday's box is there.
func boxed(ctx context.Context, api client.Interface) bool {
	_, err := client.New[*step7.Box](api).Namespace("shop").Get(ctx, "birthday", meta.GetOptions{})
	return err == nil
}

// Step 8: a test that the baker converges whatever the API server does
// (examples/build/step8/cake_test.go, shown below, and the
// Converged function the step adds). The test kit is the library
// itself: an apiserver.Server of your kinds, its faults on demand —
// FailNext refuses the next writes (429) or makes one lose a race (409),
// CloseWatches cuts every watch — and testing/synctest, in whose bubble
// every backoff passes at once and synctest.Wait says when nothing is
// left to do. The assertion is the state, not the steps: however the
// baker got there, every cake has its box, its status and its flavor in
// the oven, and the oven bakes nothing else. Here the same faults, in
// real time.
func BuildATest(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	srv := shopServer(step8.Register, tr)
	oven := &step8.Oven{}
	go step8.Run(ctx, srv, oven, tr)
	cakes := client.New[*step8.Cake](srv).Namespace("shop")
	for _, name := range []string{"birthday", "wedding", "tuesday"} {
		cakes.Create(ctx, step8.NewCake("shop", name, "chocolate", "for "+name), meta.CreateOptions{})
	}
	until(tr, func() bool { return step8.Converged(ctx, srv, oven) == nil })

	srv.CloseWatches()
	srv.FailNext(apiserver.VerbCreate, 2, meta.NewTooManyRequests("the desk is swamped", 1))
	srv.FailNext(apiserver.VerbUpdate, 1, meta.NewConflict(step8.CakeKind.GroupResource(), "wedding", nil))
	client.New[*step8.Box](srv).Namespace("shop").Delete(ctx, "birthday", meta.DeleteOptions{})
	cakes.Patch(ctx, "wedding", meta.MergePatchType, []byte(`{"spec":{"flavor":"lemon"}}`), meta.PatchOptions{})
	cakes.Delete(ctx, "tuesday", meta.DeleteOptions{})
	until(tr, func() bool { return step8.Converged(ctx, srv, oven) == nil })
	var refused, lost bool
	for _, r := range rec.Records() {
		refused = refused || r.Action == trace.ReconcileFinished && meta.IsTooManyRequests(r.Err)
		lost = lost || r.Action == trace.ReconcileFinished && meta.IsConflict(r.Err)
	}
	fmt.Fprintf(w, "a reconcile was refused (429): %v; one lost a race (409): %v; each was retried\n", refused, lost)
	fmt.Fprintln(w, "converged:", step8.Converged(ctx, srv, oven))
}

// The same program over HTTP. Run takes a client.Interface: the server
// in process, or an HTTP client of any server that speaks the Kubernetes
// REST protocol — kitchensync's own front desk, or a real cluster. There
// the kinds come from CustomResourceDefinitions
// (examples/build/crds.yaml). Try it against the restaurant's front desk,
// without its chef:
//
//	go run ./examples/serve -chef=false -kubeconfig /tmp/kitchen.yaml
//	kubectl --kubeconfig /tmp/kitchen.yaml apply -f examples/build/crds.yaml
//	go run ./examples/build/baker -kubeconfig /tmp/kitchen.yaml
//	kubectl --kubeconfig /tmp/kitchen.yaml apply -f examples/build/cakes.yaml
//	kubectl --kubeconfig /tmp/kitchen.yaml get cakes,boxes
//
// and against a real cluster, the same two files and one line:
//
//	go run ./examples/build/baker -kubeconfig ~/.kube/config
//
// A Go type or a definition? On a cluster a kind always comes from a
// CustomResourceDefinition: the server has none of your Go types. In
// process, register the Go type when the controller is what you test: the
// server hands back your type and checks your Go rules. Install the
// definition instead when the schema is what you test (defaults, pruning,
// CEL rules), or when the kind is someone else's and ships as CRD files
// (go doc ./apiserver/apiextensions).
//
// Here the same, in one process: a front desk on a loopback port, the
// definitions applied over HTTP, step 8's baker over HTTP.
func BuildOverHTTP(w io.Writer) {
	desk := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(desk); err != nil {
		panic(err)
	}
	front := httptest.NewUnstartedServer(httpapi.NewHandler(desk))
	front.Config.ReadHeaderTimeout, front.Config.IdleTimeout = 10*time.Second, 2*time.Minute // as any server should
	front.Start()
	defer front.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	defer func() { cancel(); <-done }() // the baker's watches end before the desk closes

	scheme := meta.NewScheme()
	if err := scheme.Register(apiextensions.Kind()); err != nil {
		panic(err)
	}
	if err := step8.Register(scheme); err != nil {
		panic(err)
	}
	api, err := rest.New(&rest.Config{Host: front.URL, QPS: -1}, scheme)
	if err != nil {
		panic(err)
	}
	crds, _ := apiextensions.Decode(build.CRDs())
	if _, err := apiextensions.Apply(ctx, api, crds...); err != nil {
		panic(err)
	}
	tr := trace.New()
	oven := &step8.Oven{}
	go func() { done <- step8.Run(ctx, api, oven, tr) }()
	cakes := client.New[*step8.Cake](api).Namespace("shop")
	if _, err := cakes.Create(ctx, step8.NewCake("shop", "birthday", "chocolate", "happy birthday"), meta.CreateOptions{}); err != nil {
		panic(err)
	}
	until(tr, func() bool { return step8.Converged(ctx, api, oven) == nil })
	c, _ := cakes.Get(ctx, "birthday", meta.GetOptions{})
	fmt.Fprintf(w, "over HTTP: %s is %s, observedGeneration %d, its box made\n", c.Name, meta.FindStatusCondition(c.Status.Conditions, "Ready").Reason, c.Status.ObservedGeneration)
	boxes, _, _ := client.New[*step8.Box](api).List(ctx, meta.ListOptions{})
	fmt.Fprintf(w, "boxes on the desk: %d; the desk knows the kinds only from their definitions: %d\n", len(boxes), len(crds))
}
