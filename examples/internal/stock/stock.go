package stock

import (
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/kitchen"
)

// Plentiful is the default pantry times 200: it lasts through many rush
// hours.
func Plentiful() map[string]kitchen.Quantity { return Times(200) }

// Times is the default pantry times k. The default pantry serves about
// 120 orders of one dish each, the menu's dishes in turn.
func Times(k int) map[string]kitchen.Quantity {
	stock := kitchen.DefaultPantry()
	for _, name := range slices.Sorted(maps.Keys(stock)) {
		if a, err := kitchen.ParseQuantity(stock[name]); err == nil {
			stock[name] = kitchen.Quantity(a.Times(k).String())
		}
	}
	return stock
}
