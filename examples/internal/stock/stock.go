package stock

import (
	"maps"
	"slices"

	"github.com/kitchensync/kitchensync/kitchen"
)

// Plentiful is the default pantry times 200: it lasts through many rush
// hours.
func Plentiful() map[string]kitchen.Quantity {
	stock := kitchen.DefaultPantry()
	for _, name := range slices.Sorted(maps.Keys(stock)) {
		if a, err := kitchen.ParseQuantity(stock[name]); err == nil {
			stock[name] = kitchen.Quantity(a.Times(200).String())
		}
	}
	return stock
}
