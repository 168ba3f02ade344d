package explore_test

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A plan's replay line names each perturbation by kind, controller (and
// informer), step and point, and the workload steps it leaves out.
func ExampleParsePlan() {
	p, err := explore.ParsePlan("lag:ctrl/children@1.e1,skip:2-8")
	if err != nil {
		panic(err)
	}
	x := p.Perturbations[0]
	fmt.Printf("%s the %s informer of %s from event %d of step %d; skip %v\n", x.Kind, x.Resource, x.Controller, x.Index, x.Step, p.Skip)
	fmt.Println(p)

	_, err = explore.ParsePlan("lag:ctrl@1.e1")
	fmt.Println(err)
	// Output:
	// lag the children informer of ctrl from event 1 of step 1; skip [2 3 4 5 6 7 8]
	// lag:ctrl/children@1.e1,skip:2-8
	// explore: plan part "lag:ctrl@1.e1": lag needs an informer: CONTROLLER/RESOURCE
}

// Objects is the default end state: every object, without what differs
// from run to run (resourceVersion, uid, timestamps, ...).
func ExampleObjects() {
	ctx := context.Background()
	scheme := meta.NewScheme()
	if err := scheme.Register(gallery.Kinds()...); err != nil {
		panic(err)
	}
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	p, err := client.New[*gallery.Parent](srv).Create(ctx, gallery.NewParent("default", "p1", "v1"), meta.CreateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("stored: resourceVersion %s, generation %d, uid set: %t\n", p.ResourceVersion, p.Generation, p.UID != "")

	objs, err := explore.Objects(ctx, srv)
	if err != nil {
		panic(err)
	}
	for _, key := range slices.Sorted(maps.Keys(objs)) {
		m := objs[key].GetObjectMeta()
		fmt.Printf("%s: resourceVersion %q, generation %d, uid %q\n", key, m.ResourceVersion, m.Generation, m.UID)
	}
	// Output:
	// stored: resourceVersion 2, generation 1, uid set: true
	// Parent default/p1: resourceVersion "", generation 0, uid ""
}
