package chapters

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	step1 "github.com/kitchensync/kitchensync/examples/build/step1"
	step2 "github.com/kitchensync/kitchensync/examples/build/step2"
	step3 "github.com/kitchensync/kitchensync/examples/build/step3"
	step4 "github.com/kitchensync/kitchensync/examples/build/step4"
	"github.com/kitchensync/kitchensync/trace"
)

// Step 1: a kind of your own. The restaurant is someone else's program;
// from here on you write one, a controller of cakes, eight steps of forty
// lines or so, each a real program in examples/build/stepN that compiles
// and has its test. The tour shows what each step adds to the one before.
//
// A kind is a Go type with TypeMeta (apiVersion, kind) and ObjectMeta
// (name, namespace, labels, resourceVersion...), a Spec for what is wanted
// and later a Status for what was done. It writes one method itself,
// DeepCopyObject (Kubernetes generates it), because the API server and
// every cache hand out copies, never their own object. Registering the
// kind in a scheme maps the Go type to its group, version, kind and
// plural resource — what a CustomResourceDefinition declares to a
// cluster, and what every URL and error message is built from.
func BuildAKind(w io.Writer) {
	scheme := meta.NewScheme()
	if err := step1.Register(scheme); err != nil {
		panic(err)
	}
	info, _ := scheme.KindFor(&step1.Cake{})
	fmt.Fprintln(w, "kind:    ", info.GroupVersionKind())
	fmt.Fprintln(w, "resource:", info.GroupVersionResource())
	fmt.Fprintf(w, "its URL:  /apis/%s/%s/namespaces/NAMESPACE/%s\n", info.Group, info.Version, info.Resource)

	birthday := &step1.Cake{ObjectMeta: meta.ObjectMeta{Name: "birthday", Labels: map[string]string{"size": "8"}},
		Spec: step1.CakeSpec{Flavor: "chocolate"}}
	cp := birthday.DeepCopyObject().(*step1.Cake)
	cp.Labels["size"] = "10"
	fmt.Fprintln(w, "a copy's label changed; the original's size is still", birthday.Labels["size"])
}

