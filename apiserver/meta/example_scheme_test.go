package meta_test

import (
	"errors"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Dish is a kind: TypeMeta and ObjectMeta embedded, desired state in Spec,
// and a hand-written deep copy.
type Dish struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            DishSpec `json:"spec"`
}

// DishSpec is what the menu says about a dish.
type DishSpec struct {
	Station string `json:"station"`
}

// DeepCopyObject returns a copy of d that shares no memory with it.
func (d *Dish) DeepCopyObject() meta.Object {
	c := *d
	c.ObjectMeta = d.ObjectMeta.DeepCopy()
	return &c
}

// Register a kind once, with its names, its Go type and its extra field
// selectors; the scheme then finds it by any of them.
func ExampleScheme_Register() {
	scheme := meta.NewScheme()
	err := scheme.Register(meta.KindInfo{
		Group: "menu.example.com", Version: "v1", Kind: "Dish", Resource: "dishes",
		New: func() meta.Object { return &Dish{} },
		Fields: map[string]meta.FieldFunc{
			"spec.station": func(obj meta.Object) string { return obj.(*Dish).Spec.Station },
		},
	})
	fmt.Println("registered:", err)

	info, _ := scheme.KindFor(&Dish{})
	fmt.Println(info.GroupVersionResource(), "namespaced:", info.Namespaced)
	fmt.Println("fields:", info.SupportedFields())

	obj, _ := scheme.NewObject(info.GroupVersionKind())
	fmt.Printf("%T %+v\n", obj, obj.GetTypeMeta())

	// A body whose kind disagrees with its Go type is refused, by name.
	_, err = scheme.KindFor(&Dish{TypeMeta: meta.TypeMeta{Kind: "Order"}})
	fmt.Println(err)

	// A bad registration is refused whole, with one cause per wrong field:
	// here an uppercase resource and a Go type that is already taken.
	err = scheme.Register(meta.KindInfo{Version: "v1", Kind: "Plate", Resource: "Plates",
		New: func() meta.Object { return &Dish{} }})
	var se *meta.StatusError
	if errors.As(err, &se) {
		for _, cause := range se.ErrStatus.Details.Causes {
			fmt.Println("invalid:", cause.Field)
		}
	}
	// Output:
	// registered: <nil>
	// menu.example.com/v1, Resource=dishes namespaced: false
	// fields: [metadata.name metadata.namespace spec.station]
	// *meta_test.Dish &{APIVersion:menu.example.com/v1 Kind:Dish}
	// Order.menu.example.com "" is invalid: kind: Invalid value: "Order": must be Dish
	// invalid: Resource
	// invalid: New
}
