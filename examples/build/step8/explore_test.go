package cake_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	cake "github.com/kitchensync/kitchensync/examples/build/step8"
)

// TestExploreTheBaker runs the baker under the explorer: crashed between
// any two of its writes, restarted on an older view, its informers
// lagging, coalesced, cut off or expired, a write refused with 409, down
// for a whole step — one perturbation per plan, every plan there is.
// Whatever happens, no cake ever has a second box, the oven never bakes
// for a cake that is gone (the finalizer holds the cake until it is
// freed), a cake said Ready bakes its flavor, and the shop ends as the
// unperturbed run does, the oven included.
//
// The oven is the world outside the API: it outlives a crash of the
// baker, so each run makes one (the setup step), and every incarnation of
// the baker in that run shares it.
func TestExploreTheBaker(t *testing.T) {
	var oven *cake.Oven // the run's; set by the setup step
	s := explore.Scenario{
		Kinds: []meta.KindInfo{cake.CakeKind, cake.BoxKind},
		Setup: []explore.Step{{Name: "light the oven", Do: func(context.Context, client.Interface) error {
			oven = &cake.Oven{}
			return nil
		}}},
		Controllers: []explore.Controller{{Name: "baker", Start: func(ctx context.Context, conn explore.Conn) error {
			err := cake.Run(ctx, conn.API, oven, conn.Tracer)
			if ctx.Err() != nil {
				return nil // stopped, or crashed: not the baker's failure
			}
			return err
		}}},
		Workload: []explore.Step{
			order("birthday", "chocolate"),
			order("wedding", "vanilla"),
			reflavor("wedding", "lemon"),
			throwAwayBox("birthday"),
			order("tuesday", "chocolate"),
			cancel("tuesday"),
			cancel("wedding"),
		},
		Invariants: []explore.Invariant{oneBoxPerCake(), noOvenForAGoneCake(&oven), readyIsBaked(&oven)},
		EndState: func(ctx context.Context, api client.Interface) (any, error) {
			objs, err := explore.Objects(ctx, api)
			return map[string]any{"objects": objs, "oven": bakes(oven)}, err
		},
		// When the Ready condition was set depends on the plan: a
		// baker that was down sets it later.
		Compare: []cmp.Option{cmpopts.IgnoreFields(meta.Condition{}, "LastTransitionTime")},
	}
	rep := explore.Check(t, s, explore.Options{})
	t.Logf("%d plans (%d writes, %d events perturbed), %d runs in %v", rep.Plans, rep.Writes, rep.Events, rep.Runs, rep.Elapsed)
	if rep.Plans < 100 {
		t.Errorf("explored %d plans, want every one (100 or more)", rep.Plans)
	}
}

// The workload's steps: a customer orders, changes or cancels a cake, or
// someone throws a box away.

func order(name, flavor string) explore.Step {
	return explore.Step{Name: "order " + name, Do: func(ctx context.Context, api client.Interface) error {
		_, err := client.New[*cake.Cake](api).Namespace("shop").Create(ctx, cake.NewCake("shop", name, flavor, "for "+name), meta.CreateOptions{})
		return err
	}}
}

func reflavor(name, flavor string) explore.Step {
	return explore.Step{Name: name + " is now " + flavor, Do: func(ctx context.Context, api client.Interface) error {
		patch := fmt.Appendf(nil, `{"spec":{"flavor":%q}}`, flavor)
		_, err := client.New[*cake.Cake](api).Namespace("shop").Patch(ctx, name, meta.MergePatchType, patch, meta.PatchOptions{})
		return err
	}}
}

func throwAwayBox(name string) explore.Step {
	return explore.Step{Name: "throw " + name + "'s box away", Do: func(ctx context.Context, api client.Interface) error {
		return client.New[*cake.Box](api).Namespace("shop").Delete(ctx, name, meta.DeleteOptions{})
	}}
}

func cancel(name string) explore.Step {
	return explore.Step{Name: "cancel " + name, Do: func(ctx context.Context, api client.Interface) error {
		return client.New[*cake.Cake](api).Namespace("shop").Delete(ctx, name, meta.DeleteOptions{})
	}}
}

// oneBoxPerCake: no cake ever owns two boxes.
func oneBoxPerCake() explore.Invariant {
	return explore.Invariant{Name: "one box per cake", Check: func(ctx context.Context, api client.Interface) error {
		boxes, _, err := client.New[*cake.Box](api).List(ctx, meta.ListOptions{})
		if err != nil {
			return err
		}
		owned := map[string]int{}
		for _, b := range boxes {
			for _, ref := range b.OwnerReferences {
				if owned[b.Namespace+"/"+ref.Name]++; owned[b.Namespace+"/"+ref.Name] > 1 {
					return fmt.Errorf("cake %s/%s owns two boxes", b.Namespace, ref.Name)
				}
			}
		}
		return nil
	}}
}

// noOvenForAGoneCake: the oven bakes only for cakes that are still there
// (deleted ones wait, held by the finalizer, until the baker frees it).
func noOvenForAGoneCake(oven **cake.Oven) explore.Invariant {
	return explore.Invariant{Name: "no oven for a cake that is gone", Check: func(ctx context.Context, api client.Interface) error {
		cakes, err := cakesByKey(ctx, api)
		if err != nil {
			return err
		}
		var errs []error
		for _, key := range slices.Sorted(maps.Keys(bakes(*oven))) {
			if cakes[key] == nil {
				errs = append(errs, fmt.Errorf("the oven bakes for %s, which is gone", key))
			}
		}
		return errors.Join(errs...)
	}}
}

// readyIsBaked: a cake whose status says Ready for its generation (and is
// not being deleted) has its flavor in the oven: the baker writes the
// status after the oven. (Not its box: a user may throw the box away,
// which the status does not say until the baker has made another.)
func readyIsBaked(oven **cake.Oven) explore.Invariant {
	return explore.Invariant{Name: "ready means baked", Check: func(ctx context.Context, api client.Interface) error {
		cakes, err := cakesByKey(ctx, api)
		if err != nil {
			return err
		}
		baking := bakes(*oven)
		var errs []error
		for _, key := range slices.Sorted(maps.Keys(cakes)) {
			c := cakes[key]
			if c.DeletionTimestamp != nil || c.Status.ObservedGeneration != c.Generation || !meta.IsStatusConditionTrue(c.Status.Conditions, "Ready") {
				continue
			}
			if baking[key] != c.Spec.Flavor {
				errs = append(errs, fmt.Errorf("cake %s (%s) says Ready, but the oven bakes %q", key, c.Spec.Flavor, baking[key]))
			}
		}
		return errors.Join(errs...)
	}}
}

func cakesByKey(ctx context.Context, api client.Interface) (map[string]*cake.Cake, error) {
	list, _, err := client.New[*cake.Cake](api).List(ctx, meta.ListOptions{})
	out := map[string]*cake.Cake{}
	for _, c := range list {
		out[c.Namespace+"/"+c.Name] = c
	}
	return out, err
}

// bakes returns what the oven bakes, by cake.
func bakes(oven *cake.Oven) map[string]string {
	out := map[string]string{}
	oven.Range(func(key, flavor any) bool {
		out[key.(string)] = flavor.(string)
		return true
	})
	return out
}
