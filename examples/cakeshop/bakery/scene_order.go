package bakery

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/store"
)

// birthdayCake is the story's order form: 双层巧克力, 8 英寸, 生日快乐糖牌,
// 14:00 取货, 坚果过敏.
func birthdayCake() CakeSpec {
	return CakeSpec{Flavor: "double-chocolate", Size: 8, Layers: 2, Decoration: "Happy Birthday",
		PickupTime: "14:00", Notes: "no nuts anywhere near it", Allergies: []string{"nuts"}, Priority: PriorityRegular}
}

// SceneOrderForm registers the Cake CRD, shows the order desk refusing a
// bad form with a typed Invalid error naming each field, and takes the
// story's birthday cake, which the baker then makes.
func SceneOrderForm(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("order-form")
	for _, k := range e.srv.Scheme().Kinds() {
		if k.Group == Group {
			e.j.Say("manager", "", "registered", "registered %s/%s %s (resource %q, namespaced: a namespace is a branch)",
				k.Group, k.Version, k.Kind, k.Resource)
		}
	}
	fields, err := refuseBadForm(ctx, e)
	if err != nil {
		return nil, err
	}
	r.fact("invalid form refused, fields named: %s", strings.Join(fields, ", "))

	shop, err := NewShop(e.shop(ShopOptions{}))
	if err != nil {
		return nil, err
	}
	stop := shop.Start(ctx)
	if err := e.order(ctx, "haidian", "birthday-alice", birthdayCake()); err != nil {
		return nil, errors.Join(err, stop())
	}
	err = e.await(ctx, "haidian/birthday-alice", "completed", 1)
	if err = errors.Join(err, stop()); err != nil {
		return nil, err
	}
	c, err := e.cakes.Namespace("haidian").Get(ctx, "birthday-alice", apiserver.GetOptions{})
	if err != nil {
		return nil, err
	}
	spec, _ := json.Marshal(c.Spec)
	e.j.Say("manager", key(c), "stored", "stored spec: %s", spec)
	e.j.Say("manager", key(c), "stored", "status: phase %s, checkpoint %q, observedGeneration %d, finalizers %v",
		c.Status.Phase, c.Status.Checkpoint, c.Status.ObservedGeneration, c.Finalizers)
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

// refuseBadForm hands the order desk a form that is wrong in four places
// and returns the fields its error names.
func refuseBadForm(ctx context.Context, e *env) ([]string, error) {
	bad := CakeSpec{Flavor: "durian", Size: 30, PickupTime: "2pm", Resources: CakeResources{IcingMemory: "lots"}}
	e.j.Say("customer", "haidian/scribble", "ordered", "hands in a form: flavor durian, size 30\", pickup \"2pm\", icing memory \"lots\"")
	_, err := e.desk.Place(ctx, &Cake{ObjectMeta: apiserver.ObjectMeta{Namespace: "haidian", Name: "scribble"}, Spec: bad})
	var se *apiserver.StatusError
	if !apiserver.IsInvalid(err) || !errors.As(err, &se) {
		return nil, errors.New("order-form: the bad form was not refused as Invalid")
	}
	e.j.Say("order-desk", "haidian/scribble", "refused", "refused (422 %s), nothing stored:", se.ErrStatus.Reason)
	var fields []string
	for _, c := range se.ErrStatus.Details.Causes {
		e.j.Say("order-desk", "haidian/scribble", "cause", "  %s: %s", c.Field, c.Message)
		fields = append(fields, c.Field)
	}
	return fields, nil
}

// SceneLifecycle plays part 2 of the story: a new order is baked, a change
// of decoration only redoes the decoration, a change of flavor rebakes,
// and a cancellation stops the work and refunds the deposit through the
// finalizer. Every step waits for the last, so its narration is
// deterministic.
func SceneLifecycle(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("lifecycle")
	shop, err := NewShop(e.shop(ShopOptions{}))
	if err != nil {
		return nil, err
	}
	stop := shop.Start(ctx)
	err = lifecycle(ctx, e, shop, "haidian", "alice")
	if err = errors.Join(err, stop()); err != nil {
		return nil, err
	}
	bakes := shop.Kitchen.Discarded()
	r.Numbers["discarded"] = bakes
	r.fact("sponges thrown away: %d (the vanilla one, when the flavor changed, and the matcha one, when cancelled)", bakes)
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

func lifecycle(ctx context.Context, e *env, shop *Shop, branch, name string) error {
	k := branch + "/" + name
	spec := CakeSpec{Flavor: "vanilla", Size: 6, Decoration: "Happy Birthday", Priority: PriorityRegular}
	if err := e.order(ctx, branch, name, spec); err != nil {
		return err
	}
	if err := e.await(ctx, k, "completed", 1); err != nil {
		return err
	}
	// The front desk's ledger is the informer's Indexer, indexed by
	// namespace: the branch's orders without asking the API server.
	inBranch, err := shop.Informer.GetIndexer().ByIndex(store.NamespaceIndex, branch)
	if err != nil {
		return err
	}
	var names []string
	for _, c := range inBranch {
		names = append(names, c.Name)
	}
	e.j.Say("front-desk", "", "ledger", "ledger (Indexer, namespace index) for branch %s: %s", branch, strings.Join(names, ", "))
	if err := e.change(ctx, branch, name, `decoration "Happy Birthday" → "Happy 30th"`,
		func(s *CakeSpec) { s.Decoration = "Happy 30th" }); err != nil {
		return err
	}
	if err := e.await(ctx, k, "completed", 2); err != nil {
		return err
	}
	if err := e.change(ctx, branch, name, "flavor vanilla → matcha", func(s *CakeSpec) { s.Flavor = "matcha" }); err != nil {
		return err
	}
	if err := e.await(ctx, k, "completed", 3); err != nil {
		return err
	}
	if err := e.cancel(ctx, branch, name); err != nil {
		return err
	}
	return e.await(ctx, k, "gone", 1)
}
