package bakery

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
)

// rushOrders is how many orders come in on Valentine's Day.
const rushOrders = 40

// SceneRush plays Valentine's Day (情人节订单激增): forty orders arrive over
// three shop hours, a third of them with fancy decorations. A BakerPool
// autoscaled like an HPA (min 2, max 10, target 70% utilization) hires
// temporary bakers — Baker objects owned by the pool — as the queue grows,
// turns on degraded service (plaque-only decorations) while utilization is
// above 100%, turns on spare ovens when bakers wait for one (node scaling),
// and lets the bakers go and turns the spares off once the rush is over.
// Then the pool is deleted, and the API server's garbage collector deletes
// the bakers it owned.
func SceneRush(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("rush")
	staff, ovens := &Staff{}, &Staff{}
	for i := range 6 {
		ovens.Hire(fmt.Sprintf("oven-%02d", i+1))
	}
	shop, err := NewShop(e.shop(ShopOptions{Shift: staff, OvenPool: ovens, Workers: 10, Brief: true}))
	if err != nil {
		return nil, err
	}
	hpa, run, err := newHPA(e, staff, shop)
	if err != nil {
		return nil, err
	}
	hpa.Ovens, hpa.MaxOvens = ovens, 10
	pool := &BakerPool{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "valentine"},
		Spec: BakerPoolSpec{MinReplicas: 2, MaxReplicas: 10, TargetUtilization: 70}}
	if _, err := client.New[*BakerPool](e.srv).Namespace("haidian").Create(ctx, pool, meta.CreateOptions{}); err != nil {
		return nil, err
	}
	e.j.Say("manager", "haidian/valentine", "pool", "BakerPool valentine: min 2, max 10 bakers, target utilization 70%%; 6 ovens, 4 spares")
	hctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var hpaErr error
	wg.Go(func() { hpaErr = run(hctx) })
	stop := shop.Start(ctx)
	err = valentine(ctx, e, cfg.Seed, hpa, ovens)
	// The autoscaler stops first, at the decision valentine saw: the shop
	// closing down must not count as a change in load.
	cancel()
	wg.Wait()
	err = errors.Join(err, stop(), hpaErr)
	if err != nil {
		return nil, err
	}
	if err := rushReport(ctx, e, r, hpa, ovens); err != nil {
		return nil, err
	}
	if err := closePool(ctx, e, r); err != nil {
		return nil, err
	}
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

// closePool deletes the BakerPool once the rush is over and lets the API
// server's garbage collector take its bakers with it: they name the pool
// in their ownerReferences, as pods name their ReplicaSet, so nobody
// deletes them by hand.
func closePool(ctx context.Context, e *env, r *Report) error {
	bakers := client.New[*Baker](e.srv).Namespace("haidian")
	before, _, err := bakers.List(ctx, meta.ListOptions{})
	if err != nil {
		return err
	}
	e.j.Say("manager", "haidian/valentine", "pool-deleted", "Valentine's Day is over: delete BakerPool valentine (%d bakers left)", len(before))
	if err := client.New[*BakerPool](e.srv).Namespace("haidian").Delete(ctx, "valentine", meta.DeleteOptions{}); err != nil {
		return err
	}
	after, _, err := bakers.List(ctx, meta.ListOptions{})
	if err != nil {
		return err
	}
	var gone []string
	for _, b := range before {
		if !slices.ContainsFunc(after, func(a *Baker) bool { return a.UID == b.UID }) {
			gone = append(gone, b.Name)
		}
	}
	e.j.Say("gc", "haidian/valentine", "collected", "owner BakerPool valentine is gone → deleted its bakers: %s", strings.Join(gone, ", "))
	r.Numbers["bakers-after-pool"] = len(after)
	r.fact("pool deleted: the garbage collector took its %d bakers, %d left", len(gone), len(after))
	return nil
}

// rushReport records how the bakers and ovens were scaled.
func rushReport(ctx context.Context, e *env, r *Report, hpa *Autoscaler, ovens *Staff) error {
	if err := countBakers(ctx, e, r); err != nil {
		return err
	}
	reps := hpa.Replicas()
	r.Replicas = reps
	r.Numbers["degraded"] = e.j.Count(IsEvent("degraded"))
	r.fact("bakers: started at %d, peaked at %d, ended at %d (never outside 2..10: %v)",
		reps[0], slices.Max(reps), reps[len(reps)-1], slices.Min(reps) >= 2 && slices.Max(reps) <= 10)
	// A spare turned off while baking goes once its cake is out, so count
	// the ovens left when every cake is done.
	_, _, left := ovens.Load()
	r.Numbers["ovens-peak"], r.Numbers["ovens-last"] = slices.Max(hpa.OvenCounts()), left
	r.fact("ovens: 6 at the start, %d at the peak, %d at the end", r.Numbers["ovens-peak"], left)
	r.fact("degraded service simplified %d fancy decorations", e.j.Count(IsEvent("degraded")))
	return nil
}

