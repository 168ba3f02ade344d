package bakery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// SceneBranches plays the chain of shops (分店协作). First, three branches
// are three namespaces of one API server, each with its own front desk
// (an informer on its namespace only) and its own kitchen: resource
// isolation; a central warehouse ships buttercream to the branches that
// run out, while it has any (跨店原料调配). Then two clusters — two API servers, east and west — and a
// central dispatcher that assigns orders to the one with the fewest open
// orders. East's API server fails (every request errors, every watch is
// cut): the dispatcher notices, restores east's open orders from its
// backup on west, and once east is back, deletes the stale copies there
// (its baker throws the work away, without a refund).
func SceneBranches(ctx context.Context, cfg Config) (*Report, error) {
	r := newReport("branches")
	if err := namespacesAsBranches(ctx, cfg, r); err != nil {
		return nil, err
	}
	if err := twoClusters(ctx, cfg, r); err != nil {
		return nil, err
	}
	return r, nil
}

var branchNames = []string{"chaoyang", "haidian", "xicheng"}

// warehouse is the chain's central warehouse (中央仓库): it ships a
// portion of buttercream to whichever branch runs out, while it has any.
type warehouse struct {
	mu       sync.Mutex // guards portions
	portions int
	j        *Journal
}

// restockFor returns a branch's restock function.
func (w *warehouse) restockFor(branch string) func() bool {
	return func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.portions == 0 {
			w.j.Say("warehouse", "", "empty", "%s asks for buttercream: none left", branch)
			return false
		}
		w.portions--
		w.j.Say("warehouse", "", "shipped", "ships a portion of buttercream to %s (%d left)", branch, w.portions)
		return true
	}
}

func namespacesAsBranches(ctx context.Context, cfg Config, r *Report) error {
	e := newEnv(cfg)
	var shops []*Shop
	var err error
	var stops []func() error
	wh := &warehouse{portions: 2, j: e.j}
	e.j.Say("manager", "", "setup", "each branch has one portion of buttercream; the central warehouse has two")
	for _, b := range branchNames {
		var shop *Shop
		if shop, err = NewShop(e.shop(ShopOptions{Name: b, Namespace: b, Brief: true})); err != nil {
			break
		}
		shop.Kitchen.SetFrosting(1)
		shop.Kitchen.SetRestock(wh.restockFor(b))
		shops = append(shops, shop)
		stops = append(stops, shop.Start(ctx))
	}
	for i, b := range branchNames {
		for j := range 2 {
			if err == nil {
				spec := CakeSpec{Flavor: Flavors[(i+j)%len(Flavors)], Size: 6 + 2*j}
				err = e.order(ctx, b, fmt.Sprintf("order-%d", j+1), spec)
			}
		}
	}
	if err == nil {
		err = e.j.Await(ctx, 6, IsEvent("completed"))
	}
	for _, stop := range stops {
		err = errors.Join(err, stop())
	}
	if err != nil {
		return err
	}
	branchReport(e, r, shops)
	return e.outcomes(ctx, r, e.srv, e.till, "")
}

// branchReport records the warehouse's shipments and what each branch's
// kitchen made.
func branchReport(e *env, r *Report, shops []*Shop) {
	r.Numbers["warehouse-shipped"] = e.j.Count(IsEvent("shipped"))
	r.Numbers["branch-fallbacks"] = e.j.Count(IsEvent("fallback"))
	r.fact("central warehouse shipped %d portions of buttercream; %d cake used the fallback recipe",
		r.Numbers["warehouse-shipped"], r.Numbers["branch-fallbacks"])
	for i, b := range branchNames {
		for _, k := range shops[i].Kitchen.Trays() {
			if !strings.HasPrefix(k, b+"/") {
				r.Numbers["foreign-trays"]++
			}
		}
		r.fact("branch %s's kitchen made: %s", b, strings.Join(shops[i].Kitchen.Trays(), " "))
	}
}

// twoClusters runs east and west, the dispatcher, and east's disaster.
func twoClusters(ctx context.Context, cfg Config, r *Report) error {
	e := newEnv(cfg)
	servers := map[string]*apiserver.Server{"east": NewServer(), "west": NewServer()}
	d := NewDispatcher(e.j, e.till, servers)
	shops := map[string]*Shop{}
	stops := map[string]func() error{}
	for _, name := range []string{"east", "west"} {
		shop, err := newClusterShop(e, name, servers[name], nil)
		if err != nil {
			return err
		}
		shops[name] = shop
	}
	for name, shop := range shops {
		stops[name] = shop.Start(ctx)
	}
	err := disaster(ctx, e, d, servers, shops, stops)
	for _, name := range []string{"east", "west"} {
		err = errors.Join(err, stops[name]())
	}
	if err != nil {
		return err
	}
	for _, name := range []string{"east", "west"} {
		if err := e.outcomes(ctx, r, servers[name], &Till{}, name+":"); err != nil {
			return err
		}
	}
	r.Numbers["handed-over"] = e.j.Count(IsEvent("handed-over"))
	restored := e.j.Count(func(en Entry) bool { return en.Event == "assigned" && strings.Contains(en.Text, "restored") })
	r.Numbers["restored"] = restored
	r.fact("orders restored on west from the backup: %d; stale copies east's baker threw away: %d; refunds: %d",
		restored, e.j.Count(IsEvent("handed-over")), e.j.Count(IsEvent("refunded")))
	return nil
}

