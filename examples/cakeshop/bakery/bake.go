package bakery

import (
	"context"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// BakeResource is the resource of the [Bake] kind.
var BakeResource = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "bakes"}

// Bake is one sponge in the oven (烤箱): a custom resource the baker
// creates for a [Cake], owned by it through a controller owner reference
// (as a ReplicaSet owns its Pods, or a Job its Pods), and worked by the
// [Oven], a controller of its own. The baker does not stand in front of
// the oven for the length of the bake: it puts the sponge in, returns, and
// is woken up when the oven writes Done (or Collapsed) into the Bake's
// status — reconcile.Owns maps that change back to the cake.
type Bake struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            BakeSpec   `json:"spec"`
	Status          BakeStatus `json:"status,omitzero"`
}

// BakeSpec is what goes into the oven.
type BakeSpec struct {
	// Cake names the order the sponge is for (also the owner reference).
	Cake   string `json:"cake"`
	Flavor string `json:"flavor"`
	Size   int    `json:"size"`
	Layers int    `json:"layers"`
	// Minutes is how long the sponge bakes, in shop minutes.
	Minutes int `json:"minutes"`
}

// BakePhase is how far a [Bake] has got.
type BakePhase string

// The phases of a bake: "" (just put in), Baking, Done, or Collapsed
// (the sponge fell; the baker throws it away and tries again later).
const (
	BakePending   BakePhase = ""
	BakeBaking    BakePhase = "Baking"
	BakeDone      BakePhase = "Done"
	BakeCollapsed BakePhase = "Collapsed"
)

// BakeStatus is written by the [Oven].
type BakeStatus struct {
	Phase BakePhase `json:"phase,omitempty"`
	// ReadyAt is the shop time of day the sponge comes out, "HH:MM".
	ReadyAt string `json:"readyAt,omitempty"`
}

// DeepCopyObject returns a copy of b that shares no memory with it.
func (b *Bake) DeepCopyObject() meta.Object {
	out := *b
	out.ObjectMeta = b.ObjectMeta.DeepCopy()
	return &out
}

// bakeSpecErrors returns what is wrong with a bake's spec.
func bakeSpecErrors(b *Bake) meta.FieldErrors {
	var errs meta.FieldErrors
	s := b.Spec
	if s.Cake == "" {
		errs.Required("spec.cake", "which Cake is the sponge for?")
	}
	if s.Flavor == "" {
		errs.Required("spec.flavor", "the oven must know the flavor")
	}
	if s.Minutes < 1 {
		errs.Invalid("spec.minutes", s.Minutes, "must be at least 1 shop minute")
	}
	return errs
}

// bakeName names the Bake of attempt n at a cake's generation: a fixed
// name, so that a second create after a stale read is a harmless
// AlreadyExists, never a second sponge.
func bakeName(c *Cake, n int) string { return fmt.Sprintf("%s-g%d-sponge-%d", c.Name, c.Generation, n) }

// Oven (烤箱) is the [reconcile.Reconciler] of [Bake] objects: it times a
// sponge in the oven without ever waiting for it. A new Bake is started
// (status Baking, readyAt) and requeued for when it is due
// (Result.RequeueAfter); when it is due the sponge comes out, done or
// collapsed, and the status says which. Each Reconcile takes microseconds,
// whatever the length of the bake. Set every field before use.
type Oven struct {
	Bakes   *reconcile.Client[*Bake]
	Kitchen *Kitchen
	Clock   *Clock
	Journal *Journal
	// Who names the oven in the narration, e.g. "oven" or "oven@east".
	Who   string
	Brief bool
}

// Reconcile starts, times or finishes one bake.
func (o *Oven) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	bake, err := o.Bakes.Get(ctx, req.NamespacedName)
	if meta.IsNotFound(err) {
		o.Kitchen.stopOven(req.String()) // thrown away with its cake
		return reconcile.Result{}, nil
	}
	if err != nil || bake.DeletionTimestamp != nil {
		return reconcile.Result{}, err
	}
	cakeKey := bake.Namespace + "/" + bake.Spec.Cake
	switch bake.Status.Phase {
	case BakeDone, BakeCollapsed:
		return reconcile.Result{}, nil
	case BakePending:
		d := time.Duration(bake.Spec.Minutes) * time.Minute
		ready := o.Kitchen.startOven(req.String(), o.Clock.Now()+d)
		if !o.Brief {
			o.Journal.Say(o.who(), cakeKey, "bake", "%s: bake %d× %s sponge, %s (Bake %s → Baking; requeued for when it is done)",
				bake.Spec.Cake, bake.Spec.Layers, bake.Spec.Flavor, FormatShop(d), bake.Name)
		}
		bake.Status = BakeStatus{Phase: BakeBaking, ReadyAt: FormatClock(ready)}
		if _, err := o.Bakes.UpdateStatus(ctx, bake); err != nil {
			return reconcile.Result{}, err
		}
		return reconcile.Result{RequeueAfter: o.Clock.Real(d)}, nil
	}
	ready, ok := o.Kitchen.ovenReady(req.String())
	if !ok { // the oven lost it (a new kitchen): bake it again
		bake.Status = BakeStatus{}
		_, err := o.Bakes.UpdateStatus(ctx, bake)
		return reconcile.Result{}, err
	}
	if left := ready - o.Clock.Now(); left > 0 {
		return reconcile.Result{RequeueAfter: o.Clock.Real(left)}, nil // woken early
	}
	bake.Status.Phase = BakeDone
	if err := o.Kitchen.takeOut(req.String(), cakeKey); err != nil {
		bake.Status.Phase = BakeCollapsed
		o.Journal.Say(o.who(), cakeKey, "collapsed", "%s: %v (Bake %s → Collapsed)", bake.Spec.Cake, err, bake.Name)
	}
	_, err = o.Bakes.UpdateStatus(ctx, bake)
	return reconcile.Result{}, err
}

func (o *Oven) who() string {
	if o.Who == "" {
		return "oven"
	}
	return o.Who
}
