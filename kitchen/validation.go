package kitchen

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// GroupKinds for the Invalid errors of validation.
var (
	dishGK  = meta.GroupKind{Group: Group, Kind: "Dish"}
	orderGK = meta.GroupKind{Group: Group, Kind: "Order"}
)

// The rules live in one place each: the functions below return what is
// wrong with a spec, one cause per problem. The API server runs them on
// every write (see [Kinds]: each kind's Validate, as a CRD's schema), and
// [ValidateOrder] and [ValidateDish] run them client side, as kubectl's
// dry run would, adding the name check the server does for every kind.

// ValidateDish checks a recipe and returns a 422 Invalid error naming
// every wrong field, or nil: a valid name, at least one ingredient, each
// quantity a valid positive [Quantity], a positive cooking time,
// difficulty 1–5. The API server refuses the same recipes.
func ValidateDish(d *Dish) error {
	if d == nil {
		return meta.NewBadRequest("no dish given")
	}
	errs := meta.ValidateName("metadata.name", d.Name)
	errs = append(errs, dishSpecErrors(d)...)
	return errs.ToError(dishGK, d.Name)
}

// ValidateOrder checks an order on its own (not against the menu: a dish
// that is not on the menu is the chef's business, who rejects the order
// with a reason) and returns a 422 Invalid error naming every wrong field,
// or nil: a valid name (or a generateName), a table ≥ 1, at least one
// item, each with a dish name and a quantity ≥ 1, extras that are
// ingredient names. The API server refuses the same orders.
func ValidateOrder(o *Order) error {
	if o == nil {
		return meta.NewBadRequest("no order given")
	}
	var errs meta.FieldErrors
	if o.Name != "" || o.GenerateName == "" {
		errs = meta.ValidateName("metadata.name", o.Name)
	}
	errs = append(errs, orderSpecErrors(o)...)
	return errs.ToError(orderGK, o.Name)
}

// dishSpecErrors returns what is wrong with a dish's spec.
func dishSpecErrors(d *Dish) meta.FieldErrors {
	var errs meta.FieldErrors
	if len(d.Spec.Ingredients) == 0 {
		errs.Required("spec.ingredients", "a dish needs at least one ingredient")
	}
	for _, name := range slices.Sorted(maps.Keys(d.Spec.Ingredients)) {
		field := "spec.ingredients[" + name + "]"
		if msgs := meta.IsDNS1123Label(name); len(msgs) > 0 {
			errs.Invalid(field, name, "an ingredient name is a lowercase word such as filet-mignon")
			continue
		}
		a, err := ParseQuantity(d.Spec.Ingredients[name])
		if err != nil {
			errs.Invalid(field, string(d.Spec.Ingredients[name]), err.Error())
		} else if a.Value <= 0 {
			errs.Invalid(field, string(d.Spec.Ingredients[name]), "must be more than nothing")
		}
	}
	if d.Spec.CookingTime.Duration <= 0 {
		errs.Invalid("spec.cookingTime", d.Spec.CookingTime.String(), "must be positive, e.g. 40m")
	}
	if d.Spec.Difficulty < 1 || d.Spec.Difficulty > 5 {
		errs.Invalid("spec.difficulty", d.Spec.Difficulty, "must be between 1 and 5")
	}
	return errs
}

// orderSpecErrors returns what is wrong with an order's spec.
func orderSpecErrors(o *Order) meta.FieldErrors {
	var errs meta.FieldErrors
	if o.Spec.Table < 1 {
		errs.Invalid("spec.table", o.Spec.Table, "tables are numbered from 1")
	}
	if o.Spec.Section != "" && len(meta.IsDNS1123Label(o.Spec.Section)) > 0 {
		errs.Invalid("spec.section", o.Spec.Section, "a section is a lowercase word such as vip or terrace")
	}
	if len(o.Spec.Items) == 0 {
		errs.Required("spec.items", "an order needs at least one item")
	}
	for i, it := range o.Spec.Items {
		errs = append(errs, itemErrors(fmt.Sprintf("spec.items[%d]", i), it.Dish, it.Quantity, it.Extras)...)
	}
	return errs
}

// itemErrors checks one line of an order, or the copy of it a cook
// carries, found at field.
func itemErrors(field, dish string, quantity int, extras []string) meta.FieldErrors {
	var errs meta.FieldErrors
	if dish == "" {
		errs.Required(field+".dish", "")
	}
	if quantity < 1 {
		errs.Invalid(field+".quantity", quantity, "must be at least 1")
	}
	for j, x := range extras {
		if len(meta.IsDNS1123Label(x)) > 0 {
			errs.Invalid(fmt.Sprintf("%s.extras[%d]", field, j), x, "an extra is an ingredient name such as black-truffle")
		}
	}
	return errs
}

// cookSpecErrors returns what is wrong with a cook's spec: the chef fills
// it from an order and a dish, so these only catch a broken controller
// (or a hand-written cook), as a Pod's validation does.
func cookSpecErrors(c *Cook) meta.FieldErrors {
	var errs meta.FieldErrors
	if c.Spec.Order == "" {
		errs.Required("spec.order", "the order this cook works for")
	}
	if c.Spec.Item < 0 {
		errs.Invalid("spec.item", c.Spec.Item, "an index into the order's spec.items")
	}
	errs = append(errs, itemErrors("spec", c.Spec.Dish, c.Spec.Quantity, c.Spec.Extras)...)
	if c.Spec.Station == "" {
		errs.Required("spec.station", "where the dish is cooked")
	}
	if c.Spec.CookingTime.Duration <= 0 {
		errs.Invalid("spec.cookingTime", c.Spec.CookingTime.String(), "must be positive, e.g. 40m")
	}
	return errs
}
