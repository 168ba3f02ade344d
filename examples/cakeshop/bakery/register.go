package bakery

import (
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
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
func Kinds() []meta.KindInfo {
	return []meta.KindInfo{
		{
			Group: Group, Version: Version, Kind: "Cake", Resource: CakeResource.Resource, Namespaced: true,
			New:      func() meta.Object { return &Cake{} },
			Validate: meta.ValidateAs(cakeSpecErrors),
			Fields: map[string]meta.FieldFunc{
				FieldFlavor: func(obj meta.Object) string { return obj.(*Cake).Spec.Flavor },
			},
		},
		{
			Group: Group, Version: Version, Kind: "BakerPool", Resource: BakerPoolResource.Resource, Namespaced: true,
			New:      func() meta.Object { return &BakerPool{} },
			Validate: meta.ValidateAs(bakerPoolSpecErrors),
		},
		{
			Group: Group, Version: Version, Kind: "Baker", Resource: BakerResource.Resource, Namespaced: true,
			New:      func() meta.Object { return &Baker{} },
			Validate: meta.ValidateAs(bakerSpecErrors),
		},
		{
			Group: Group, Version: Version, Kind: "Bake", Resource: BakeResource.Resource, Namespaced: true,
			New:      func() meta.Object { return &Bake{} },
			Validate: meta.ValidateAs(bakeSpecErrors),
		},
	}
}

// Register adds the cake shop's kinds to scheme, like a generated
// AddToScheme, and returns the first error.
func Register(scheme *meta.Scheme) error {
	return scheme.Register(Kinds()...)
}

// NewServer returns an in-memory API server that serves the cake shop's
// kinds: one "cluster".
func NewServer() *apiserver.Server {
	s := meta.NewScheme()
	if err := Register(s); err != nil {
		// Kinds() is fixed and s is new: this cannot happen.
		panic("bakery: registering the kinds: " + err.Error())
	}
	return apiserver.NewServer(s, apiserver.Options{})
}
