package kitchen

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"
)

// Pantry is the kitchen's stock of ingredients: the actual state the chef
// draws on. Stock is counted in base units ([Amount]). Ingredients leave
// the shelves by being reserved for a holder (a cook) with
// [Pantry.Reserve]; a holder's reservation then ends one of three ways:
// used in a finished dish ([Pantry.Use]), given back unused
// ([Pantry.Release]), or thrown away when cooking was stopped half-way
// ([Pantry.Waste]). Stock on the shelf can also go off ([Pantry.ExpireAt])
// and be restocked by scheduled deliveries ([Pantry.Schedule]).
//
// Every method that looks at time takes the kitchen time now as an
// argument (deliveries and expiries due by then are applied first), so
// the pantry is plain maths over instants and tests need no clock.
//
// The balance, checked by [Pantry.Check], is per ingredient:
//
//	opening + delivered = on shelf + reserved + used + wasted + expired
//
// so no ingredient is ever lost or counted twice. A Pantry is safe for
// concurrent use; the zero Pantry is an empty one.
type Pantry struct {
	mu         sync.Mutex                  // guards everything below
	units      map[string]Unit             // ingredient → its base unit
	shelf      map[string]int64            // ingredient → on the shelf
	held       map[string]map[string]int64 // holder → ingredient → reserved
	ledger     map[string]*Ledger          // ingredient → its account (Shelf unused: see shelf)
	deliveries []Delivery                  // not yet arrived, sorted by At
	expiries   map[string]time.Duration    // ingredient → when the shelf stock goes off
	expiredAt  map[string]time.Duration    // ingredient → when stock last went off
}

// Ledger is the account of one ingredient, in its base unit.
type Ledger struct {
	Unit                                   Unit
	Opening, Delivered                     int64
	Shelf, Reserved, Used, Wasted, Expired int64
}

// Balanced reports whether everything that came in is accounted for.
func (l Ledger) Balanced() bool {
	return l.Opening+l.Delivered == l.Shelf+l.Reserved+l.Used+l.Wasted+l.Expired &&
		l.Shelf >= 0 && l.Reserved >= 0
}

// Delivery is stock that arrives at a kitchen time.
type Delivery struct {
	// At is the kitchen time (since opening) the delivery arrives.
	At time.Duration
	// Ingredient and Amount say what arrives.
	Ingredient string
	Amount     Quantity
}

// ShortageError says that an ingredient ran out. The chef waits for the
// next delivery when one is due, and gives up on the order otherwise.
type ShortageError struct {
	Ingredient string
	Need, Have Amount
	// Expired is true when the shelf stock went off (rather than ran out).
	Expired bool
	// DeliveryDue is true when a delivery of the ingredient is scheduled,
	// arriving at NextDelivery.
	DeliveryDue  bool
	NextDelivery time.Duration
}

// Error says what ran out, and when the next delivery is due.
func (e *ShortageError) Error() string {
	why := "out of"
	if e.Expired {
		why = "expired:"
	}
	msg := fmt.Sprintf("%s %s: need %s, have %s", why, e.Ingredient, e.Need, e.Have)
	if e.DeliveryDue {
		msg += fmt.Sprintf(" (delivery due at minute %.0f)", e.NextDelivery.Minutes())
	}
	return msg
}

// AsShortage returns the [*ShortageError] in err's chain, if any.
func AsShortage(err error) (*ShortageError, bool) {
	var s *ShortageError
	ok := errors.As(err, &s)
	return s, ok
}

// NewPantry returns a pantry with the given opening stock.
func NewPantry(stock map[string]Quantity) (*Pantry, error) {
	p := &Pantry{}
	p.initLocked()
	for _, name := range slices.Sorted(maps.Keys(stock)) {
		a, err := ParseQuantity(stock[name])
		if err != nil {
			return nil, fmt.Errorf("pantry: %s: %w", name, err)
		}
		p.units[name] = a.Unit
		p.shelf[name] = a.Value
		p.ledger[name] = &Ledger{Unit: a.Unit, Opening: a.Value}
	}
	return p, nil
}

// Schedule books a delivery. It fails if the amount does not parse or is
// in another unit than the ingredient's stock.
func (p *Pantry) Schedule(d Delivery) error {
	a, err := ParseQuantity(d.Amount)
	if err != nil {
		return fmt.Errorf("delivery of %s: %w", d.Ingredient, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.initLocked()
	if err := p.checkUnitLocked(d.Ingredient, a.Unit); err != nil {
		return err
	}
	p.deliveries = append(p.deliveries, d)
	sort.SliceStable(p.deliveries, func(i, j int) bool { return p.deliveries[i].At < p.deliveries[j].At })
	return nil
}

// ExpireAt says that the ingredient now on the shelf goes off at kitchen
// time at: whatever is still on the shelf then is thrown away (reserved
// stock is already in the pans and is not affected).
func (p *Pantry) ExpireAt(ingredient string, at time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.initLocked()
	p.expiries[ingredient] = at
}

// initLocked makes the maps, so that the zero Pantry (empty) works too.
// Must be called with mu held (or before the pantry is shared).
func (p *Pantry) initLocked() {
	if p.units != nil {
		return
	}
	p.units, p.shelf, p.held = map[string]Unit{}, map[string]int64{}, map[string]map[string]int64{}
	p.ledger, p.expiries, p.expiredAt = map[string]*Ledger{}, map[string]time.Duration{}, map[string]time.Duration{}
}

// advanceLocked applies the expiries and deliveries due by now, in time
// order (an expiry and a delivery at the same instant: expiry first).
// Must be called with mu held.
func (p *Pantry) advanceLocked(now time.Duration) {
	for {
		name, at, ok := p.nextExpiryLocked(now)
		if ok && (len(p.deliveries) == 0 || at <= p.deliveries[0].At) {
			l := p.ledger[name]
			l.Expired += p.shelf[name]
			p.shelf[name] = 0
			p.expiredAt[name] = at
			delete(p.expiries, name)
			continue
		}
		if len(p.deliveries) == 0 || p.deliveries[0].At > now {
			return
		}
		d := p.deliveries[0]
		p.deliveries = p.deliveries[1:]
		a, _ := ParseQuantity(d.Amount) // checked by Schedule
		p.ledgerLocked(d.Ingredient, a.Unit).Delivered += a.Value
		p.shelf[d.Ingredient] += a.Value
		delete(p.expiredAt, d.Ingredient) // fresh stock
	}
}

// nextExpiryLocked returns the earliest expiry due by now.
func (p *Pantry) nextExpiryLocked(now time.Duration) (string, time.Duration, bool) {
	var name string
	best, found := time.Duration(0), false
	for _, n := range slices.Sorted(maps.Keys(p.expiries)) {
		if at := p.expiries[n]; at <= now && (!found || at < best) {
			name, best, found = n, at, true
		}
	}
	return name, best, found
}

func (p *Pantry) ledgerLocked(name string, u Unit) *Ledger {
	l, ok := p.ledger[name]
	if !ok {
		l = &Ledger{Unit: u}
		p.ledger[name] = l
		p.units[name] = u
	}
	return l
}

func (p *Pantry) checkUnitLocked(name string, u Unit) error {
	if have, ok := p.units[name]; ok && have != u {
		return fmt.Errorf("pantry counts %s in %s, not %s", name, have, u)
	}
	return nil
}
