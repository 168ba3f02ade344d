package bakery

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Autoscaler is the HorizontalPodAutoscaler of a [BakerPool] (智能扩缩容),
// written as a reconciler that looks again every Interval (a RequeueAfter
// every time). Its metric is the bakers' utilization: cakes being made or
// waiting (busy bakers + cakes waiting for a baker + the queue's depth)
// per baker on duty. Like the HPA it wants
//
//	desired = ceil(current × utilization / target)
//
// within [minReplicas, maxReplicas], ignores changes within a 10%
// tolerance, scales up at once and down only to the highest recommendation
// of the last 15 shop minutes (the stabilization window). Above 100%
// utilization it turns on degraded service: fancy decorations are
// simplified. Bakers are Baker objects owned by the pool (ownerReferences),
// like the pods of a Deployment.
type Autoscaler struct {
	Pools      *reconcile.Client[*BakerPool]
	Bakers     *reconcile.Client[*Baker]
	Staff      *Staff
	QueueDepth func() int
	Kitchen    *Kitchen
	Clock      *Clock
	Journal    *Journal
	Interval   time.Duration // shop time
	// Ovens, if set, are scaled too, between their number at the start and
	// MaxOvens (see scaleOvens).
	Ovens    *Staff
	MaxOvens int

	mu      sync.Mutex // guards the fields below
	recs    []recommendation
	history []int // replicas after each decision
	spares  int   // spare ovens turned on
	ovens   []int // ovens at each look
}

type recommendation struct {
	at       time.Duration
	replicas int
}

// Reconcile scales the pool of req to its demand.
func (a *Autoscaler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	pool, err := a.Pools.Get(ctx, req.NamespacedName)
	if meta.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	current, err := a.owned(ctx, pool)
	if err != nil {
		return reconcile.Result{}, err
	}
	busy, waiting, _ := a.Staff.Load()
	demand := busy + waiting + a.QueueDepth()
	util, desired := a.recommend(pool.Spec, len(current), demand)
	a.degrade(util)
	switch {
	case len(current) == 0:
		a.Journal.Say("hpa", key2(pool), "scaled", "no bakers yet → scale 0 → %d bakers (minReplicas)", desired)
	case desired != len(current):
		a.Journal.Say("hpa", key2(pool), "scaled", "utilization %d%% (%d cake(s) for %d bakers), target %d%% → scale %d → %d bakers",
			util, demand, len(current), pool.Spec.TargetUtilization, len(current), desired)
	}
	if err := a.scale(ctx, pool, desired); err != nil {
		return reconcile.Result{}, err
	}
	a.scaleOvens()
	a.mu.Lock()
	a.history = append(a.history, desired)
	a.mu.Unlock()
	pool.Status = BakerPoolStatus{Replicas: len(current), DesiredReplicas: desired, Utilization: util}
	if _, err := a.Pools.UpdateStatus(ctx, pool); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{RequeueAfter: a.Clock.Real(a.Interval)}, nil
}

func key2(p *BakerPool) string { return p.Namespace + "/" + p.Name }

// owned returns the bakers in the cache that pool controls.
func (a *Autoscaler) owned(ctx context.Context, pool *BakerPool) ([]*Baker, error) {
	all, err := a.Bakers.List(ctx, pool.Namespace, nil)
	if err != nil {
		return nil, err
	}
	var out []*Baker
	for _, b := range all {
		if ref := meta.GetControllerOf(b); ref != nil && ref.UID == pool.UID {
			out = append(out, b)
		}
	}
	return out, nil
}

// recommend returns the utilization in percent and the replicas to run.
func (a *Autoscaler) recommend(spec BakerPoolSpec, current, demand int) (util, desired int) {
	if current == 0 {
		return 0, spec.MinReplicas
	}
	util = demand * 100 / current
	desired = current
	if ratio := float64(util) / float64(spec.TargetUtilization); ratio < 0.9 || ratio > 1.1 {
		desired = (demand*100 + spec.TargetUtilization - 1) / spec.TargetUtilization // ceil
	}
	desired = min(max(desired, spec.MinReplicas), spec.MaxReplicas)
	now := a.Clock.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, recommendation{now, desired})
	for len(a.recs) > 0 && a.recs[0].at < now-15*time.Minute {
		a.recs = a.recs[1:]
	}
	if desired < current {
		// Scale down only as far as every recent recommendation allows.
		for _, r := range a.recs {
			desired = max(desired, min(r.replicas, current))
		}
	}
	return util, desired
}

// degrade turns degraded service on above 100% utilization, off below.
func (a *Autoscaler) degrade(util int) {
	busy := util > 100
	if busy != a.Kitchen.isBusy() {
		a.Kitchen.SetBusy(busy)
		if busy {
			a.Journal.Say("manager", "", "degraded", "utilization %d%% > 100%%: degraded service, fancy decorations become plaque-only", util)
		} else {
			a.Journal.Say("manager", "", "degraded-off", "utilization %d%%: full service again", util)
		}
	}
}

// scale creates or deletes Baker objects so that exactly desired exist,
// with fixed names (a second create is a harmless AlreadyExists).
func (a *Autoscaler) scale(ctx context.Context, pool *BakerPool, desired int) error {
	for i := 1; i <= pool.Spec.MaxReplicas; i++ {
		name := fmt.Sprintf("%s-baker-%02d", pool.Name, i)
		b := &Baker{ObjectMeta: meta.ObjectMeta{Namespace: pool.Namespace, Name: name,
			OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(pool)}}, Spec: BakerSpec{Pool: pool.Name}}
		_, err := a.Bakers.Get(ctx, reconcile.NamespacedName{Namespace: pool.Namespace, Name: name})
		exists := err == nil
		switch {
		case i <= desired && !exists:
			if _, err := a.Bakers.Create(ctx, b); err != nil && !meta.IsAlreadyExists(err) {
				return err
			}
		case i > desired && exists:
			if err := a.Bakers.Delete(ctx, b); err != nil && !meta.IsNotFound(err) {
				return err
			}
		}
	}
	return nil
}

// Replicas returns the replicas decided at each look, in order.
func (a *Autoscaler) Replicas() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]int(nil), a.history...)
}
