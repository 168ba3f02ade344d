// The second part of the guided tour: build a controller of your own, one
// step at a time. Each step's program is a real file under
// examples/build/ (step1, step2, ...), compiled and tested; the chapters
// (package chapters, examples/tour/chapters) run it and say what happened
// underneath.
//
//	go test -run Example_step -v .
package kitchensync_test

import (
	"os"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

// Chapter 14: Build 1: a kind of your own ([chapters.BuildAKind]).
// With its prose and code: go run ./examples/tour -step 14.
func Example_step14_buildAKind() {
	chapters.BuildAKind(os.Stdout)
	// Output:
	// kind:     shop.example.com/v1, Kind=Cake
	// resource: shop.example.com/v1, Resource=cakes
	// its URL:  /apis/shop.example.com/v1/namespaces/NAMESPACE/cakes
	// a copy's label changed; the original's size is still 8
}

// Chapter 15: Build 2: create it, get it, see its resourceVersion ([chapters.BuildCreateAndGet]).
// With its prose and code: go run ./examples/tour -step 15.
func Example_step15_buildCreateAndGet() {
	chapters.BuildCreateAndGet(os.Stdout)
	// Output:
	// created: resourceVersion 2, generation 1, a uid: true
	// got:     resourceVersion 2, chocolate, my own copy: true
	// updated: resourceVersion 3, generation 2
	// an update from the old copy: Operation cannot be fulfilled on cakes.shop.example.com "birthday": the object has been modified; please apply your changes to the latest version and try again
	// a cake without a flavor: Cake.shop.example.com "plain" is invalid: spec.flavor: Required value: what kind of cake?
	// underneath, the writes the server made:
	//   apiserver: ADDED cake shop/birthday (rv 2)
	//   apiserver: MODIFIED cake shop/birthday (rv 3; spec)
}

// Chapter 16: Build 3: an informer and its lister ([chapters.BuildAnInformer]).
// With its prose and code: go run ./examples/tour -step 16.
func Example_step16_buildAnInformer() {
	chapters.BuildAnInformer(os.Stdout)
	// Output:
	// cached once Start returns: [birthday tuesday wedding]
	// underneath, Start:
	//   reflector[cakes]: LIST, 3 at rv 4
	//   reflector[cakes]: WATCH from rv 4
	//   informer[cakes]: cache takes Replaced cake shop/birthday (rv 2)
	//   informer[cakes]: cache takes Replaced cake shop/tuesday (rv 4)
	//   informer[cakes]: cache takes Replaced cake shop/wedding (rv 3)
	// underneath, a new cake:
	//   apiserver: ADDED cake shop/anniversary (rv 5)
	//   informer[cakes]: cache takes Added cake shop/anniversary (rv 5)
	// requests: LIST 1, WATCH 1, GET 0; the cache is at rv 5
}

// Chapter 17: Build 4: a reconciler, reading the cache ([chapters.BuildAReconciler]).
// With its prose and code: go run ./examples/tour -step 17.
func Example_step17_buildAReconciler() {
	chapters.BuildAReconciler(os.Stdout)
	// Output:
	// the flavor changed: the oven bakes lemon for shop/birthday
	// underneath, the change:
	//   apiserver: MODIFIED cake shop/birthday (rv 3; spec)
	//   informer[cakes]: cache takes Updated cake shop/birthday (rv 3)
	//   workqueue[baker]: shop/birthday queued
	//   controller[baker]: reconciled shop/birthday (success)
	// deleted: the cache no longer has it, so the oven bakes nothing for it
}

// Chapter 18: Build 5: an owned child and the garbage collector ([chapters.BuildAnOwnedChild]).
// With its prose and code: go run ./examples/tour -step 18.
func Example_step18_buildAnOwnedChild() {
	chapters.BuildAnOwnedChild(os.Stdout)
	// Output:
	// box birthday says "happy birthday"; its owner: Cake birthday (controller: true)
	// underneath, the cake's delete:
	//   apiserver: DELETED cake shop/birthday (rv 4)
	//   apiserver: DELETED box shop/birthday (rv 5; garbage collector)
}

// Chapter 19: Build 6: status, observedGeneration, conditions ([chapters.BuildStatus]).
// With its prose and code: go run ./examples/tour -step 19.
func Example_step19_buildStatus() {
	chapters.BuildStatus(os.Stdout)
	// Output:
	// generation 1, observedGeneration 1, Ready True (Boxed)
	// underneath, a change of flavor:
	//   apiserver: MODIFIED cake shop/birthday (rv 5; spec)
	//   apiserver: MODIFIED cake shop/birthday (rv 6; status)
	// an Update that sets observedGeneration 99: stored 2
}

// Chapter 20: Build 7: a finalizer for cleanup outside the API ([chapters.BuildAFinalizer]).
// With its prose and code: go run ./examples/tour -step 20.
func Example_step20_buildAFinalizer() {
	chapters.BuildAFinalizer(os.Stdout)
	// Output:
	// deleted while the baker is away: still there (deletionTimestamp set: true, finalizers [shop.example.com/oven]); the oven bakes chocolate
	// the baker is back: the cake is gone: true; the oven bakes for it: false
	// underneath, the delete:
	//   apiserver: MODIFIED cake shop/birthday (rv 6; deletion started)
	//   apiserver: DELETED cake shop/birthday (rv 7)
	//   apiserver: DELETED box shop/birthday (rv 8; garbage collector)
}

// Chapter 21: Build 8: a test under faults, in virtual time ([chapters.BuildATest]).
// With its prose and code: go run ./examples/tour -step 21.
func Example_step21_buildATest() {
	chapters.BuildATest(os.Stdout)
	// Output:
	// a reconcile was refused (429): true; one lost a race (409): true; each was retried
	// converged: <nil>
}

// Chapter 22: Build 9: the same program over HTTP, and on a cluster ([chapters.BuildOverHTTP]).
// With its prose and code: go run ./examples/tour -step 22.
func Example_step22_buildOverHTTP() {
	chapters.BuildOverHTTP(os.Stdout)
	// Output:
	// over HTTP: birthday is Boxed, observedGeneration 1, its box made
	// boxes on the desk: 1; the desk knows the kinds only from their definitions: 2
}

// Chapter 23: Find the bug: explore a controller, fix it, explore again ([chapters.FindTheBug]).
// With its prose and code: go run ./examples/tour -step 23.
func Example_step23_findTheBug() {
	chapters.FindTheBug(os.Stdout)
	// Output:
	// the stale-cache controller: 192 plans, 12 of them fail: invariant "one child per parent" broken after step 1: parent default/p1 has 2 children: p1-2v44j, p1-crqfg
	// found as stale:ctrl@1.w2 (plan 5), shrunk to the plan
	//   stale:ctrl@1.w2,skip:2-8
	// replay: go test ./examples/tour/chapters -run '^TestFindTheBug$' -explore.plan='stale:ctrl@1.w2,skip:2-8'
	// the same plan replayed: invariant "one child per parent" broken after step 1: parent default/p1 has 2 children: p1-2v44j, p1-crqfg
	// the failing run, around the moment it went wrong:
	// step 1: create parent p1 v1
	//    user -> create Parent default/p1 rv=2
	//    ctrl/parents <- ADDED Parent default/p1 rv=2
	//    ctrl -> update Parent default/p1 rv=3
	//    controller[ctrl] reconcile-finished default/p1 worker=1 result=success
	//    ctrl/parents <- MODIFIED Parent default/p1 rv=3
	//    ctrl -> create Child default/p1-2v44j rv=4
	// >> ctrl crashed after write 1.w2
	//    controller[ctrl] reconcile-finished default/p1 worker=1 result=error err="explore: the controller has crashed (its process is gone)"
	//    ctrl restarted (incarnation 2), lists at rv 3
	// >> ctrl/children lists at the older rv=3
	//    ctrl/children listed 0 at rv=3
	// >> ctrl/parents lists at the older rv=3
	//    ctrl/parents listed 1 at rv=3
	//    ctrl -> create Child default/p1-crqfg rv=5
	//    ctrl -> update-status Parent default/p1 rv=6
	//    controller[ctrl] reconcile-finished default/p1 worker=1 result=success
	// !! invariant "one child per parent" broken after step 1: parent default/p1 has 2 children: p1-2v44j, p1-crqfg
	// fixed (the child's name fixed): 196 plans, 0 violations
}
