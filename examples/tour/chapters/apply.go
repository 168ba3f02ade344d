package chapters

import (
	"context"
	"fmt"
	"io"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// Both stories have one waiter per order. With two, the 409 of the tour's second chapter
// says only "someone wrote first"; server-side apply says who owns which
// field. Each waiter applies just the fields it cares about, and the
// front desk records each one's fields in metadata.managedFields. Alice
// takes the order; Bob adds a priority — a field nobody owns, so no
// conflict. When Bob also moves the table to the terrace, the section is
// Alice's: 409, naming her and the field, as kubectl apply --server-side
// prints it. With Force Bob takes the field, and it leaves Alice's list.
// When Alice next applies without the section, it stays: it is Bob's now.
func WhoOwnsTheField(w io.Writer) {
	ctx := context.Background()
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{})
	orders := client.New[*kitchen.Order](srv).Namespace("dinner")
	head := "apiVersion: menu.example.com/v1\nkind: Order\nmetadata: {name: table-5}\n"
	apply := func(waiter, spec string, force bool) (*kitchen.Order, error) {
		return orders.Patch(ctx, "table-5", meta.ApplyPatchType, []byte(head+"spec: "+spec),
			meta.PatchOptions{FieldManager: waiter, Force: &force})
	}

	alice := "{table: 5, section: main, items: [{dish: tomato-soup, quantity: 1}]}"
	if _, err := apply("alice", alice, false); err != nil {
		panic(err)
	}
	o, err := apply("bob", "{priority: 2}", false)
	if err != nil {
		panic(err)
	}
	printOwners(w, o)
	_, err = apply("bob", "{priority: 2, section: terrace}", false)
	fmt.Fprintln(w, "bob moves the table:", err)
	o, err = apply("bob", "{priority: 2, section: terrace}", true)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(w, "bob, forced: section", o.Spec.Section)
	printOwners(w, o)
	o, err = apply("alice", "{table: 5, items: [{dish: tomato-soup, quantity: 1}]}", false)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(w, "alice drops the section from her order: section", o.Spec.Section)
}

// printOwners prints each field manager of o and the fields it owns, in
// the server's FieldsV1 form.
func printOwners(w io.Writer, o *kitchen.Order) {
	for _, e := range o.ManagedFields {
		fmt.Fprintf(w, "%s (%s) owns %s\n", e.Manager, e.Operation, e.FieldsV1)
	}
}
