package ops

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// FIFOOpKind names one step of a DeltaFIFO sequence.
type FIFOOpKind int

// The DeltaFIFO steps.
const (
	FAdd FIFOOpKind = iota
	FUpdate
	FDelete
	FReplace
	FResync
	// FPop pops one key (if any is queued) and applies its deltas to the
	// consumer's cache, as an informer does.
	FPop
)

var fifoOpNames = [...]string{"Add", "Update", "Delete", "Replace", "Resync", "Pop"}

// FIFOOp is one step of a DeltaFIFO sequence.
type FIFOOp struct {
	Kind FIFOOpKind
	Obj  Object
	List []Object
}

func (o FIFOOp) String() string {
	switch o.Kind {
	case FAdd, FUpdate, FDelete:
		return fifoOpNames[o.Kind] + " " + o.Obj.String()
	case FReplace:
		var parts []string
		for _, obj := range o.List {
			parts = append(parts, obj.String())
		}
		return "Replace [" + strings.Join(parts, ", ") + "]"
	}
	return fifoOpNames[o.Kind]
}

// chaos returns a step no well-behaved reflector makes: an Add, Update
// or Delete that ignores the server's state (an Add of a queued key, a
// Delete of a key nobody knows), or a Replace of random versions with
// duplicate keys. Both libraries must still agree.
func chaos(r *rand.Rand, g *objects) FIFOOp {
	switch r.IntN(4) {
	case 0:
		return FIFOOp{Kind: FAdd, Obj: g.next()}
	case 1:
		return FIFOOp{Kind: FUpdate, Obj: g.next()}
	case 2:
		return FIFOOp{Kind: FDelete, Obj: g.next()}
	}
	var list []Object
	for range r.IntN(g.keys + 2) {
		list = append(list, g.next())
	}
	return FIFOOp{Kind: FReplace, List: list}
}

// FIFOOps returns a DeltaFIFO sequence as a reflector would produce it
// from a server: a model of the server's objects changes at random; most
// changes are seen (Add for a create, Update for an update, Delete with
// the last state for a delete), some are missed as if the watch were down,
// and a Replace lists the model's current state, so that tombstones arise
// exactly where a real relist makes them. Most sequences start with the
// initial Replace; some start with plain adds (no HasSynced wait). A few
// steps are chaos (see chaos).
func FIFOOps(r *rand.Rand, n, keys int) []FIFOOp {
	g := &objects{r: r, keys: keys}
	server := map[string]Object{}
	list := func() []Object {
		out := make([]Object, 0, len(server))
		for _, o := range server {
			out = append(out, o)
		}
		slices.SortFunc(out, func(a, b Object) int { return strings.Compare(a.Key(), b.Key()) })
		return out
	}
	out := make([]FIFOOp, 0, n)
	if r.IntN(10) < 7 {
		for range r.IntN(keys) {
			o := g.next()
			server[o.Key()] = o
		}
		out = append(out, FIFOOp{Kind: FReplace, List: list()})
	}
	for len(out) < n {
		m := r.IntN(100)
		switch {
		case m < 30:
			out = append(out, FIFOOp{Kind: FPop})
			continue
		case m < 35:
			out = append(out, FIFOOp{Kind: FResync})
			continue
		case m < 42:
			out = append(out, FIFOOp{Kind: FReplace, List: list()})
			continue
		case m < 48:
			out = append(out, chaos(r, g))
			continue
		}
		seen := m >= 55 // 13% of steps are changes the watch misses
		o := g.next()
		old, exists := server[o.Key()]
		switch {
		case !exists:
			server[o.Key()] = o
			if seen {
				out = append(out, FIFOOp{Kind: FAdd, Obj: o})
			}
		case r.IntN(3) == 0:
			delete(server, o.Key())
			if seen {
				out = append(out, FIFOOp{Kind: FDelete, Obj: old})
			}
		default:
			server[o.Key()] = o
			if seen {
				out = append(out, FIFOOp{Kind: FUpdate, Obj: o})
			}
		}
	}
	for range keys + 1 {
		out = append(out, FIFOOp{Kind: FPop})
	}
	return out
}
