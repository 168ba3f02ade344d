package kitchen

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// work is what the chef found and did for one order's items.
type work struct {
	cooks      map[int]*Cook  // item → its cook, nil while waiting for stock
	short      *ShortageError // an item waits for stock
	wait       time.Duration  // kitchen time until waiting may help
	outOfStock *ShortageError // an item can never be made
}

// noteShortage records a shortage: wait for a due delivery (5 minutes if
// the stock went off, as in the story), or give up when none is due.
func (w *work) noteShortage(s *ShortageError, now time.Duration) {
	if !s.DeliveryDue {
		w.outOfStock = s
		return
	}
	wait := s.NextDelivery - now
	if s.Expired {
		wait = ExpiredWait
	}
	if w.short == nil || wait < w.wait {
		w.short, w.wait = s, wait
	}
}

// workItems compares each item with its cook and acts on the difference.
func (c *Chef) workItems(ctx context.Context, order *Order, menu []*Dish) (*work, error) {
	w := &work{cooks: map[int]*Cook{}}
	actual, err := c.cooksOf(ctx, order)
	if err != nil {
		return nil, err
	}
	for i, ck := range actual {
		if i >= len(order.Spec.Items) {
			if err := c.dropCook(ctx, ck, "the item was removed from the order"); err != nil {
				return nil, err
			}
		}
	}
	for i, it := range order.Spec.Items {
		if err := c.workItem(ctx, order, i, it, menu[i], actual[i], w); err != nil {
			return nil, err
		}
		if w.outOfStock != nil {
			break
		}
	}
	return w, nil
}

// workItem brings one item's cook in line with the item.
func (c *Chef) workItem(ctx context.Context, order *Order, i int, it OrderItem, d *Dish, cur *Cook, w *work) error {
	want := desiredCook(order, i, it, d)
	need, err := Need(d, it)
	if err != nil {
		return err // checked by readMenu; cannot happen
	}
	key := keyOf(order)
	switch {
	case cur == nil:
		return c.startCook(ctx, want, need, w)
	case cur.Spec.Dish != want.Spec.Dish || cur.Spec.Quantity != want.Spec.Quantity:
		c.log().Say("chef", "%s: item %d changed (%s), restarting it", key, i, describeChange(cur.Spec, want.Spec))
		if err := c.dropCook(ctx, cur, "the item changed"); err != nil {
			return err
		}
		return c.startCook(ctx, want, need, w)
	case slices.Equal(cur.Spec.Extras, want.Spec.Extras): // nil and empty alike
		w.cooks[i] = cur // nothing to do
		return nil
	case cur.Status.Phase == CookDone:
		c.log().Say("chef", "%s: item %d is already cooked; extras %v come too late", key, i, want.Spec.Extras)
		w.cooks[i] = cur
		return nil
	}
	// Extras changed mid-cooking: adapt without starting over.
	if err := c.Pantry.Reserve(c.Clock.Now(), keyOf(cur), need); err != nil {
		if s, ok := AsShortage(err); ok {
			w.noteShortage(s, c.Clock.Now())
			w.cooks[i] = cur
			return nil
		}
		return err
	}
	next := meta.DeepCopy(cur)
	next.Spec.Extras = want.Spec.Extras
	c.log().Say("chef", "%s: item %d: %s, without restarting the %s (cook %s keeps cooking)", key, i,
		describeChange(cur.Spec, next.Spec), cur.Spec.Dish, cur.Name)
	obj, err := c.CookAPI.Namespace(cur.Namespace).Update(ctx, next, meta.UpdateOptions{})
	if err != nil {
		return err // the reservation stays: Reserve is declarative, the retry fixes it
	}
	w.cooks[i] = obj
	return c.wrote(order.Namespace, order.Name, CookResource.GroupResource(), obj)
}

// startCook reserves an item's ingredients and creates its cook.
func (c *Chef) startCook(ctx context.Context, want *Cook, need map[string]Amount, w *work) error {
	holder := keyOf(want)
	if err := c.Pantry.Reserve(c.Clock.Now(), holder, need); err != nil {
		if s, ok := AsShortage(err); ok {
			c.log().Say("chef", "%s: item %d waits: %v", want.Namespace+"/"+want.Spec.Order, want.Spec.Item, s)
			w.noteShortage(s, c.Clock.Now())
			return nil
		}
		return err
	}
	order := want.Namespace + "/" + want.Spec.Order
	// Narrate before the write: the brigade may answer before Create
	// returns. The front desk's ADDED (or the chef's AlreadyExists) says
	// how it went.
	c.log().Say("chef", "%s: asks for cook %s at the %s for %d× %s (holding %s)", order,
		want.Name, want.Spec.Station, want.Spec.Quantity, want.Spec.Dish, formatNeed(need))
	obj, err := c.CookAPI.Namespace(want.Namespace).Create(ctx, want, meta.CreateOptions{})
	switch {
	case meta.IsAlreadyExists(err):
		// The lesson of a stale cache: an earlier reconcile created it,
		// and the runner has not brought the news yet. The reservation
		// above was a no-op: Reserve is declarative.
		c.log().Say("chef", "%s: cook %s already exists (409 AlreadyExists): an earlier reconcile sent it and my cache "+
			"has not caught up yet; nothing to do", order, want.Name)
		w.cooks[want.Spec.Item] = want
		return nil
	case err != nil:
		c.Pantry.Release(holder)
		return err
	}
	w.cooks[want.Spec.Item] = obj
	return c.wrote(want.Namespace, want.Spec.Order, CookResource.GroupResource(), obj)
}

