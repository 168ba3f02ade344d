package bakery

import (
	"slices"
	"sync"
)

// Till keeps the deposits: taken when an order is placed, refunded when it
// is cancelled — exactly once, however many times the baker's cleanup runs.
// The zero value is ready to use; it is safe for concurrent use.
type Till struct {
	mu       sync.Mutex     // guards the maps
	deposits map[string]int // by order UID
	keys     map[string]string
	refunds  map[string]int // how many times each UID was refunded (at most 1)
}

// TakeDeposit records the deposit of a newly placed order.
func (t *Till) TakeDeposit(c *Cake) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.deposits == nil {
		t.deposits, t.keys, t.refunds = map[string]int{}, map[string]string{}, map[string]int{}
	}
	t.deposits[c.UID] = c.Spec.Deposit()
	t.keys[c.UID] = c.Namespace + "/" + c.Name
}

// Refund pays back the deposit of order uid and returns it, or returns
// false if it was already refunded (or never taken): the till is the
// idempotency record, so a cleanup that runs twice refunds once.
func (t *Till) Refund(uid string) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	amount, ok := t.deposits[uid]
	if !ok || t.refunds[uid] > 0 {
		return 0, false
	}
	t.refunds[uid]++
	return amount, true
}

// Refunded returns the keys of refunded orders, sorted.
func (t *Till) Refunded() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keys []string
	for uid, n := range t.refunds {
		if n > 0 {
			keys = append(keys, t.keys[uid])
		}
	}
	slices.Sort(keys)
	return keys
}
