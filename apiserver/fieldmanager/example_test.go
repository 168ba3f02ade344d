package fieldmanager_test

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Alice applies a colour and a size; Bob applies a different colour and is
// refused, because Alice owns it; forced, he takes the colour and Alice
// keeps the size.
func ExampleApply() {
	info := apiservertest.WidgetKind()
	alice := `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"color":"red","size":2}}`
	bob := `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"color":"blue"}}`

	var one fieldmanager.Versions // the kind is served in its own version only
	aliceW, bobW := fieldmanager.Writer{Manager: "alice"}, fieldmanager.Writer{Manager: "bob"}

	live, err := fieldmanager.Apply(info, one, nil, "ns", "w", []byte(alice), aliceW, false)
	fmt.Println("alice:", err)
	_, err = fieldmanager.Apply(info, one, live, "ns", "w", []byte(bob), bobW, false)
	fmt.Println("bob:", err, meta.IsConflict(err))
	next, err := fieldmanager.Apply(info, one, live, "ns", "w", []byte(bob), bobW, true)
	w := next.(*apiservertest.Widget)
	fmt.Println("bob, forced:", err, w.Spec.Color, w.Spec.Size)
	for _, mf := range w.ManagedFields {
		fmt.Printf("  %s %s %s\n", mf.Manager, mf.Operation, mf.FieldsV1)
	}
	// Output:
	// alice: <nil>
	// bob: Apply failed with 1 conflict: conflict with "alice": .spec.color true
	// bob, forced: <nil> blue 2
	//   alice Apply {"f:spec":{"f:size":{}}}
	//   bob Apply {"f:spec":{"f:color":{}}}
}
