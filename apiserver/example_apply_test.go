package apiserver_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Two field managers apply the same widget. The first owns color and
// size; the second, applying another color, conflicts, and takes the
// field only with Force. Each manager's entry in metadata.managedFields
// lists what it owns.
func ExampleClient_Apply() {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	ctx := context.Background()

	mine := apiservertest.NewWidget("ns", "w")
	mine.Spec.Color, mine.Spec.Size = "red", 2
	if _, err := widgets.Apply(ctx, mine, meta.ApplyOptions{FieldManager: "alice"}); err != nil {
		panic(err)
	}

	theirs := apiservertest.NewWidget("ns", "w")
	theirs.Spec.Color = "blue"
	_, err := widgets.Apply(ctx, theirs, meta.ApplyOptions{FieldManager: "bob"})
	fmt.Println(meta.IsConflict(err), err)

	w, err := widgets.Apply(ctx, theirs, meta.ApplyOptions{FieldManager: "bob", Force: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(w.Spec.Color, w.Spec.Size)
	for _, e := range w.ManagedFields {
		fmt.Println(e.Manager, e.Operation, string(e.FieldsV1))
	}
	// Unordered output:
	// true Apply failed with 1 conflict: conflict with "alice": .spec.color
	// blue 2
	// alice Apply {"f:spec":{"f:size":{}}}
	// bob Apply {"f:spec":{"f:color":{}}}
}
