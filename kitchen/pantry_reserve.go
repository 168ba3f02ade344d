package kitchen

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Reserve makes the holder's reservation exactly need: it takes from the
// shelf what need adds to what the holder already holds, and puts back
// what it no longer needs. It is declarative, like a reconciler: calling
// it twice with the same need changes nothing the second time, which is
// what keeps a chef that repeats itself from taking ingredients twice.
//
// It is all or nothing: if any ingredient is short, nothing changes and
// the error is a [*ShortageError] (the first short ingredient by name).
func (p *Pantry) Reserve(now time.Duration, holder string, need map[string]Amount) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.initLocked()
	p.advanceLocked(now)
	held := p.held[holder]
	names := slices.Sorted(maps.Keys(need))
	for _, name := range names {
		a := need[name]
		if a.Value < 0 {
			return fmt.Errorf("reserve %s: negative amount %s", name, a)
		}
		if err := p.checkUnitLocked(name, a.Unit); err != nil {
			return err
		}
		if more := a.Value - held[name]; more > p.shelf[name] {
			return p.shortageLocked(now, name, a, Amount{p.shelf[name] + held[name], a.Unit})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(held)) { // no longer needed
		if _, ok := need[name]; !ok {
			p.move(holder, name, -held[name])
		}
	}
	for _, name := range names {
		p.ledgerLocked(name, need[name].Unit)
		p.move(holder, name, need[name].Value-p.held[holder][name])
	}
	return nil
}

// move takes n from the shelf into the holder's reservation (n < 0 puts
// back). Must be called with mu held.
func (p *Pantry) move(holder, name string, n int64) {
	if n == 0 {
		return
	}
	if p.held[holder] == nil {
		p.held[holder] = map[string]int64{}
	}
	p.shelf[name] -= n
	p.held[holder][name] += n
	p.ledger[name].Reserved += n
	if p.held[holder][name] == 0 {
		delete(p.held[holder], name)
	}
	if len(p.held[holder]) == 0 {
		delete(p.held, holder)
	}
}

func (p *Pantry) shortageLocked(now time.Duration, name string, need, have Amount) *ShortageError {
	e := &ShortageError{Ingredient: name, Need: need, Have: have}
	_, e.Expired = p.expiredAt[name]
	for _, d := range p.deliveries {
		if d.Ingredient == name && d.At > now {
			e.DeliveryDue, e.NextDelivery = true, d.At
			break
		}
	}
	return e
}

// Release puts everything the holder reserved back on the shelf (unused
// ingredients of a cancelled or re-planned item) and returns what it put
// back. Releasing a holder that holds nothing does nothing.
func (p *Pantry) Release(holder string) map[string]Amount {
	return p.settle(holder, func(*Ledger, int64) {}, true)
}

// Use records that the holder's reservation went into a finished dish.
func (p *Pantry) Use(holder string) map[string]Amount {
	return p.settle(holder, func(l *Ledger, n int64) { l.Used += n }, false)
}

// Waste records that the holder's reservation was thrown away: cooking
// was stopped half-way.
func (p *Pantry) Waste(holder string) map[string]Amount {
	return p.settle(holder, func(l *Ledger, n int64) { l.Wasted += n }, false)
}

func (p *Pantry) settle(holder string, book func(*Ledger, int64), toShelf bool) map[string]Amount {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]Amount{}
	for name, n := range p.held[holder] {
		l := p.ledger[name]
		l.Reserved -= n
		book(l, n)
		if toShelf {
			p.shelf[name] += n
		}
		out[name] = Amount{n, l.Unit}
	}
	delete(p.held, holder)
	return out
}

// Held returns what the holder has reserved.
func (p *Pantry) Held(holder string) map[string]Amount {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]Amount{}
	for name, n := range p.held[holder] {
		out[name] = Amount{n, p.units[name]}
	}
	return out
}

// Holders returns the holders with a reservation, sorted.
func (p *Pantry) Holders() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Sorted(maps.Keys(p.held))
}

// Level returns what is on the shelf at kitchen time now.
func (p *Pantry) Level(now time.Duration, ingredient string) Amount {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advanceLocked(now)
	return Amount{p.shelf[ingredient], p.units[ingredient]}
}

// Ledgers returns a copy of every ingredient's account at kitchen time
// now.
func (p *Pantry) Ledgers(now time.Duration) map[string]Ledger {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advanceLocked(now)
	out := map[string]Ledger{}
	for name, l := range p.ledger {
		c := *l
		c.Shelf = p.shelf[name]
		out[name] = c
	}
	return out
}

// Check verifies the balance of every ingredient and that the holders'
// reservations add up to the reserved totals. It returns nil when no
// ingredient was lost or counted twice.
func (p *Pantry) Check() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	sums := map[string]int64{}
	for holder, m := range p.held {
		for name, n := range m {
			if n <= 0 {
				return fmt.Errorf("pantry: %s holds %d of %s", holder, n, name)
			}
			sums[name] += n
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.ledger)) {
		l := *p.ledger[name]
		l.Shelf = p.shelf[name]
		if !l.Balanced() || l.Reserved != sums[name] {
			return fmt.Errorf("pantry: %s does not balance: %+v, holders hold %d", name, l, sums[name])
		}
	}
	return nil
}
