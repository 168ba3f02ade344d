package kitchen

import (
	"strconv"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The field selectors orders support beyond metadata.name and
// metadata.namespace, as a CRD declares selectableFields. Each is also a
// column of `kubectl get orders`, so that `kubectl get orders -w` shows
// the phase move.
const (
	FieldSection = "spec.section"
	FieldTable   = "spec.table"
	FieldPhase   = "status.phase"
)

// Kinds returns the restaurant's kinds as the scheme registers them:
// Dish (cluster-scoped), Order and Cook (namespaced). Each carries its
// spec rules as its Validate hook, as a CRD carries its OpenAPI schema:
// the API server refuses a write that breaks one with 422 Invalid, however
// the write was made (the [Waiter] checks the same rules before it asks).
func Kinds() []meta.KindInfo {
	return []meta.KindInfo{
		{
			Group: Group, Version: Version, Kind: "Dish", Resource: DishResource.Resource,
			New:      func() meta.Object { return &Dish{} },
			Validate: meta.ValidateAs(dishSpecErrors),
		},
		{
			Group: Group, Version: Version, Kind: "Order", Resource: OrderResource.Resource, Namespaced: true,
			New:      func() meta.Object { return &Order{} },
			Validate: meta.ValidateAs(orderSpecErrors),
			Fields: map[string]meta.FieldFunc{
				FieldSection: func(obj meta.Object) string { return obj.(*Order).Spec.Section },
				FieldTable:   func(obj meta.Object) string { return strconv.Itoa(obj.(*Order).Spec.Table) },
				FieldPhase:   func(obj meta.Object) string { return string(obj.(*Order).Status.Phase) },
			},
		},
		{
			Group: Group, Version: Version, Kind: "Cook", Resource: CookResource.Resource, Namespaced: true,
			New:      func() meta.Object { return &Cook{} },
			Validate: meta.ValidateAs(cookSpecErrors),
			Fields: map[string]meta.FieldFunc{
				"spec.order":   func(obj meta.Object) string { return obj.(*Cook).Spec.Order },
				"spec.station": func(obj meta.Object) string { return obj.(*Cook).Spec.Station },
			},
		},
	}
}

// Register adds the restaurant's kinds to scheme, like a generated
// AddToScheme. It stops at the first kind the scheme refuses (for
// instance because it is already registered) and returns that error.
func Register(scheme *meta.Scheme) error {
	return scheme.Register(Kinds()...)
}

// NewScheme returns a scheme holding the restaurant's kinds.
func NewScheme() *meta.Scheme {
	s := meta.NewScheme()
	if err := Register(s); err != nil {
		// Kinds() is fixed and valid, and s is new: this cannot happen.
		panic("kitchen: registering the restaurant's kinds: " + err.Error())
	}
	return s
}
