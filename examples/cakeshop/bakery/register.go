package bakery

import (
	"github.com/kitchensync/kitchensync/apiserver"
)

// FieldFlavor is the extra field selector cakes support, as a CRD declares
// selectableFields.
const FieldFlavor = "spec.flavor"

// Kinds returns the cake shop's kinds as a scheme registers them — the
// CustomResourceDefinitions of the shop: Cake, BakerPool, Baker and Bake,
// in that order, all namespaced. Each carries its spec rules as its Validate
// hook, as a CRD carries its OpenAPI schema: the API server refuses a
// write that breaks one with 422 Invalid, however the write was made
// (the [OrderDesk] checks a cake's rules before it asks, with
// [ValidateCake]).
func Kinds() []apiserver.KindInfo {
	return []apiserver.KindInfo{
		{
			Group: Group, Version: Version, Kind: "Cake", Resource: CakeResource.Resource, Namespaced: true,
			New:      func() apiserver.Object { return &Cake{} },
			Validate: apiserver.ValidateAs(cakeSpecErrors),
			Fields: map[string]apiserver.FieldFunc{
				FieldFlavor: func(obj apiserver.Object) string { return obj.(*Cake).Spec.Flavor },
			},
		},
		{
			Group: Group, Version: Version, Kind: "BakerPool", Resource: BakerPoolResource.Resource, Namespaced: true,
			New:      func() apiserver.Object { return &BakerPool{} },
			Validate: apiserver.ValidateAs(bakerPoolSpecErrors),
		},
		{
			Group: Group, Version: Version, Kind: "Baker", Resource: BakerResource.Resource, Namespaced: true,
			New:      func() apiserver.Object { return &Baker{} },
			Validate: apiserver.ValidateAs(bakerSpecErrors),
		},
		{
			Group: Group, Version: Version, Kind: "Bake", Resource: BakeResource.Resource, Namespaced: true,
			New:      func() apiserver.Object { return &Bake{} },
			Validate: apiserver.ValidateAs(bakeSpecErrors),
		},
	}
}

// Register adds the cake shop's kinds to scheme, like a generated
// AddToScheme, and returns the first error.
func Register(scheme *apiserver.Scheme) error {
	return scheme.Register(Kinds()...)
}

// NewServer returns an in-memory API server that serves the cake shop's
// kinds: one "cluster".
func NewServer() *apiserver.Server {
	s := apiserver.NewScheme()
	if err := Register(s); err != nil {
		// Kinds() is fixed and s is new: this cannot happen.
		panic("bakery: registering the kinds: " + err.Error())
	}
	return apiserver.NewServer(s, apiserver.Options{})
}
