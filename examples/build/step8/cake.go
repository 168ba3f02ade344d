// Package cake is a controller of your own, built in the tour's "Build
// one yourself" part one step at a time (examples/build/step1 to step8):
// Cakes are ordered through the API, and a baker keeps the oven, a box
// and each cake's status in step with them.
//
// Step 8 of 8: what converged means, for a test under faults.
package cake

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/trace"
)

// Cake is a cake ordered from the shop: what the customer wants (Spec)
// and what the shop has done about it (Status).
type Cake struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            CakeSpec   `json:"spec"`
	Status          CakeStatus `json:"status,omitzero"`
}

// CakeSpec is what the customer asks for.
type CakeSpec struct {
	Flavor  string `json:"flavor"`
	Message string `json:"message,omitempty"` // for the box's lid
}

// CakeStatus is what the baker reports.
type CakeStatus struct {
	ObservedGeneration int64            `json:"observedGeneration,omitempty"`
	Conditions         []meta.Condition `json:"conditions,omitempty"`
}

// DeepCopyObject returns a copy that shares no memory with c.
func (c *Cake) DeepCopyObject() meta.Object {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.Status.Conditions = slices.Clone(c.Status.Conditions)
	return &out
}

// Box carries a cake out of the shop, with its message on the lid, as a
// ConfigMap carries data. The baker makes one per cake, owned by the cake.
type Box struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Message         string `json:"message,omitempty"`
}

// DeepCopyObject returns a copy that shares no memory with b.
func (b *Box) DeepCopyObject() meta.Object {
	out := *b
	out.ObjectMeta = b.ObjectMeta.DeepCopy()
	return &out
}

// The shop's kinds, as CRDs declare them to a cluster: their names, their
// scope, how to make an empty one, their schema.
var (
	CakeKind = meta.KindInfo{Group: "shop.example.com", Version: "v1", Kind: "Cake", Resource: "cakes",
		Namespaced: true, New: func() meta.Object { return &Cake{} }, Validate: meta.ValidateAs(validate)}
	BoxKind = meta.KindInfo{Group: "shop.example.com", Version: "v1", Kind: "Box", Resource: "boxes",
		Namespaced: true, New: func() meta.Object { return &Box{} }}
)

// Register adds the shop's kinds to scheme, as installing their CRDs adds
// them to a cluster.
func Register(scheme *meta.Scheme) error {
	return errors.Join(scheme.Register(CakeKind), scheme.Register(BoxKind))
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
	Boxes   *informer.SharedIndexInformer[*Box]
}

// NewShop makes the informers over api, in process or over HTTP; tracer,
// if not nil, hears what they do (package trace).
func NewShop(api client.Interface, tracer *trace.Tracer) *Shop {
	f := informer.NewSharedInformerFactory(api, 0, informer.WithTracer(tracer))
	return &Shop{factory: f, Cakes: informer.InformerFor[*Cake](f), Boxes: informer.InformerFor[*Box](f)}
}

// Start lists and watches until ctx ends; it returns once the caches hold
// what the server had (false if ctx ended first).
func (s *Shop) Start(ctx context.Context) bool {
	s.factory.Start(ctx)
	return informer.WaitForCacheSync(ctx, s.Cakes, s.Boxes)
}

// Oven is the world outside the API: the flavor baking for each cake, by
// key ("namespace/name").
type Oven struct{ sync.Map }

// Baker is the reconciler of cakes. It reads the shop's caches, never
// the event that woke it, and keeps the world in step with each cake.
type Baker struct {
	Shop *Shop
	API  client.Interface // for the baker's writes
	Oven *Oven
}

// Finalizer holds a deleted cake until the baker has freed its oven.
const Finalizer = "shop.example.com/oven"