// dropCook stops a cook and deletes it: the chef's own replacing or
// tidying up. (A cancelled order's cooks are not deleted by the chef:
// the API server's garbage collector takes them when the order goes.)
func (c *Chef) dropCook(ctx context.Context, ck *Cook, why string) error {
	c.stopCook(ck, why)
	err := c.CookAPI.Namespace(ck.Namespace).Delete(ctx, ck.Name, meta.DeleteOptions{})
	if err != nil && !meta.IsNotFound(err) {
		return err
	}
	return nil
}

// stopCook calls a cook off its station, which settles its ingredients
// (see [Stations.Stop]), and says so. A cook stopped before (a repeated
// cancellation) is only mentioned in detail.
func (c *Chef) stopCook(ck *Cook, why string) {
	order := ck.Namespace + "/" + ck.Spec.Order
	if p, _ := c.Stations.Phase(keyOf(ck)); p == CookStopped {
		c.log().Detail("chef", "%s: cook %s is already stopped", order, ck.Name)
		return
	}
	was := c.Stations.Stop(keyOf(ck))
	if was == CookDone || ck.Status.Phase == CookDone {
		c.log().Detail("chef", "%s: clears away cook %s (done)", order, ck.Name)
	} else {
		c.log().Say("chef", "%s: stops cook %s (%s; it was %s)", order, ck.Name, why, settled(was))
	}
}

// settled says what stopping a cook in phase p did with its ingredients.
func settled(p CookPhase) string {
	switch p {
	case CookCooking:
		return "cooking: ingredients wasted"
	case CookDone:
		return "done"
	}
	return "not started: ingredients back in the pantry"
}

// cooksOf returns the order's live cooks by item, from the cache. When an
// item has several (a restart the cache half-saw), the newest generation
// wins and the others are stopped.
func (c *Chef) cooksOf(ctx context.Context, order *Order) (map[int]*Cook, error) {
	list, err := c.Cooks.ByIndex(CookOrderIndex, keyOf(order))
	if err != nil {
		return nil, err
	}
	if c.Freshness == nil && !coversItems(list, len(order.Spec.Items)) {
		// About to create a cook, and nothing says that the cache has
		// seen the cooks an earlier reconcile created. Ask the API
		// server, as a controller-runtime reconciler asks its APIReader,
		// rather than send a second cook for the same item. (With
		// Freshness, this reconcile runs only once the cache has them.)
		if list, _, err = c.CookAPI.Namespace(order.Namespace).List(ctx,
			meta.ListOptions{FieldSelector: "spec.order=" + order.Name}); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(list, func(a, b *Cook) int { return cookGeneration(a.Name) - cookGeneration(b.Name) })
	out := map[int]*Cook{}
	for _, ck := range list {
		if ck.DeletionTimestamp != nil {
			continue
		}
		if old, ok := out[ck.Spec.Item]; ok {
			if err := c.dropCook(ctx, old, "replaced by "+ck.Name); err != nil {
				return nil, err
			}
		}
		out[ck.Spec.Item] = ck
	}
	return out, nil
}

// coversItems reports whether cooks has a live cook for each of n items.
func coversItems(cooks []*Cook, n int) bool {
	seen := map[int]bool{}
	for _, ck := range cooks {
		if ck.DeletionTimestamp == nil && ck.Spec.Item < n {
			seen[ck.Spec.Item] = true
		}
	}
	return len(seen) == n
}

// desiredCook is the cook an item should have: named after the order,
// the item and the order's generation, owned by the order.
func desiredCook(order *Order, i int, it OrderItem, d *Dish) *Cook {
	station := stationOf(d)
	yes := true
	return &Cook{
		TypeMeta: meta.TypeMeta{APIVersion: APIVersion, Kind: "Cook"},
		ObjectMeta: meta.ObjectMeta{
			Name:      fmt.Sprintf("%s-%d-g%d", order.Name, i, order.Generation),
			Namespace: order.Namespace,
			Labels:    map[string]string{"order": order.Name},
			OwnerReferences: []meta.OwnerReference{{APIVersion: APIVersion, Kind: "Order",
				Name: order.Name, UID: order.UID, Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Spec: CookSpec{Order: order.Name, Item: i, Dish: it.Dish, Quantity: it.Quantity,
			Extras: slices.Clone(it.Extras), Station: station, CookingTime: d.Spec.CookingTime},
	}
}

// stationOf returns where a dish is cooked.
func stationOf(d *Dish) string {
	if d.Spec.Station == "" {
		return DefaultStation
	}
	return d.Spec.Station
}

var cookSuffix = regexp.MustCompile(`^[0-9]+-g([0-9]+)$`)

// cookGeneration reads the generation out of a cook's name (0 if none).
func cookGeneration(name string) int {
	i := strings.LastIndex(name, "-g")
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(name[i+2:])
	return n
}

// isCookOf reports whether a pantry holder ("ns/name") is a cook of the
// order ns/order.
func isCookOf(holder, ns, order string) bool {
	rest, ok := strings.CutPrefix(holder, ns+"/"+order+"-")
	return ok && cookSuffix.MatchString(rest)
}

func formatNeed(need map[string]Amount) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(need)) {
		parts = append(parts, need[name].String()+" "+name)
	}
	return strings.Join(parts, ", ")
}

// describeChange says in a few words how a cook's assignment differs
// from what the item now asks, in words that stay the same from run to
// run, as the narration must.
func describeChange(old, want CookSpec) string {
	var parts []string
	if old.Dish != want.Dish {
		parts = append(parts, fmt.Sprintf("dish %s → %s", old.Dish, want.Dish))
	}
	if old.Quantity != want.Quantity {
		parts = append(parts, fmt.Sprintf("quantity %d → %d", old.Quantity, want.Quantity))
	}
	if !slices.Equal(old.Extras, want.Extras) {
		parts = append(parts, fmt.Sprintf("extras %v → %v", old.Extras, want.Extras))
	}
	return strings.Join(parts, ", ")
}
