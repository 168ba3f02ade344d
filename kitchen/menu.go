package kitchen

import (
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// DefaultStation is where a dish without a station is cooked.
const DefaultStation = "stove"

// ExtraPortion is how much of an extra one item takes: extras are
// garnishes, grated or shaved on top.
var ExtraPortion = map[string]Quantity{
	"black-truffle": "10g",
	"parmesan":      "20g",
	"chili":         "5g",
}

// DefaultStations are the places of a small brigade's kitchen.
func DefaultStations() map[string]int {
	return map[string]int{"oven": 2, "stove": 3, "grill": 2, "pastry": 1, "cold": 2}
}

// dish builds a menu entry.
func dish(name, station string, minutes, difficulty int, ingredients map[string]Quantity) *Dish {
	return &Dish{
		TypeMeta:   meta.TypeMeta{APIVersion: APIVersion, Kind: "Dish"},
		ObjectMeta: meta.ObjectMeta{Name: name},
		Spec: DishSpec{Ingredients: ingredients, CookingTime: Duration{time.Duration(minutes) * time.Minute},
			Difficulty: difficulty, Station: station},
	}
}

// DefaultMenu returns the restaurant's menu: the story's Beef Wellington
// and seafood pasta, the cake shop's chocolate cake, and a few more.
func DefaultMenu() []*Dish {
	return []*Dish{
		dish("beef-wellington", "oven", 40, 5, map[string]Quantity{"filet-mignon": "500g", "puff-pastry": "200g", "mushroom": "150g"}),
		dish("seafood-pasta", "stove", 15, 3, map[string]Quantity{"spaghetti": "200g", "prawn": "150g", "cream": "100ml"}),
		dish("chocolate-cake", "pastry", 30, 4, map[string]Quantity{"flour": "300g", "chocolate": "200g", "egg": "4", "cream": "200ml"}),
		dish("caesar-salad", "cold", 5, 1, map[string]Quantity{"lettuce": "200g", "parmesan": "30g", "egg": "1"}),
		dish("tomato-soup", "stove", 20, 2, map[string]Quantity{"tomato": "400g", "cream": "50ml"}),
		dish("grilled-salmon", "grill", 12, 2, map[string]Quantity{"salmon": "250g", "lemon": "1"}),
	}
}

// DefaultPantry returns an opening stock that serves a dinner of about
// forty orders.
func DefaultPantry() map[string]Quantity {
	return map[string]Quantity{
		"filet-mignon": "10kg", "puff-pastry": "4kg", "mushroom": "3kg",
		"spaghetti": "4kg", "prawn": "3kg", "cream": "8l",
		"flour": "6kg", "chocolate": "4kg", "egg": "120",
		"lettuce": "4kg", "parmesan": "2kg", "tomato": "8kg", "salmon": "5kg", "lemon": "40",
		"black-truffle": "500g", "chili": "200g",
	}
}

// Need returns what one item takes from the pantry: the dish's
// ingredients times the quantity, plus one [ExtraPortion] per extra per
// portion. It fails on a malformed quantity or an unknown extra.
func Need(d *Dish, item OrderItem) (map[string]Amount, error) {
	need := map[string]Amount{}
	add := func(name string, q Quantity, n int) error {
		a, err := ParseQuantity(q)
		if err != nil {
			return err
		}
		prev := need[name]
		need[name] = Amount{Value: prev.Value + a.Value*int64(n), Unit: a.Unit}
		return nil
	}
	for name, q := range d.Spec.Ingredients {
		if err := add(name, q, item.Quantity); err != nil {
			return nil, err
		}
	}
	for _, x := range item.Extras {
		q, ok := ExtraPortion[x]
		if !ok {
			return nil, &UnknownExtraError{Extra: x}
		}
		if err := add(x, q, item.Quantity); err != nil {
			return nil, err
		}
	}
	return need, nil
}

// UnknownExtraError says an order asked for an extra the kitchen does not
// offer.
type UnknownExtraError struct{ Extra string }

// Error says which extra is unknown.
func (e *UnknownExtraError) Error() string {
	return "the kitchen offers no extra " + e.Extra
}
