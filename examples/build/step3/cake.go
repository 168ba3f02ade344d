// Package cake is a controller of your own, built in the tour's "Build
// one yourself" part one step at a time (examples/build/step1 to step8):
// Cakes are ordered through the API, and a baker keeps the oven, a box
// and each cake's status in step with them.
//
// Step 3 of 8: a typed informer and its lister: the cache fills.
package cake

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/trace"
)

// Cake is a cake ordered from the shop: what the customer wants.
type Cake struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            CakeSpec `json:"spec"`
}

// CakeSpec is what the customer asks for.
type CakeSpec struct {
	Flavor  string `json:"flavor"`
	Message string `json:"message,omitempty"` // for the box's lid
}

// DeepCopyObject returns a copy that shares no memory with c.
func (c *Cake) DeepCopyObject() meta.Object {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	return &out
}

// The shop's kinds, as CRDs declare them to a cluster: their names, their
// scope, how to make an empty one, their schema.
var (
	CakeKind = meta.KindInfo{Group: "shop.example.com", Version: "v1", Kind: "Cake", Resource: "cakes",
		Namespaced: true, New: func() meta.Object { return &Cake{} }, Validate: meta.ValidateAs(validate)}
)

// Register adds the shop's kinds to scheme, as installing their CRDs adds
// them to a cluster.
func Register(scheme *meta.Scheme) error {
	return scheme.Register(CakeKind)
}

// validate is the kind's schema: every cake needs a flavor.
func validate(c *Cake) meta.FieldErrors {
	var errs meta.FieldErrors
	if c.Spec.Flavor == "" {
		errs.Required("spec.flavor", "what kind of cake?")
	}
	return errs
}

// NewCake returns a cake to create in namespace ns.
func NewCake(ns, name, flavor, message string) *Cake {
	return &Cake{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name},
		Spec: CakeSpec{Flavor: flavor, Message: message}}
}

// Shop is what the baker knows of the API: an informer per kind, from
// one factory, each with its cache (the lister).
type Shop struct {
	factory *informer.SharedInformerFactory
	Cakes   *informer.SharedIndexInformer[*Cake]
}

// NewShop makes the informers over api, in process or over HTTP; tracer,
// if not nil, hears what they do (package trace).
func NewShop(api client.Interface, tracer *trace.Tracer) *Shop {
	f := informer.NewSharedInformerFactory(api, 0, informer.WithTracer(tracer))
	return &Shop{factory: f, Cakes: informer.InformerFor[*Cake](f)}
}

// Start lists and watches until ctx ends; it returns once the caches hold
// what the server had (false if ctx ended first).
func (s *Shop) Start(ctx context.Context) bool {
	s.factory.Start(ctx)
	return informer.WaitForCacheSync(ctx, s.Cakes)
}
