// Package build is the tour's "Build one yourself" part: a controller of
// your own, grown in eight steps, each a real program under
// examples/build/stepN (the file cake.go, compiled and tested by
// cake_test.go), and what the tour needs to show them: each step's
// source, what it adds to the step before, and a way to break it that
// its test catches.
//
// go test ./examples/build checks each break: it compiles the step with
// the break applied (go test -overlay, nothing written in the tree) and
// expects the step's test to fail.
package build

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed step*/cake.go step*/cake_test.go
var sources embed.FS

// A Step is one version of the growing program.
type Step struct {
	N     int    // 1 to 8
	Title string // what it adds, in a few words
	Break Break  // how to break what it adds
}

// A Break is a change to a step's cake.go that its test catches: the
// tour's "break it" prompt.
type Break struct {
	What     string // the change, in words
	Old, New string // the text to replace, exactly once, and its replacement
	Test     string // the test that then fails
	Why      string // what goes wrong, in words
}

// Steps returns the steps in order.
func Steps() []Step {
	return []Step{
		{1, "define a kind", Break{
			What: "make DeepCopyObject copy the struct only, not its metadata",
			Old:  "\tout.ObjectMeta = c.ObjectMeta.DeepCopy()\n", New: "",
			Test: "TestDeepCopySharesNothing",
			Why:  "the copy shares the original's label map: changing one changes the other",
		}},
		{2, "create and get it; the resourceVersion", Break{
			What: "register the kind without its Validate function",
			Old:  ", Validate: meta.ValidateAs(validate)}", New: "}",
			Test: "TestCakeWithoutFlavorIsRefused",
			Why:  "the server stores a cake without a flavor",
		}},
		{3, "a typed informer and its lister", Break{
			What: "let Start return without waiting for the caches to sync",
			Old:  "return informer.WaitForCacheSync(ctx, s.Cakes)", New: "return true",
			Test: "TestShopRemembersWithoutAsking",
			Why:  "right after Start the lister is empty: the first list has not been applied yet",
		}},
		{4, "a reconciler on the work queue", Break{
			What: "let the baker hear of new cakes only, acting on the create event rather than on what the cake is now",
			Old:  "reconcile.For(ctrl, shop.Cakes)",
			New:  "reconcile.For(ctrl, shop.Cakes, reconcile.Funcs[*Cake]{UpdateFunc: func(reconcile.UpdateEvent[*Cake]) bool { return false }})",
			Test: "TestBakerFollowsTheCake",
			Why:  "the flavor changes to lemon and the oven still bakes chocolate",
		}},
		{5, "an owned child and the garbage collector", Break{
			What: "create the box without its owner reference",
			Old:  ", OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(cake)}}", New: "}",
			Test: "TestBoxGoesWithTheCake",
			Why:  "the box outlives its cake: nothing tells the garbage collector whose it is",
		}},
		{6, "status and observedGeneration", Break{
			What: "write the status with Update instead of UpdateStatus",
			Old:  ".UpdateStatus(ctx, cake, meta.UpdateOptions{})", New: ".Update(ctx, cake, meta.UpdateOptions{})",
			Test: "TestStatusFollowsTheGeneration",
			Why:  "an update of the main resource leaves status as it was: the status subresource owns it",
		}},
		{7, "a finalizer for cleanup outside the API", Break{
			What: "never add the finalizer",
			Old:  "\t\treconcile.AddFinalizer(cake, Finalizer)\n", New: "",
			Test: "TestOvenIsFreedAfterADeleteWhileAway",
			Why:  "a cake deleted while the baker is away is gone at once, and nobody frees its oven",
		}},
		{8, "a test under faults", Break{
			What: "let the baker drop the error of a failed box",
			Old:  "\tif err := b.ensureBox(ctx, cake); err != nil {\n\t\treturn reconcile.Result{}, err\n\t}\n",
			New:  "\t_ = b.ensureBox(ctx, cake)\n",
			Test: "TestConvergesUnderFaults",
			Why:  "the box that failed with 429 is never tried again",
		}},
	}
}

// Dir is the step's directory, from the module's root.
func (s Step) Dir() string { return fmt.Sprintf("examples/build/step%d", s.N) }

// Source returns the step's cake.go.
func (s Step) Source() string {
	b, err := sources.ReadFile(fmt.Sprintf("step%d/cake.go", s.N))
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	return string(b)
}

// Test returns the step's cake_test.go.
func (s Step) Test() string {
	b, err := sources.ReadFile(fmt.Sprintf("step%d/cake_test.go", s.N))
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	return string(b)
}

// Diff returns what the step changes in the step before's cake.go, as a
// unified diff with two lines of context, and how many lines it adds.
// The first step's diff adds the whole file.
func (s Step) Diff() (diff string, added int) {
	var prev []string
	if s.N > 1 {
		prev = lines(Step{N: s.N - 1}.Source())
	}
	return unified(prev, lines(s.Source()), 2)
}

// Lines is the number of lines of the step's cake.go.
func (s Step) Lines() int { return len(lines(s.Source())) }

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

//go:embed crds.yaml
var crds []byte

// CRDs returns examples/build/crds.yaml: the CustomResourceDefinitions of
// step 8's kinds, Cake and Box, generated from their Go types (go test
// ./examples/build -update rewrites them), for a server whose kinds come
// from definitions — the restaurant's front desk over HTTP, or a real
// cluster.
func CRDs() []byte { return crds }
