package bakery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/store"
)

// birthdayCake is the story's order form: 双层巧克力, 8 英寸, 生日快乐糖牌,
// 14:00 取货, 坚果过敏.
func birthdayCake() CakeSpec {
	return CakeSpec{Flavor: "double-chocolate", Size: 8, Layers: 2, Decoration: "Happy Birthday",
		PickupTime: "14:00", Notes: "no nuts anywhere near it", Allergies: []string{"nuts"}, Priority: PriorityRegular}
}

// SceneOrderForm applies the story's order form, corrected, as a
// CustomResourceDefinition to a server that knows no kinds, and shows the
// kind Cake appear (Established, then in discovery), its schema refusing
// a bad form with the real server's messages and filling in a default.
// Then the shop runs on the same kinds registered from Go: the order
// desk refuses the bad form with a typed Invalid error naming each field,
// and the API server refuses the same form sent straight to it, as
// kubectl would, with HTTP 422 naming the same fields; then it takes the
// story's birthday cake, which the baker makes.
func SceneOrderForm(ctx context.Context, cfg Config) (*Report, error) {
	e, r := newEnv(cfg), newReport("order-form")
	form := &Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "scribble"},
		Spec: CakeSpec{Flavor: "durian", Size: 30, PickupTime: "2pm", Resources: CakeResources{IcingMemory: "lots"}}}
	if err := applyOrderForm(ctx, e, r, form); err != nil {
		return nil, err
	}
	for _, k := range e.srv.Scheme().Kinds() {
		if k.Group == Group {
			e.j.Say("manager", "", "registered", "registered %s/%s %s (resource %q, namespaced: a namespace is a branch)",
				k.Group, k.Version, k.Kind, k.Resource)
		}
	}
	fields, err := refuseAtDesk(ctx, e, form)
	if err != nil {
		return nil, err
	}
	r.fact("invalid form refused, fields named: %s", strings.Join(fields, ", "))
	if fields, err = refuseAtServer(ctx, e, form); err != nil {
		return nil, err
	}
	r.fact("sent past the desk, refused by the API server (HTTP 422), fields named: %s", strings.Join(fields, ", "))

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
	c, err := e.cakes.Namespace("haidian").Get(ctx, "birthday-alice", meta.GetOptions{})
	if err != nil {
		return nil, err
	}
	spec, _ := json.Marshal(c.Spec)
	e.j.Say("manager", key(c), "stored", "stored spec: %s", spec)
	e.j.Say("manager", key(c), "stored", "status: phase %s, checkpoint %q, observedGeneration %d, finalizers %v",
		c.Status.Phase, c.Status.Checkpoint, c.Status.ObservedGeneration, c.Finalizers)
	bakes, _, err := client.New[*Bake](e.srv).Namespace("haidian").List(ctx, meta.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, b := range bakes {
		if ref := meta.GetControllerOf(b); ref != nil && ref.Kind == "Cake" && ref.UID == c.UID && b.Status.Phase == BakeDone {
			r.Numbers["bakes-done-owned"]++
		}
		e.j.Say("manager", key(c), "stored", "Bake %s: phase %s, readyAt set: %v, controlled by %s %s",
			b.Name, b.Status.Phase, b.Status.ReadyAt != "", meta.GetControllerOf(b).Kind, meta.GetControllerOf(b).Name)
	}
	return r, e.outcomes(ctx, r, e.srv, e.till, "")
}

// refuseAtDesk hands the order desk form, which is wrong in four places,
// and returns the fields its error names.
func refuseAtDesk(ctx context.Context, e *env, form *Cake) ([]string, error) {
	e.j.Say("customer", key(form), "ordered", "hands in a form: flavor %s, size %d\", pickup %q, icing memory %q",
		form.Spec.Flavor, form.Spec.Size, form.Spec.PickupTime, form.Spec.Resources.IcingMemory)
	_, err := e.desk.Place(ctx, form.DeepCopyObject().(*Cake))
	var se *meta.StatusError
	if !meta.IsInvalid(err) || !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return nil, fmt.Errorf("order-form: the desk answered %v, want 422 Invalid", err)
	}
	e.j.Say("order-desk", key(form), "refused", "refused (422 %s), nothing stored:", se.ErrStatus.Reason)
	return sayCauses(e, "order-desk", key(form), se.ErrStatus.Details.Causes), nil
}

// refuseAtServer sends form straight to the API server, as kubectl create
// would: the YAML turned into JSON and POSTed to the REST API, past the
// order desk. The server runs the Cake kind's Validate hook — the same
// rules the desk checks — and answers HTTP 422 with a Status naming each
// bad field; refuseAtServer returns those fields. The desk's check only
// spares the server a request: the server's check is the one that holds.
func refuseAtServer(ctx context.Context, e *env, form *Cake) ([]string, error) {
	form = form.DeepCopyObject().(*Cake)
	form.TypeMeta = meta.TypeMeta{APIVersion: Group + "/" + Version, Kind: "Cake"}
	body, err := json.Marshal(form)
	if err != nil {
		return nil, err
	}
	path := fmt.Sprintf("/apis/%s/%s/namespaces/%s/%s", Group, Version, form.Namespace, CakeResource.Resource)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	e.j.Say("kubectl", key(form), "sent", "kubectl create -f %s.yaml, past the desk: POST %s", form.Name, path)
	// The recorder is kubectl's end of the line without a network: the
	// handler answers just what it would answer over TCP.
	resp := httptest.NewRecorder()
	httpapi.NewHandler(e.srv).ServeHTTP(resp, req)
	var st meta.Status
	if err := json.Unmarshal(resp.Body.Bytes(), &st); err != nil || resp.Code != http.StatusUnprocessableEntity || st.Details == nil {
		return nil, fmt.Errorf("order-form: the API server answered %d %s, want 422 Invalid", resp.Code, resp.Body)
	}
	e.j.Say("api-server", key(form), "refused", "HTTP %d %s (%s): the Cake schema refuses it, nothing stored:",
		resp.Code, http.StatusText(resp.Code), st.Reason)
	return sayCauses(e, "api-server", key(form), st.Details.Causes), nil
}

// sayCauses narrates each cause of a refusal and returns their fields.
func sayCauses(e *env, who, key string, causes []meta.StatusCause) []string {
	var fields []string
	for _, c := range causes {
		e.j.Say(who, key, "cause", "  %s: %s", c.Field, c.Message)
		fields = append(fields, c.Field)
	}
	return fields
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
