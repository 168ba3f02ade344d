package meta_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Every failed call returns a typed error. Test it with a predicate, never
// by its message; the predicates see through wrapping.
func ExampleIsNotFound() {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := srv.Resource(apiservertest.WidgetsResource).Namespace("default")

	_, err := widgets.Get(context.Background(), "w1", meta.GetOptions{})
	err = fmt.Errorf("reconcile default/w1: %w", err)
	fmt.Println("not found:", meta.IsNotFound(err))
	fmt.Println("conflict:", meta.IsConflict(err))
	fmt.Println("reason:", meta.ReasonForError(err))
	fmt.Println(err)
	// Output:
	// not found: true
	// conflict: false
	// reason: NotFound
	// reconcile default/w1: widgets.test.kitchensync.io "w1" not found
}

// Validation collects every problem first, then fails once with a 422
// Invalid error whose causes each name a field.
func ExampleFieldErrors() {
	errs := meta.ValidateName("metadata.name", "Table_7")
	errs.Required("spec.dish", "pick a dish from the menu")

	err := errs.ToError(meta.GroupKind{Group: "menu.example.com", Kind: "Order"}, "Table_7")
	fmt.Println("invalid:", meta.IsInvalid(err))
	var se *meta.StatusError
	if errors.As(err, &se) {
		for _, cause := range se.ErrStatus.Details.Causes {
			fmt.Printf("%s: %s\n", cause.Field, cause.Type)
		}
	}
	// Output:
	// invalid: true
	// metadata.name: FieldValueInvalid
	// spec.dish: FieldValueRequired
}

// A StatusError carries a Kubernetes-shaped Status: what an HTTP front
// sends as the body, and what a watch's ERROR event carries.
func ExampleStatusError() {
	err := meta.NewResourceExpired("too old resource version: 5 (20)")
	body, _ := json.MarshalIndent(err.Status(), "", "  ")
	fmt.Println(string(body))
	// Output:
	// {
	//   "apiVersion": "v1",
	//   "kind": "Status",
	//   "status": "Failure",
	//   "message": "too old resource version: 5 (20)",
	//   "reason": "Expired",
	//   "code": 410
	// }
}
