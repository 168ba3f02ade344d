package bakery_test

import (
	"context"
	"fmt"
	"os"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/reconcile"
)

// The story's first scene: the order form's template is a CRD, and each
// filled-in form a Cake. The story's order form,
// corrected (crd/cakes.bakery.example.com.yaml), is applied to a server that
// knows no kinds; the kind Cake appears, and its schema refuses a bad form
// in the real server's words and fills in a default. Then, on the shop's
// own server, the order desk refuses
// a bad form with one 422 Invalid error naming every bad field; sent past
// the desk, straight to the API server as kubectl would, the same form is
// refused with HTTP 422 naming the same fields. Then the desk takes the
// story's birthday cake, which the baker makes step by step.
func Example_orderForm() {
	rep, err := bakery.SceneOrderForm(context.Background(), bakery.Config{Out: os.Stdout})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep.Write(os.Stdout)
	// Output:
	// [manager]     kubectl apply -f crd/cakes.bakery.example.com.yaml (the story's order form, corrected): HTTP 201
	// [api-server]  NamesAccepted=True (NoConflicts), Established=True (InitialNamesAccepted)
	// [api-server]  discovery: bakery.example.com/v1 now serves cakes (kind Cake)
	// [kubectl]     kubectl create -f scribble.yaml: HTTP 422, the schema refuses it:
	// [api-server]    spec.flavor: Unsupported value: "durian": supported values: "double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot"
	// [api-server]    spec.pickupTime: Invalid value: "2pm": spec.pickupTime in body should match '^([01][0-9]|2[0-3]):[0-5][0-9]$'
	// [api-server]    spec.resources.icingMemory: Invalid value: "lots": spec.resources.icingMemory in body should match '^[0-9]+(GB|Gi|MB|Mi)$'
	// [api-server]    spec.size: Invalid value: 30: spec.size in body should be less than or equal to 16
	// [kubectl]     kubectl create -f birthday-alice.yaml: HTTP 201, the schema's default filled in: decorationComplexity "simple"
	// [manager]     registered bakery.example.com/v1 Bake (resource "bakes", namespaced: a namespace is a branch)
	// [manager]     registered bakery.example.com/v1 Baker (resource "bakers", namespaced: a namespace is a branch)
	// [manager]     registered bakery.example.com/v1 BakerPool (resource "bakerpools", namespaced: a namespace is a branch)
	// [manager]     registered bakery.example.com/v1 Cake (resource "cakes", namespaced: a namespace is a branch)
	// [customer]    hands in a form: flavor durian, size 30", pickup "2pm", icing memory "lots"
	// [order-desk]  refused (422 Invalid), nothing stored:
	// [order-desk]    spec.flavor: Unsupported value: "durian": supported values: "double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot"
	// [order-desk]    spec.size: Invalid value: 30: must be between 4 and 16 inches
	// [order-desk]    spec.pickupTime: Invalid value: "2pm": want a time of day such as 14:00
	// [order-desk]    spec.resources.icingMemory: Invalid value: "lots": want a quantity such as 512MB or 2GB
	// [kubectl]     kubectl create -f scribble.yaml, past the desk: POST /apis/bakery.example.com/v1/namespaces/haidian/cakes
	// [api-server]  HTTP 422 Unprocessable Entity (Invalid): the Cake schema refuses it, nothing stored:
	// [api-server]    spec.flavor: Unsupported value: "durian": supported values: "double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot"
	// [api-server]    spec.size: Invalid value: 30: must be between 4 and 16 inches
	// [api-server]    spec.pickupTime: Invalid value: "2pm": want a time of day such as 14:00
	// [api-server]    spec.resources.icingMemory: Invalid value: "lots": want a quantity such as 512MB or 2GB
	// [customer]    orders haidian/birthday-alice: double-chocolate 8", 2 layers, "Happy Birthday", allergies: nuts
	// [front-desk]  new order birthday-alice (generation 1) → ring the kitchen
	// [baker]       birthday-alice: new order (double-chocolate 8", 2 layers, "Happy Birthday", allergies: nuts) → prepare ingredients, bake
	// [baker]       birthday-alice: prepare ingredients for the double-chocolate sponge on the nut-free bench
	// [baker]       birthday-alice: mix the batter
	// [baker]       birthday-alice: sponge into the oven: create Bake birthday-alice-g1-sponge-1 (owned by the cake) and return — the oven will call
	// [oven]        birthday-alice: bake 2× double-chocolate sponge, 35 min (Bake birthday-alice-g1-sponge-1 → Baking; requeued for when it is done)
	// [baker]       birthday-alice: frost with buttercream
	// [baker]       birthday-alice: decorate: plaque "Happy Birthday"
	// [baker]       birthday-alice: box it
	// [baker]       birthday-alice: boxed → Completed, ready for pickup at 14:00
	// [manager]     stored spec: {"flavor":"double-chocolate","size":8,"layers":2,"decoration":"Happy Birthday","pickupTime":"14:00","notes":"no nuts anywhere near it","allergies":["nuts"],"priority":100}
	// [manager]     status: phase Completed, checkpoint "boxed", observedGeneration 1, finalizers [bakery.example.com/refund-deposit]
	// [manager]     Bake birthday-alice-g1-sponge-1: phase Done, readyAt set: true, controlled by Cake birthday-alice
	// == summary: order-form
	//    Completed  1: haidian/birthday-alice
	//    the story's CRD, corrected, applied: cakes.bakery.example.com NamesAccepted=True (NoConflicts), Established=True (InitialNamesAccepted), kind Cake served
	//    invalid form refused, fields named: spec.flavor, spec.size, spec.pickupTime, spec.resources.icingMemory
	//    sent past the desk, refused by the API server (HTTP 422), fields named: spec.flavor, spec.size, spec.pickupTime, spec.resources.icingMemory
}

