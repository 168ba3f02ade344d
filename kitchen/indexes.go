package kitchen

import (
	"strconv"

	"github.com/kitchensync/kitchensync/store"
)

// The names of the runner's indexes on orders: the runner remembers the
// open orders by table and by section, so that "what does table 7 have?"
// and "what is open in the VIP room?" need no trip to the front desk.
const (
	OrderTableIndex   = "table"
	OrderSectionIndex = "section"
)

// OrderIndexers returns the indexes of the orders cache: by table and by
// section. (An informer adds the namespace index itself.)
func OrderIndexers() store.Indexers[*Order] {
	return store.Indexers[*Order]{
		OrderTableIndex:   func(o *Order) ([]string, error) { return []string{strconv.Itoa(o.Spec.Table)}, nil },
		OrderSectionIndex: func(o *Order) ([]string, error) { return []string{sectionName(o.Spec.Section)}, nil },
	}
}

// CookIndexers returns the indexes of the cooks cache: by owning order,
// as "namespace/order" ([CookOrderIndex]).
func CookIndexers() store.Indexers[*Cook] {
	return store.Indexers[*Cook]{
		CookOrderIndex: func(c *Cook) ([]string, error) { return []string{c.Namespace + "/" + c.Spec.Order}, nil },
	}
}
