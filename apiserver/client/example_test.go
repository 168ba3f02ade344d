package client_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A typed client over the in-process server; the same lines work over
// HTTP with a *rest.Client in place of srv. The second writer read before
// the first wrote, so its update conflicts; RetryOnConflict reads again
// and succeeds.
func ExampleNew() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("kitchen")

	w, _ := widgets.Create(ctx, apiservertest.NewWidget("kitchen", "pan"), meta.CreateOptions{})
	stale := meta.DeepCopy(w)
	w.Spec.Color = "red"
	_, _ = widgets.Update(ctx, w, meta.UpdateOptions{})

	stale.Spec.Color = "blue"
	_, err := widgets.Update(ctx, stale, meta.UpdateOptions{})
	fmt.Println("stale update conflicts:", meta.IsConflict(err))

	tries := 0
	err = client.RetryOnConflict(client.DefaultRetry, func() error {
		tries++
		fresh, err := widgets.Get(ctx, "pan", meta.GetOptions{})
		if err != nil {
			return err
		}
		fresh.Spec.Color = "blue"
		_, err = widgets.Update(ctx, fresh, meta.UpdateOptions{})
		return err
	})
	got, _ := widgets.Get(ctx, "pan", meta.GetOptions{})
	fmt.Println("after retry:", err, tries, got.Spec.Color)
	// Output:
	// stale update conflicts: true
	// after retry: <nil> 1 blue
}
