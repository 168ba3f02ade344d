package kitchen

import (
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Group and Version of the restaurant's API, as a CRD would declare them.
const (
	Group   = "menu.example.com"
	Version = "v1"
)

// APIVersion is the apiVersion every kitchen object carries.
const APIVersion = Group + "/" + Version

// GroupVersion is [Group] at [Version].
var GroupVersion = meta.GroupVersion{Group: Group, Version: Version}

// The resources of the restaurant, as the REST API names them.
var (
	DishResource  = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "dishes"}
	OrderResource = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "orders"}
	CookResource  = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "cooks"}
)

// Dish is a recipe on the menu, like the Dish CRD of the restaurant story:
//
//	apiVersion: menu.example.com/v1
//	kind: Dish
//	metadata: {name: beef-wellington}
//	spec:
//	  ingredients: {filet-mignon: 500g, puff-pastry: 200g}
//	  cookingTime: 40m
//	  difficulty: 5
//
// Dishes are cluster-scoped: there is one menu for the whole restaurant,
// whichever dining room (namespace) the order comes from, just as a
// StorageClass serves every namespace.
type Dish struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            DishSpec `json:"spec"`
}

// DishSpec is the recipe: what goes in, how long it cooks, how hard it is.
type DishSpec struct {
	// Ingredients maps an ingredient to the quantity one portion needs,
	// e.g. "filet-mignon": "500g". See [Quantity] for the units.
	Ingredients map[string]Quantity `json:"ingredients"`
	// CookingTime is how long one portion takes, in kitchen time.
	CookingTime Duration `json:"cookingTime"`
	// Difficulty is 1 (toast) to 5 (Beef Wellington).
	Difficulty int `json:"difficulty"`
	// Station is where the dish is cooked ("grill", "oven", "pastry",
	// "cold"...); empty means [DefaultStation].
	Station string `json:"station,omitempty"`
}

// DeepCopyObject returns a copy of d that shares no memory with it.
func (d *Dish) DeepCopyObject() meta.Object {
	out := *d
	out.ObjectMeta = d.ObjectMeta.DeepCopy()
	out.Spec.Ingredients = maps.Clone(d.Spec.Ingredients)
	return &out
}

// Order is a table's order, the custom resource the waiter creates. It
// lives in a namespace (the dining room) and is the object the [Chef]
// reconciles.
type Order struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            OrderSpec   `json:"spec"`
	Status          OrderStatus `json:"status,omitzero"`
}

// OrderSpec is what the table asked for: the desired state.
type OrderSpec struct {
	// Table is the table number; selectable as the field "spec.table".
	Table int `json:"table"`
	// Section is where the table is ("vip", "terrace", "main"...);
	// selectable as the field "spec.section", as in the story's
	// spec.section=vip.
	Section string `json:"section,omitempty"`
	// Items are the dishes ordered, in the order the table gave them.
	Items []OrderItem `json:"items"`
	// Priority orders tickets on the rail: higher first. VIP tables get
	// a bonus on top, see [TicketPriority].
	Priority int `json:"priority,omitempty"`
}

// OrderItem is one line of an order.
type OrderItem struct {
	// Dish is the name of a [Dish] on the menu.
	Dish string `json:"dish"`
	// Quantity is how many portions, at least 1.
	Quantity int `json:"quantity"`
	// Extras are garnishes added on top, e.g. "black-truffle"; each is an
	// ingredient taken from the pantry in one [ExtraPortion].
	Extras []string `json:"extras,omitempty"`
}

// OrderPhase is where an order is in its life.
type OrderPhase string

// The phases of an order: Pending → Cooking → Ready → Served, or one of
// the two other ends, Rejected and Cancelled.
const (
	OrderPending   OrderPhase = "Pending"
	OrderCooking   OrderPhase = "Cooking"
	OrderReady     OrderPhase = "Ready"
	OrderServed    OrderPhase = "Served"
	OrderRejected  OrderPhase = "Rejected"
	OrderCancelled OrderPhase = "Cancelled"
)