// Step 2: create it, and get it back. The program gains a schema (a
// Validate function on the kind, as a CRD's OpenAPI schema) and a
// constructor. Underneath: the server checks the cake against the
// schema, stamps it with a uid, generation 1 and the next
// resourceVersion of its one counter (etcd's revision), and stores a
// copy. Every write takes a new resourceVersion; only a change to the
// spec takes a new generation; a write from a copy older than what is
// stored is refused with 409 Conflict; a write that breaks the schema is
// refused with 422 Invalid, naming the field, and nothing is stored.
func BuildCreateAndGet(w io.Writer) {
	ctx := context.Background()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	cakes := client.New[*step2.Cake](shopServer(step2.Register, tr)).Namespace("shop")

	c, err := cakes.Create(ctx, step2.NewCake("shop", "birthday", "chocolate", "happy birthday"), meta.CreateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(w, "created: resourceVersion %s, generation %d, a uid: %v\n", c.ResourceVersion, c.Generation, c.UID != "")
	got, _ := cakes.Get(ctx, "birthday", meta.GetOptions{})
	fmt.Fprintf(w, "got:     resourceVersion %s, %s, my own copy: %v\n", got.ResourceVersion, got.Spec.Flavor, got != c)
	got.Spec.Flavor = "lemon"
	lemon, _ := cakes.Update(ctx, got, meta.UpdateOptions{})
	fmt.Fprintf(w, "updated: resourceVersion %s, generation %d\n", lemon.ResourceVersion, lemon.Generation)
	_, err = cakes.Update(ctx, c, meta.UpdateOptions{}) // c still says resourceVersion 2
	fmt.Fprintln(w, "an update from the old copy:", err)
	_, err = cakes.Create(ctx, step2.NewCake("shop", "plain", "", ""), meta.CreateOptions{})
	fmt.Fprintln(w, "a cake without a flavor:", err)
	underneath(w, "the writes the server made", rec, is(trace.APIServer, trace.Created, trace.Updated))
}

// Step 3: a typed informer and its lister. The Shop is what the program
// knows of the API: one informer per kind, from one factory, each with
// its cache. Start lists once, then watches from the list's
// resourceVersion, and returns when the list is in the cache; from then
// on the lister answers from memory, and every change on the server
// reaches the cache through the watch, without another LIST and without a
// GET. The cache knows how far it has got: LastStoreSyncResourceVersion.
func BuildAnInformer(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	srv := shopServer(step3.Register, tr)
	cakes := client.New[*step3.Cake](srv).Namespace("shop")
	for _, name := range []string{"birthday", "wedding", "tuesday"} {
		cakes.Create(ctx, step3.NewCake("shop", name, "chocolate", ""), meta.CreateOptions{})
	}
	shop := step3.NewShop(srv, tr)
	shop.Start(ctx)
	until(tr, func() bool { return heard(rec, is(trace.Reflector, trace.WatchStarted)) })
	cached, _ := shop.Cakes.Lister().List(nil)
	fmt.Fprintln(w, "cached once Start returns:", cakeNames(cached))
	underneath(w, "Start", rec, is(trace.Reflector, trace.Listed, trace.WatchStarted), is(trace.Informer, trace.CacheUpdated))

	cakes.Create(ctx, step3.NewCake("shop", "anniversary", "lemon", ""), meta.CreateOptions{})
	until(tr, func() bool { return heard(rec, is(trace.Informer, trace.CacheUpdated)) })
	underneath(w, "a new cake", rec, is(trace.APIServer, trace.Created), is(trace.Informer, trace.CacheUpdated))
	gr := step3.CakeKind.GroupResource()
	fmt.Fprintf(w, "requests: LIST %d, WATCH %d, GET %d; the cache is at rv %s\n", srv.RequestCount(apiserver.VerbList, gr),
		srv.RequestCount(apiserver.VerbWatch, gr), srv.RequestCount(apiserver.VerbGet, gr), shop.Cakes.GetIndexer().LastStoreSyncResourceVersion())
}

// cakeNames returns the sorted names of some cakes.
func cakeNames[T meta.Object](cakes []T) []string {
	var n []string
	for _, c := range cakes {
		n = append(n, c.GetName())
	}
	slices.Sort(n)
	return n
}

// Step 4: a reconciler. The Baker keeps the world outside the API — the
// oven — in step with each cake. Run wires it as any controller: For
// cakes, every event of the informer puts the cake's key (never the
// event) on the controller's work queue, and a worker calls Reconcile
// with the key. Reconcile reads the cake from the cache as it is now and
// makes the oven match: it is level-triggered, so it does not matter how
// many events there were, which it missed, or in what order they came;
// gone from the cache means gone.
func BuildAReconciler(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	srv := shopServer(step4.Register, tr)
	oven := &step4.Oven{}
	go step4.Run(ctx, srv, oven, tr)
	cakes := client.New[*step4.Cake](srv).Namespace("shop")
	bakes := func(flavor string) func() bool {
		return func() bool { got, _ := oven.Load("shop/birthday"); return got == flavor || flavor == "" && got == nil }
	}
	c, _ := cakes.Create(ctx, step4.NewCake("shop", "birthday", "chocolate", ""), meta.CreateOptions{})
	until(tr, func() bool { return bakes("chocolate")() && heard(rec, is(trace.Controller, trace.ReconcileFinished)) })
	rec.Reset()
	c.Spec.Flavor = "lemon"
	cakes.Update(ctx, c, meta.UpdateOptions{})
	until(tr, func() bool { return bakes("lemon")() && heard(rec, is(trace.Controller, trace.ReconcileFinished)) })
	fmt.Fprintln(w, "the flavor changed: the oven bakes lemon for shop/birthday")
	underneath(w, "the change", rec, is(trace.APIServer, trace.Updated),
		is(trace.Informer, trace.CacheUpdated), is(trace.Workqueue, trace.Added), is(trace.Controller, trace.ReconcileFinished))
	cakes.Delete(ctx, "birthday", meta.DeleteOptions{})
	until(tr, bakes(""))
	fmt.Fprintln(w, "deleted: the cache no longer has it, so the oven bakes nothing for it")
}
