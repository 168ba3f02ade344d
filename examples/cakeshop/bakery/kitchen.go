package bakery

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// Tray is what physically exists in the kitchen for one order: the actual
// state the baker compares with the order's spec.
type Tray struct {
	// Flavor, Size and Layers are what the sponge is being made as.
	Flavor       string
	Size, Layers int
	Done         Step   // the last step physically finished
	Frosting     string // the recipe used
	Decoration   string // the plaque on the cake, once decorated
	Bakes        int    // sponges baked for this order (a rebake adds one)
	Simplified   bool   // decorated the simple way under load
	NutFree      bool   // prepared on the nut-free bench
	// Doing is the step under way, if any, and Until the shop time it
	// is finished: the baker starts a step and comes back when it is due.
	Doing Step
	Until time.Duration
	// Oven names the Bake whose sponge is in the oven for this tray.
	Oven string
	// Collapsed is true while a collapsed sponge lies on the tray.
	Collapsed bool
}

// matches reports whether the sponge on the tray is the one spec asks for.
func (t *Tray) matches(s CakeSpec) bool {
	return t.Flavor == s.Flavor && t.Size == s.Size && t.Layers == s.LayerCount()
}

// Kitchen is the actual state of one branch (后厨): trays, ovens, the
// pantry, and the faults a scene injects. It is safe for concurrent use.
type Kitchen struct {
	mu             sync.Mutex // guards every field below
	trays          map[string]*Tray
	frosting       int         // portions of buttercream left; < 0 means plenty
	restock        func() bool // asks a central warehouse for one portion
	icingMemoryMB  int64       // the icing fridge
	collapses      map[string]int
	ovenFailures   int
	slowOven       float64
	decoratorAt    time.Duration // time of day the decorator comes in; 0: always there
	busy           bool          // degraded service: simplify fancy decorations
	inKitchen, max int           // cakes being worked on now, and the most at once
	discarded      int
	ovens          map[string]time.Duration // Bake key → shop time its sponge is done
}

// NewKitchen returns a kitchen with plenty of buttercream and a 1GB icing
// fridge.
func NewKitchen() *Kitchen {
	return &Kitchen{trays: map[string]*Tray{}, frosting: -1, icingMemoryMB: 1024, collapses: map[string]int{},
		ovens: map[string]time.Duration{}}
}

// Faults and settings, set by scenes.

// SetFrosting sets how many portions of buttercream are left.
func (k *Kitchen) SetFrosting(portions int) { k.with(func() { k.frosting = portions }) }

// SetIcingMemory sets the size of the icing fridge, in MB.
func (k *Kitchen) SetIcingMemory(mb int64) { k.with(func() { k.icingMemoryMB = mb }) }

// IcingMemory returns the size of the icing fridge, in MB.
func (k *Kitchen) IcingMemory() int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.icingMemoryMB
}

// CollapseNext makes the next n bakes of key collapse.
func (k *Kitchen) CollapseNext(key string, n int) { k.with(func() { k.collapses[key] = n }) }

// BreakOven makes the next n attempts to heat an oven fail.
func (k *Kitchen) BreakOven(n int) { k.with(func() { k.ovenFailures = n }) }

// SetSlowOven makes baking take factor times longer (1 or 0: normal).
func (k *Kitchen) SetSlowOven(factor float64) { k.with(func() { k.slowOven = factor }) }

// SetDecoratorArrival says at what time of day the decorator comes in.
func (k *Kitchen) SetDecoratorArrival(t time.Duration) { k.with(func() { k.decoratorAt = t }) }

// SetBusy turns degraded service on or off: when on, fancy decorations are
// simplified.
func (k *Kitchen) SetBusy(busy bool) { k.with(func() { k.busy = busy }) }

func (k *Kitchen) with(f func()) {
	k.mu.Lock()
	defer k.mu.Unlock()
	f()
}

// Tray returns a copy of key's tray, or nil if nothing is being made.
func (k *Kitchen) Tray(key string) *Tray {
	k.mu.Lock()
	defer k.mu.Unlock()
	if t, ok := k.trays[key]; ok {
		c := *t
		return &c
	}
	return nil
}

// Discard throws away whatever is on key's tray (a cancelled order, or a
// sponge of the wrong flavor) and reports whether there was anything.
func (k *Kitchen) Discard(key string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.trays[key]
	if ok {
		delete(k.trays, key)
		k.discarded++
	}
	return ok
}

// enter and leave count the cakes being worked on, to check the
// concurrency limit.
func (k *Kitchen) enter() {
	k.with(func() { k.inKitchen++; k.max = max(k.max, k.inKitchen) })
}

func (k *Kitchen) leave() { k.with(func() { k.inKitchen-- }) }

// MaxConcurrent returns the most cakes ever worked on at the same time.
func (k *Kitchen) MaxConcurrent() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.max
}

// errOvenBroken and errCollapsed are the kitchen's transient failures.
var (
	errOvenBroken = errors.New("the oven will not heat up")
	errCollapsed  = errors.New("the sponge collapsed")
)

// begin starts step on key's tray, to be finished at shop time until; the
// first step puts out a fresh tray for spec (keeping the count of bakes);
// apply records what the step decided (a recipe, say).
func (k *Kitchen) begin(key string, s CakeSpec, step Step, until time.Duration, apply func(*Tray)) {
	k.with(func() {
		t, ok := k.trays[key]
		if !ok || step == StepIngredients {
			bakes := 0
			if ok {
				bakes = t.Bakes
			}
			t = &Tray{Flavor: s.Flavor, Size: s.Size, Layers: s.LayerCount(), Bakes: bakes, NutFree: contains(s.Allergies, "nuts")}
			k.trays[key] = t
		}
		t.Doing, t.Until = step, until
		if apply != nil {
			apply(t)
		}
	})
}

