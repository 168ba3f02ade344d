package kitchen

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
)

// Brigade is the cooks' side of the kitchen: the [reconcile.Reconciler] of
// [Cook] objects, playing the part a kubelet plays for Pods. For each cook
// it puts the work on the [Stations] and reports the cook's phase
// (Waiting, Cooking, Done) in its status, which the runner passes on to
// the chef of the owning order.
//
// Reconcile is idempotent. Set every field before use (Log may stay
// nil).
type Brigade struct {
	Cooks    Cache[*Cook]
	CookAPI  *client.Client[*Cook]
	Stations *Stations
	Log      Logger // nil: tells nobody
}

// Reconcile puts one cook to work and reports its phase.
func (b *Brigade) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.String()
	cook, ok, err := b.Cooks.GetByKey(key)
	if err != nil {
		return reconcile.Result{}, err
	}
	if !ok || cook.DeletionTimestamp != nil {
		b.Stations.Stop(key)
		return reconcile.Result{}, nil
	}
	if cook.Status.Phase == CookDone || cook.Status.Phase == CookStopped {
		return reconcile.Result{}, nil
	}
	phase, err := b.Stations.Start(key, cook.Spec.Station, cook.Spec.CookingTime.Duration)
	if err != nil {
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	if phase == cook.Status.Phase || phase == CookStopped {
		return reconcile.Result{}, nil
	}
	if phase == CookWaiting && cook.Status.Phase == CookCooking {
		// Started by a chef that is gone (a failover, a restart): these
		// stations queue it again, but its phase does not go back, as a
		// pod's does not; it is written again when it is done.
		return reconcile.Result{}, nil
	}
	msg := b.message(cook, phase)
	b.log().Say("cook", "%s: %s", key, msg) // before the write: the runner may pass it on before UpdateStatus returns
	var stored *Cook
	cur, first := meta.DeepCopy(cook), true
	err = client.RetryOnConflict(conflictRetry, func() error {
		var err error
		if !first { // the cache lagged: read the latest
			if cur, err = b.CookAPI.Namespace(cook.Namespace).Get(ctx, cook.Name, meta.GetOptions{}); err != nil {
				return err
			}
		}
		first = false
		cur.Status = CookStatus{Phase: phase, Message: msg}
		stored, err = b.CookAPI.Namespace(cook.Namespace).UpdateStatus(ctx, cur, meta.UpdateOptions{})
		return err
	})
	if meta.IsNotFound(err) {
		b.Stations.Stop(key)
		return reconcile.Result{}, nil
	}
	if err == nil {
		b.log().Detail("cook", "%s: status written (rv %s)", key, stored.ResourceVersion)
	}
	return reconcile.Result{}, err
}

func (b *Brigade) log() Logger { return orSilent(b.Log) }

func (b *Brigade) message(c *Cook, phase CookPhase) string {
	switch phase {
	case CookWaiting:
		return fmt.Sprintf("waits for a place at the %s", c.Spec.Station)
	case CookCooking:
		return fmt.Sprintf("cooks %d× %s at the %s (%.0f min)", c.Spec.Quantity, c.Spec.Dish, c.Spec.Station,
			c.Spec.CookingTime.Minutes())
	}
	return fmt.Sprintf("%d× %s is at the pass", c.Spec.Quantity, c.Spec.Dish)
}