// newHPA wires the autoscaler: informers for pools and bakers, the staff
// following the Baker objects, and the autoscaler's controller. run runs
// them all until its context ends.
func newHPA(e *env, staff *Staff, shop *Shop) (*Autoscaler, func(context.Context) error, error) {
	pools := informer.NewSharedIndexInformer[*BakerPool](e.srv.Resource(BakerPoolResource), informer.Options[*BakerPool]{Resource: BakerPoolResource})
	bakers := informer.NewSharedIndexInformer[*Baker](e.srv.Resource(BakerResource), informer.Options[*Baker]{Resource: BakerResource})
	_, err := bakers.AddEventHandler(informer.ResourceEventHandlerFuncs[*Baker]{
		AddFunc:    func(b *Baker, _ bool) { staff.Hire(b.Name) },
		DeleteFunc: func(b *Baker, _ bool) { staff.Dismiss(b.Name) },
	})
	if err != nil {
		return nil, nil, err
	}
	poolClient, err := reconcile.NewClient(e.srv, pools.GetIndexer())
	if err != nil {
		return nil, nil, err
	}
	bakerClient, err := reconcile.NewClient(e.srv, bakers.GetIndexer())
	if err != nil {
		return nil, nil, err
	}
	hpa := &Autoscaler{Pools: poolClient, Bakers: bakerClient, Staff: staff, QueueDepth: shop.Controller.Queue().Len,
		Kitchen: shop.Kitchen, Clock: e.clock, Journal: e.j, Interval: 5 * time.Minute}
	c, err := reconcile.NewController("hpa", hpa, reconcile.Options{})
	if err != nil {
		return nil, nil, err
	}
	if err := reconcile.For(c, pools, reconcile.GenerationChangedPredicate[*BakerPool]{}); err != nil {
		return nil, nil, err
	}
	// A baker deleted or added by someone else wakes the autoscaler up,
	// through the owner reference, as a ReplicaSet watches its pods.
	if err := reconcile.Owns(c, bakers, Kinds()[1]); err != nil {
		return nil, nil, err
	}
	run := func(ctx context.Context) error {
		var wg sync.WaitGroup
		wg.Go(func() { pools.Run(ctx) })
		wg.Go(func() { bakers.Run(ctx) })
		err := c.Start(ctx)
		wg.Wait()
		return err
	}
	return hpa, run, nil
}

// valentine sends the rush's orders, waits for all of them, then for the
// pool to shrink back to its minimum.
func valentine(ctx context.Context, e *env, seed int64, hpa *Autoscaler, ovens *Staff) error {
	rng := rand.New(rand.NewPCG(uint64(seed), 2))
	for i := range rushOrders {
		spec := CakeSpec{Flavor: Flavors[rng.IntN(len(Flavors))], Size: 6 + 2*rng.IntN(3), Decoration: "Be Mine"}
		if rng.IntN(3) == 0 {
			spec.DecorationComplexity = "fancy"
		}
		if err := e.order(ctx, "haidian", fmt.Sprintf("love-%02d", i+1), spec); err != nil {
			return err
		}
		// Few orders early and late, many in the middle of the rush.
		gap := time.Duration(1+rng.IntN(3)) * time.Minute
		if i < 5 || i >= rushOrders-5 {
			gap *= 4
		}
		if err := e.clock.Sleep(ctx, gap); err != nil {
			return err
		}
	}
	if err := e.j.Await(ctx, rushOrders, IsEvent("completed")); err != nil {
		return err
	}
	// The pool may have touched 2 bakers early in the rush: wait until it
	// is back at 2 now, and every spare oven is off, looking as often as
	// the autoscaler does.
	for {
		r := hpa.Replicas()
		if _, _, total := ovens.Load(); len(r) > 0 && r[len(r)-1] == 2 && total <= 6 {
			return nil
		}
		if err := e.clock.Sleep(ctx, 5*time.Minute); err != nil {
			return err
		}
	}
}

// countBakers records how many Baker objects are left and how many of them
// the pool controls through an owner reference.
func countBakers(ctx context.Context, e *env, r *Report) error {
	bakers, _, err := client.New[*Baker](e.srv).Namespace("haidian").List(ctx, meta.ListOptions{})
	if err != nil {
		return err
	}
	r.Numbers["bakers"] = len(bakers)
	for _, b := range bakers {
		if ref := meta.GetControllerOf(b); ref != nil && ref.Kind == "BakerPool" && ref.Name == "valentine" {
			r.Numbers["bakers-owned"]++
		}
	}
	return nil
}