// The story's second scene: a new order is baked; a change of decoration
// only redoes the decoration; a change of flavor throws the sponge away
// and rebakes; a cancellation refunds the deposit through the finalizer.
func Example_lifecycle() {
	rep, err := bakery.SceneLifecycle(context.Background(), bakery.Config{Out: os.Stdout})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep.Write(os.Stdout)
	// Output:
	// [customer]    orders haidian/alice: vanilla 6", "Happy Birthday"
	// [front-desk]  new order alice (generation 1) → ring the kitchen
	// [baker]       alice: new order (vanilla 6", "Happy Birthday") → prepare ingredients, bake
	// [baker]       alice: prepare ingredients for the vanilla sponge
	// [baker]       alice: mix the batter
	// [baker]       alice: sponge into the oven: create Bake alice-g1-sponge-1 (owned by the cake) and return — the oven will call
	// [oven]        alice: bake 1× vanilla sponge, 30 min (Bake alice-g1-sponge-1 → Baking; requeued for when it is done)
	// [baker]       alice: frost with buttercream
	// [baker]       alice: decorate: plaque "Happy Birthday"
	// [baker]       alice: box it
	// [baker]       alice: boxed → Completed
	// [front-desk]  ledger (Indexer, namespace index) for branch haidian: alice
	// [customer]    changes alice: decoration "Happy Birthday" → "Happy 30th"
	// [front-desk]  order alice changed (generation 1 → 2) → ring the kitchen
	// [baker]       alice: generation 2 changed only the decoration "Happy Birthday" → "Happy 30th" → keep the sponge, redo the decoration
	// [baker]       alice: decorate: plaque "Happy 30th"
	// [baker]       alice: box it
	// [baker]       alice: boxed → Completed
	// [customer]    changes alice: flavor vanilla → matcha
	// [front-desk]  order alice changed (generation 2 → 3) → ring the kitchen
	// [baker]       alice: generation 3 changed flavor vanilla → matcha → throw the old sponge away, rebake
	// [baker]       alice: prepare ingredients for the matcha sponge
	// [baker]       alice: mix the batter
	// [baker]       alice: sponge into the oven: create Bake alice-g3-sponge-1 (owned by the cake) and return — the oven will call
	// [oven]        alice: bake 1× matcha sponge, 30 min (Bake alice-g3-sponge-1 → Baking; requeued for when it is done)
	// [baker]       alice: frost with buttercream
	// [baker]       alice: decorate: plaque "Happy 30th"
	// [baker]       alice: box it
	// [baker]       alice: boxed → Completed
	// [customer]    cancels alice
	// [front-desk]  order alice cancelled (deletionTimestamp set; the finalizer holds it)
	// [baker]       alice: cancelled → stop the oven and discard the cake, refund the ¥120 deposit
	// [front-desk]  order alice gone from the ledger
	// == summary: lifecycle
	//    Cancelled  1: haidian/alice
	//    sponges thrown away: 2 (the vanilla one, when the flavor changed, and the matcha one, when cancelled)
}

// The story's alert rule asks for the p90 of the reconcile latency
// histogram. HistogramQuantile estimates it as PromQL does: six reconciles
// between 50 and 100 ms put the p90 at 95 ms, interpolated in the bucket.
func ExampleHistogramQuantile() {
	h := reconcile.Histogram{Count: 6, Buckets: []reconcile.Bucket{
		{UpperBound: 0.05, Count: 0},
		{UpperBound: 0.1, Count: 6},
		{UpperBound: 0.25, Count: 6},
	}}
	fmt.Printf("p90 = %.3fs\n", bakery.HistogramQuantile(0.9, h))
	// Output:
	// p90 = 0.095s
}

// A form with a wrong flavor and a size too big is refused with one
// typed error naming both fields.
func ExampleValidateCake() {
	c := &bakery.Cake{
		ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "big-durian"},
		Spec:       bakery.CakeSpec{Flavor: "durian", Size: 20},
	}
	err := bakery.ValidateCake(c)
	fmt.Println(meta.IsInvalid(err))
	fmt.Println(err)
	// Output:
	// true
	// Cake.bakery.example.com "big-durian" is invalid: [spec.flavor: Unsupported value: "durian": supported values: "double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot", spec.size: Invalid value: 20: must be between 4 and 16 inches]
}
