package kitchen

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Waiter takes orders at the tables and writes them to the API server, as
// kubectl would: create, edit (read, change, update, again on a conflict)
// and delete. It validates an order before sending it, as kubectl
// validates against the schema, so a malformed order never reaches the
// kitchen. A Waiter is safe for concurrent use.
type Waiter struct {
	orders *client.Client[*Order]
	log    Logger
}

// NewWaiter returns a waiter writing orders through api — the API server
// in process (*apiserver.Server) or over HTTP (*rest.Client) — into
// namespace ns, telling log what it does (nil: nobody).
func NewWaiter(api client.Interface, ns string, log Logger) *Waiter {
	return &Waiter{orders: client.New[*Order](api).Namespace(ns), log: orSilent(log)}
}

// Place creates the order (kubectl create) and returns it as stored, with
// its resourceVersion. An invalid order fails with a 422 Invalid error
// that names each wrong field.
func (w *Waiter) Place(ctx context.Context, o *Order) (*Order, error) {
	if err := ValidateOrder(o); err != nil {
		return nil, err
	}
	w.log.Say("waiter", "table %d (%s) orders %s: create %s", o.Spec.Table, sectionName(o.Spec.Section),
		describeItems(o.Spec.Items), o.Name)
	return w.orders.Create(ctx, o, meta.CreateOptions{})
}

// Amend changes an order the way `kubectl edit` does: it reads the
// latest version, applies change, and updates; if someone wrote the order
// in between (409 Conflict), it reads and applies again. what describes
// the change for the narration.
func (w *Waiter) Amend(ctx context.Context, name, what string, change func(*Order)) (*Order, error) {
	w.log.Say("waiter", "%s %s: update", name, what)
	var out *Order
	err := client.RetryOnConflict(conflictRetry, func() error {
		cur, err := w.orders.Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return err
		}
		change(cur)
		if err := ValidateOrder(cur); err != nil {
			return err
		}
		out, err = w.orders.Update(ctx, cur, meta.UpdateOptions{})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AddExtra asks for an extra on one item, e.g. the story's black truffle.
func (w *Waiter) AddExtra(ctx context.Context, name string, item int, extra string) (*Order, error) {
	return w.Amend(ctx, name, fmt.Sprintf("adds %s to item %d", extra, item), func(o *Order) {
		if item < len(o.Spec.Items) && !slices.Contains(o.Spec.Items[item].Extras, extra) {
			o.Spec.Items[item].Extras = append(o.Spec.Items[item].Extras, extra)
		}
	})
}

// Cancel deletes the order (kubectl delete). With the chef's finalizer on
// it, the order stays, marked for deletion, until the chef has cleaned
// up.
func (w *Waiter) Cancel(ctx context.Context, name string) error {
	w.log.Say("waiter", "%s: the table leaves: delete", name)
	return w.orders.Delete(ctx, name, meta.DeleteOptions{})
}

func sectionName(s string) string {
	if s == "" {
		return "main"
	}
	return s
}

func describeItems(items []OrderItem) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = fmt.Sprintf("%d× %s", it.Quantity, it.Dish)
		if len(it.Extras) > 0 {
			parts[i] += " with " + strings.Join(it.Extras, ", ")
		}
	}
	return strings.Join(parts, ", ")
}