// finishStep marks the step under way on key's tray done, applying what
// it means, and returns it.
func (k *Kitchen) finishStep(key string, apply func(*Tray, Step)) Step {
	k.mu.Lock()
	defer k.mu.Unlock()
	t, ok := k.trays[key]
	if !ok || t.Doing == StepNone {
		return StepNone
	}
	step := t.Doing
	t.Done, t.Doing, t.Until = step, StepNone, 0
	if apply != nil {
		apply(t, step)
	}
	return step
}

// putIn records that the sponge of key's tray went into the oven as Bake
// bakeKey.
func (k *Kitchen) putIn(key, bakeKey string) {
	k.with(func() {
		if t, ok := k.trays[key]; ok {
			t.Oven = bakeKey
		}
	})
}

// startOven starts timing bakeKey, to be done at shop time ready, unless
// it is already in, and returns when it is done.
func (k *Kitchen) startOven(bakeKey string, ready time.Duration) time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if at, ok := k.ovens[bakeKey]; ok {
		return at
	}
	k.ovens[bakeKey] = ready
	return ready
}

// ovenReady returns when bakeKey's sponge is done, if it is in the oven.
func (k *Kitchen) ovenReady(bakeKey string) (time.Duration, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	at, ok := k.ovens[bakeKey]
	return at, ok
}

// stopOven takes bakeKey out of the oven, whatever state it is in.
func (k *Kitchen) stopOven(bakeKey string) { k.with(func() { delete(k.ovens, bakeKey) }) }

// takeOut takes bakeKey's sponge out of the oven onto key's tray: done,
// or collapsed (the tray goes back to batter). A sponge whose tray was
// thrown away meanwhile (a rebake, a cancellation) is simply discarded.
func (k *Kitchen) takeOut(bakeKey, key string) error {
	k.mu.Lock()
	delete(k.ovens, bakeKey)
	t, ok := k.trays[key]
	ours := ok && t.Oven == bakeKey
	if ours {
		t.Oven = ""
	}
	k.mu.Unlock()
	if !ours {
		return nil
	}
	return k.finishBake(key)
}

// clearCollapsed throws away the collapsed sponge on key's tray and
// reports whether there was one.
func (k *Kitchen) clearCollapsed(key string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	t, ok := k.trays[key]
	if !ok || !t.Collapsed {
		return false
	}
	t.Collapsed = false
	return true
}

// heat starts an oven, or fails while the oven is broken.
func (k *Kitchen) heat() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ovenFailures > 0 {
		k.ovenFailures--
		return errOvenBroken
	}
	return nil
}

// bakeTime returns how long the sponge of s bakes, slow oven included.
func (k *Kitchen) bakeTime(s CakeSpec) time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	d := 25*time.Minute + 5*time.Minute*time.Duration(s.LayerCount())
	if k.slowOven > 1 {
		d = time.Duration(float64(d) * k.slowOven)
	}
	return d
}

// finishBake takes the sponge out: done, or collapsed (back to batter).
func (k *Kitchen) finishBake(key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	t, ok := k.trays[key]
	if !ok {
		return fmt.Errorf("no tray for %s", key)
	}
	t.Bakes++
	if k.collapses[key] > 0 {
		k.collapses[key]--
		t.Done, t.Collapsed = StepBatter, true
		return errCollapsed
	}
	t.Done = StepSponge
	return nil
}

// takeFrosting returns the recipe to frost with: buttercream while it
// lasts, then the fallback (whipped cream) — the kitchen never stalls.
// Before falling back, it asks the central warehouse, if there is one.
func (k *Kitchen) takeFrosting() (recipe string, fallback bool) {
	k.mu.Lock()
	frosting, restock := k.frosting, k.restock
	if frosting > 0 {
		k.frosting--
	}
	k.mu.Unlock()
	switch {
	case frosting != 0:
		return "buttercream", false
	case restock != nil && restock(): // called without mu: the warehouse has its own lock
		return "buttercream", false
	}
	return "whipped-cream", true
}

// SetRestock makes the kitchen ask restock for a portion of buttercream
// when it runs out; restock reports whether it shipped one.
func (k *Kitchen) SetRestock(restock func() bool) { k.with(func() { k.restock = restock }) }

// decoratorIn returns the time of day the decorator comes in, and whether
// they are in at time of day now.
func (k *Kitchen) decoratorIn(now time.Duration) (time.Duration, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.decoratorAt, now >= k.decoratorAt
}

// isBusy reports whether degraded service is on.
func (k *Kitchen) isBusy() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.busy
}

// scrapeDecoration removes the decoration of key's cake (and unboxes it),
// keeping sponge and frosting: the order's decoration changed.
func (k *Kitchen) scrapeDecoration(key string) {
	k.with(func() {
		if t, ok := k.trays[key]; ok && stepIndex(t.Done) > stepIndex(StepFrosting) {
			t.Done, t.Decoration = StepFrosting, ""
			t.Doing, t.Until = StepNone, 0 // stop boxing the old decoration
		}
	})
}

// Trays returns the keys of the orders with something in the kitchen,
// sorted.
func (k *Kitchen) Trays() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Sorted(maps.Keys(k.trays))
}

// Discarded returns how many trays were thrown away.
func (k *Kitchen) Discarded() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.discarded
}
