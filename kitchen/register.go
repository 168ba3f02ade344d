package kitchen

import (
	"strconv"

	"github.com/kitchensync/kitchensync/apiserver"
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
func Kinds() []apiserver.KindInfo {
	return []apiserver.KindInfo{
		{
			Group: Group, Version: Version, Kind: "Dish", Resource: DishResource.Resource,
			New:      func() apiserver.Object { return &Dish{} },
			Validate: apiserver.ValidateAs(dishSpecErrors),
		},
		{
			Group: Group, Version: Version, Kind: "Order", Resource: OrderResource.Resource, Namespaced: true,
			New:      func() apiserver.Object { return &Order{} },
			Validate: apiserver.ValidateAs(orderSpecErrors),
			Fields: map[string]apiserver.FieldFunc{
				FieldSection: func(obj apiserver.Object) string { return obj.(*Order).Spec.Section },
				FieldTable:   func(obj apiserver.Object) string { return strconv.Itoa(obj.(*Order).Spec.Table) },
				FieldPhase:   func(obj apiserver.Object) string { return string(obj.(*Order).Status.Phase) },
			},
		},
		{
			Group: Group, Version: Version, Kind: "Cook", Resource: CookResource.Resource, Namespaced: true,
			New:      func() apiserver.Object { return &Cook{} },
			Validate: apiserver.ValidateAs(cookSpecErrors),
			Fields: map[string]apiserver.FieldFunc{
				"spec.order":   func(obj apiserver.Object) string { return obj.(*Cook).Spec.Order },
				"spec.station": func(obj apiserver.Object) string { return obj.(*Cook).Spec.Station },
			},
		},
	}
}

// Register adds the restaurant's kinds to scheme, like a generated
// AddToScheme. It stops at the first kind the scheme refuses (for
// instance because it is already registered) and returns that error.
func Register(scheme *apiserver.Scheme) error {
	return scheme.Register(Kinds()...)
}

// NewScheme returns a scheme holding the restaurant's kinds.
func NewScheme() *apiserver.Scheme {
	s := apiserver.NewScheme()
	if err := Register(s); err != nil {
		// Kinds() is fixed and valid, and s is new: this cannot happen.
		panic("kitchen: registering the restaurant's kinds: " + err.Error())
	}
	return s
}
