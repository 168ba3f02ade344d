package chapters

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// order returns a one-item order for a table.
func order(name string, table int, section, dish string) *kitchen.Order {
	return &kitchen.Order{
		ObjectMeta: meta.ObjectMeta{Name: name},
		Spec: kitchen.OrderSpec{Table: table, Section: section,
			Items: []kitchen.OrderItem{{Dish: dish, Quantity: 1}}},
	}
}

// An order is an object, like a Pod: metadata, a spec (what the table
// wants) and a status (what the kitchen has done). The front desk stamps
// every write with a new resourceVersion; only changes to the spec bump
// the generation.
func AnOrderIsAnObject(w io.Writer) {
	ctx := context.Background()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")

	o, err := orders.Create(ctx, order("table-7", 7, "vip", "seafood-pasta"), meta.CreateOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(w, "created %s %s/%s: resourceVersion %s, generation %d\n", o.Kind, o.Namespace, o.Name, o.ResourceVersion, o.Generation)

	o.Spec.Items[0].Extras = []string{"black-truffle"}
	o, _ = orders.Update(ctx, o, meta.UpdateOptions{})
	fmt.Fprintf(w, "spec changed:    resourceVersion %s, generation %d\n", o.ResourceVersion, o.Generation)

	o.Status.Phase = kitchen.OrderCooking
	o, _ = orders.UpdateStatus(ctx, o, meta.UpdateOptions{})
	fmt.Fprintf(w, "status changed:  resourceVersion %s, generation %d\n", o.ResourceVersion, o.Generation)

	o, _ = orders.Update(ctx, o, meta.UpdateOptions{})
	fmt.Fprintf(w, "nothing changed: resourceVersion %s, generation %d\n", o.ResourceVersion, o.Generation)

	bad := order("table-0", 0, "vip", "seafood-pasta")
	bad.Spec.Items[0].Quantity = 0
	fmt.Fprintln(w, kitchen.ValidateOrder(bad))
}

// Two waiters edit the same order. The second one wrote from a stale
// copy: the front desk refuses with 409 Conflict instead of losing the
// first waiter's change. RetryOnConflict reads again and re-applies.
func Conflict(w io.Writer) {
	ctx := context.Background()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	if _, err := orders.Create(ctx, order("table-3", 3, "main", "tomato-soup"), meta.CreateOptions{}); err != nil {
		panic(err)
	}
	alice, _ := orders.Get(ctx, "table-3", meta.GetOptions{})
	bob, _ := orders.Get(ctx, "table-3", meta.GetOptions{})

	alice.Spec.Items[0].Quantity = 2
	if _, err := orders.Update(ctx, alice, meta.UpdateOptions{}); err != nil {
		panic(err)
	}
	bob.Spec.Items[0].Extras = []string{"chili"}
	_, err := orders.Update(ctx, bob, meta.UpdateOptions{})
	fmt.Fprintln(w, "bob:", err)
	fmt.Fprintln(w, "conflict?", meta.IsConflict(err))

	err = client.RetryOnConflict(client.DefaultRetry, func() error {
		latest, err := orders.Get(ctx, "table-3", meta.GetOptions{})
		if err != nil {
			return err
		}
		latest.Spec.Items[0].Extras = []string{"chili"}
		_, err = orders.Update(ctx, latest, meta.UpdateOptions{})
		return err
	})
	o, _ := orders.Get(ctx, "table-3", meta.GetOptions{})
	fmt.Fprintf(w, "after the retry: %d× %s with %v (err %v)\n", o.Spec.Items[0].Quantity, o.Spec.Items[0].Dish, o.Spec.Items[0].Extras, err)
}

// The front desk keeps a log of changes. A watch from resourceVersion N
// streams every change after N, in order: the runner never has to ask
// "anything new?" again.
func Watch(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	first, _ := orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})

	changes, err := orders.Watch(ctx, meta.ListOptions{ResourceVersion: first.ResourceVersion})
	if err != nil {
		panic(err)
	}
	defer changes.Stop()
	orders.Create(ctx, order("table-2", 2, "vip", "beef-wellington"), meta.CreateOptions{})
	o, _ := orders.Get(ctx, "table-1", meta.GetOptions{})
	o.Spec.Items[0].Quantity = 3
	orders.Update(ctx, o, meta.UpdateOptions{})
	orders.Delete(ctx, "table-2", meta.DeleteOptions{})

	for range 3 {
		e := <-changes.ResultChan()
		m := e.Object.GetObjectMeta()
		fmt.Fprintf(w, "%-8s %s (resourceVersion %s)\n", e.Type, m.Name, m.ResourceVersion)
	}
}

// The same watch over HTTP, as the story's curl does:
//
//	GET /apis/menu.example.com/v1/namespaces/dinner/orders?watch=true&resourceVersion=N
//
// httpapi puts the Kubernetes REST protocol in front of the server, so
// kubectl and curl can call the front desk; a watch is a stream of JSON
// lines, one event each.
func WatchOverHTTP(w io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	front := httptest.NewUnstartedServer(httpapi.NewHandler(srv))
	front.Config.ReadHeaderTimeout, front.Config.IdleTimeout = 10*time.Second, 2*time.Minute // as any server should
	front.Start()
	defer front.Close()
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	first, _ := orders.Create(ctx, order("table-1", 1, "main", "tomato-soup"), meta.CreateOptions{})

	url := front.URL + "/apis/menu.example.com/v1/namespaces/dinner/orders?watch=true&resourceVersion=" + first.ResourceVersion
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	fmt.Fprintln(w, resp.Status, resp.Header.Get("Content-Type"))

	orders.Create(ctx, order("table-2", 2, "vip", "beef-wellington"), meta.CreateOptions{})
	orders.Delete(ctx, "table-1", meta.DeleteOptions{})
	dec := json.NewDecoder(resp.Body)
	for range 2 {
		var e struct {
			Type   string
			Object kitchen.Order
		}
		if err := dec.Decode(&e); err != nil {
			panic(err)
		}
		fmt.Fprintf(w, `{"type":%q,"object":{"kind":%q,"metadata":{"name":%q,"resourceVersion":%q,...}}}`+"\n",
			e.Type, e.Object.Kind, e.Object.Name, e.Object.ResourceVersion)
	}
}