// newClusterShop returns a brief shop with two workers on one cluster,
// with kitchen (nil: a new one).
func newClusterShop(e *env, name string, srv *apiserver.Server, kitchen *Kitchen) (*Shop, error) {
	shop, err := NewShop(e.shop(ShopOptions{Name: name, Server: srv, Brief: true, Workers: 2, Kitchen: kitchen}))
	if err != nil {
		return nil, err
	}
	return shop, nil
}

// failAll makes every request to srv fail (n > 0) or heals it (n = 0).
func failAll(srv *apiserver.Server, n int) {
	var err error
	if n > 0 {
		err = meta.NewInternalError(errors.New("etcd: no leader"))
	}
	for _, v := range []apiserver.Verb{apiserver.VerbCreate, apiserver.VerbGet, apiserver.VerbList,
		apiserver.VerbWatch, apiserver.VerbUpdate, apiserver.VerbPatch, apiserver.VerbDelete} {
		srv.FailNext(v, n, err)
	}
}

func disaster(ctx context.Context, e *env, d *Dispatcher, servers map[string]*apiserver.Server,
	shops map[string]*Shop, stops map[string]func() error) error {
	assign := func(names ...string) error {
		for i, n := range names {
			c := &Cake{ObjectMeta: meta.ObjectMeta{Namespace: "downtown", Name: n},
				Spec: CakeSpec{Flavor: Flavors[i%len(Flavors)], Size: 8, Layers: 2}}
			e.j.Say("customer", key(c), "ordered", "orders %s: %s", key(c), describe(c.Spec))
			if err := d.Assign(ctx, c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := assign("early-1", "early-2"); err != nil {
		return err
	}
	if err := e.j.Await(ctx, 2, IsEvent("completed")); err != nil {
		return err
	}
	if err := assign("late-1", "late-2", "late-3", "late-4", "late-5", "late-6"); err != nil {
		return err
	}
	// Let east's bakers get going on two of the new orders first.
	if err := e.j.Await(ctx, 3, func(en Entry) bool { return en.Who == "baker@east" && en.Event == "new" }); err != nil {
		return err
	}
	d.Backup(ctx)
	e.j.Say("manager", "", "disaster", "east's API server fails: every request answers 500, every watch is cut")
	failAll(servers["east"], 1<<30)
	servers["east"].CloseWatches()
	if _, err := d.Probe(ctx, "east"); err != nil {
		return err
	}
	// Wait for every order now on west to be finished there.
	for _, k := range d.AssignedTo("west") {
		if err := e.j.Await(ctx, 1, func(en Entry) bool { return en.Key == k && en.Event == "completed" && en.Who == "baker@west" }); err != nil {
			return err
		}
	}
	return recoverEast(ctx, e, d, servers["east"], shops, stops)
}

// recoverEast closes east's kitchen, heals its API server, lets the
// dispatcher delete the stale copies, and reopens the kitchen to clean up.
func recoverEast(ctx context.Context, e *env, d *Dispatcher, east *apiserver.Server,
	shops map[string]*Shop, stops map[string]func() error) error {
	e.j.Say("manager", "", "fence", "east's kitchen closes until its API server is repaired (fencing: no double bakes)")
	if err := stops["east"](); err != nil {
		return err
	}
	failAll(east, 0)
	e.j.Say("manager", "", "recovered", "east's API server is repaired")
	pending, err := d.CleanUp(ctx, "east")
	if err != nil {
		return err
	}
	shop, err := newClusterShop(e, "east", east, shops["east"].Kitchen)
	if err != nil {
		return err
	}
	shops["east"], stops["east"] = shop, shop.Start(ctx)
	// The copies that east's baker had claimed (with its finalizer) wait
	// for it to throw the work away; the others were deleted at once. Wait
	// until its front desk sees them gone, not only until the baker says
	// "handed over": it says so before it removes its finalizer, and
	// closing the shop in between would leave the copy behind.
	return e.j.Await(ctx, pending, func(en Entry) bool { return en.Who == "front-desk@east" && en.Event == "gone" })
}