// Final reports whether no further phase follows p.
func (p OrderPhase) Final() bool {
	return p == OrderServed || p == OrderRejected || p == OrderCancelled
}

// OrderStatus is what the chef has observed and done: the actual state.
type OrderStatus struct {
	// Phase summarises the order; see the OrderPhase constants.
	Phase OrderPhase `json:"phase,omitempty"`
	// ObservedGeneration is the metadata.generation of the spec this
	// status was computed from; when it lags, the chef has not yet seen
	// the latest amendment.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions say why: [ConditionAccepted], [ConditionStocked] and
	// [ConditionReady].
	Conditions []meta.Condition `json:"conditions,omitempty"`
	// Items reports progress per line of spec.items, in the same order.
	Items []ItemStatus `json:"items,omitempty"`
}

// ItemStatus is the progress of one [OrderItem].
type ItemStatus struct {
	// Dish repeats the item's dish, so a status can be read on its own.
	Dish string `json:"dish"`
	// Cook is the name of the [Cook] preparing the item.
	Cook string `json:"cook,omitempty"`
	// Phase is the cook's phase as last seen by the chef.
	Phase CookPhase `json:"phase,omitempty"`
}

// DeepCopyObject returns a copy of o that shares no memory with it.
func (o *Order) DeepCopyObject() meta.Object {
	out := *o
	out.ObjectMeta = o.ObjectMeta.DeepCopy()
	out.Spec = o.Spec.DeepCopy()
	out.Status.Conditions = slices.Clone(o.Status.Conditions)
	out.Status.Items = slices.Clone(o.Status.Items)
	return &out
}

// DeepCopy returns a copy of s that shares no memory with it.
func (s OrderSpec) DeepCopy() OrderSpec {
	out := s
	if s.Items != nil {
		out.Items = make([]OrderItem, len(s.Items))
		for i, it := range s.Items {
			it.Extras = slices.Clone(it.Extras)
			out.Items[i] = it
		}
	}
	return out
}

// Cook is one cook preparing one item of an order at a station: the
// restaurant's Pod. The [Chef] creates one per order item, with a
// controller owner reference to the [Order], so that deleting the order
// takes its cooks with it and a change to a cook wakes the chef up for
// its order.
type Cook struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            CookSpec   `json:"spec"`
	Status          CookStatus `json:"status,omitzero"`
}

// CookSpec is the cook's assignment.
type CookSpec struct {
	// Order is the name of the owning order (same namespace).
	Order string `json:"order"`
	// Item is the index of the line in the order's spec.items.
	Item int `json:"item"`
	// Dish and Quantity are copied from that line.
	Dish     string `json:"dish"`
	Quantity int    `json:"quantity"`
	// Extras are copied from that line; the chef may change them while
	// the cook works, which does not restart the cooking.
	Extras []string `json:"extras,omitempty"`
	// Station is where the dish is cooked.
	Station string `json:"station"`
	// CookingTime is copied from the dish, so that the cook needs nothing
	// but its own spec, as a Pod does.
	CookingTime Duration `json:"cookingTime"`
}

// CookPhase is where a cook is in its work, like a Pod's phase.
type CookPhase string

// The phases of a cook: Waiting for a free place at the station, Cooking,
// then Done; or Stopped when the work was called off.
const (
	CookWaiting CookPhase = "Waiting"
	CookCooking CookPhase = "Cooking"
	CookDone    CookPhase = "Done"
	CookStopped CookPhase = "Stopped"
)

// CookStatus is the cook's own report, written by the [Brigade] like a
// kubelet writes a Pod's status.
type CookStatus struct {
	Phase CookPhase `json:"phase,omitempty"`
	// Message says what the cook is doing, for people.
	Message string `json:"message,omitempty"`
}

// DeepCopyObject returns a copy of c that shares no memory with it.
func (c *Cook) DeepCopyObject() meta.Object {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.Spec.Extras = slices.Clone(c.Spec.Extras)
	return &out
}