// Reconcile brings the world in line with one cake.
func (b *Baker) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cake, err := b.Shop.Cakes.Lister().Namespace(req.Namespace).Get(req.Name)
	if meta.IsNotFound(err) {
		return reconcile.Result{}, nil // gone; the finalizer saw to the oven
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	cake = meta.DeepCopy(cake) // the cache's copy is every reader's: change only yours
	cakes := client.New[*Cake](b.API).Namespace(req.Namespace)
	if cake.DeletionTimestamp != nil {
		b.Oven.Delete(req.String())
		if reconcile.RemoveFinalizer(cake, Finalizer) {
			_, err = cakes.Update(ctx, cake, meta.UpdateOptions{})
		}
		return reconcile.Result{}, err
	}
	if !reconcile.ContainsFinalizer(cake, Finalizer) {
		reconcile.AddFinalizer(cake, Finalizer)
		if cake, err = cakes.Update(ctx, cake, meta.UpdateOptions{}); err != nil {
			return reconcile.Result{}, err
		}
	}
	b.Oven.Store(req.String(), cake.Spec.Flavor)
	if err := b.ensureBox(ctx, cake); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, b.setReady(ctx, cake)
}

// ensureBox gives the cake its box, owned by the cake, so that the API
// server's garbage collector deletes the box with the cake.
func (b *Baker) ensureBox(ctx context.Context, cake *Cake) error {
	_, err := b.Shop.Boxes.Lister().Namespace(cake.Namespace).Get(cake.Name)
	if !meta.IsNotFound(err) {
		return err // there already (or the cache failed)
	}
	box := &Box{ObjectMeta: meta.ObjectMeta{Name: cake.Name, OwnerReferences: []meta.OwnerReference{meta.NewControllerRef(cake)}},
		Message: cake.Spec.Message}
	_, err = client.New[*Box](b.API).Namespace(cake.Namespace).Create(ctx, box, meta.CreateOptions{})
	if meta.IsAlreadyExists(err) {
		return nil // made by an earlier reconcile, which our cache has not seen yet
	}
	return err
}

// setReady reports, through the status subresource, that the cake of
// this generation is in the oven and boxed.
func (b *Baker) setReady(ctx context.Context, cake *Cake) error {
	if cake.Status.ObservedGeneration == cake.Generation && meta.IsStatusConditionTrue(cake.Status.Conditions, "Ready") {
		return nil // said already: write nothing
	}
	cake.Status.ObservedGeneration = cake.Generation
	meta.SetStatusCondition(&cake.Status.Conditions, meta.Condition{Type: "Ready", Status: meta.ConditionTrue,
		ObservedGeneration: cake.Generation, Reason: "Boxed", Message: "in the oven, and its box is ready"})
	_, err := client.New[*Cake](b.API).Namespace(cake.Namespace).UpdateStatus(ctx, cake, meta.UpdateOptions{})
	return err
}

// Run runs the baker over api until ctx ends, wired as any controller,
// once the shop's caches are filled. tracer, if not nil, hears every
// hand-off.
func Run(ctx context.Context, api client.Interface, oven *Oven, tracer *trace.Tracer) error {
	shop := NewShop(api, tracer)
	ctrl, err := reconcile.NewController("baker", &Baker{Shop: shop, API: api, Oven: oven}, reconcile.Options{Tracer: tracer})
	if err == nil {
		err = reconcile.For(ctrl, shop.Cakes) // it reconciles cakes
	}
	if err == nil {
		err = reconcile.Owns(ctrl, shop.Boxes, CakeKind) // and hears of the boxes a cake owns
	}
	if err != nil || !shop.Start(ctx) {
		return errors.Join(err, ctx.Err())
	}
	return ctrl.Start(ctx)
}

// Converged says how the world differs from the cakes, or nil: every cake
// has its box, a status for its generation, and its flavor in the oven;
// the oven bakes nothing else.
func Converged(ctx context.Context, api client.Interface, oven *Oven) error {
	cakes, _, err := client.New[*Cake](api).List(ctx, meta.ListOptions{})
	if err != nil {
		return err
	}
	var errs []error
	want := map[string]bool{}
	for _, c := range cakes {
		key := c.Namespace + "/" + c.Name
		want[key] = true
		_, err := client.New[*Box](api).Namespace(c.Namespace).Get(ctx, c.Name, meta.GetOptions{})
		if flavor, _ := oven.Load(key); err != nil || flavor != c.Spec.Flavor || c.Status.ObservedGeneration != c.Generation {
			errs = append(errs, fmt.Errorf("cake %s is not done (box: %v, oven: %v, status: %+v)", key, err, flavor, c.Status))
		}
	}
	oven.Range(func(key, _ any) bool {
		if !want[key.(string)] {
			errs = append(errs, fmt.Errorf("the oven still bakes %s", key))
		}
		return true
	})
	return errors.Join(errs...)
}
