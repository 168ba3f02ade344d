package ops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Object is a generated object, as plain data: each harness turns it into
// its own type (an apiservertest.Widget for kitchensync, a metav1-based
// struct for client-go).
type Object struct {
	Namespace, Name string
	// RV is the resourceVersion, unique per generated write.
	RV int
	// Color goes to a single-valued index.
	Color string
	// Tags go to a multi-valued index (possibly no value at all).
	Tags []string
}

// Key is the object's namespace/name key.
func (o Object) Key() string { return o.Namespace + "/" + o.Name }

func (o Object) String() string {
	return fmt.Sprintf("%s@%d{%s %v}", o.Key(), o.RV, o.Color, o.Tags)
}

var (
	namespaces = []string{"hall", "terrace"}
	colors     = []string{"red", "green", "blue"}
	tags       = []string{"hot", "cold", "vegan", "spicy"}
)

// objects is a pool of keys and a resourceVersion counter.
type objects struct {
	r    *rand.Rand
	keys int
	rv   int
}

// next returns a new version of a random pooled key.
func (g *objects) next() Object {
	i := g.r.IntN(g.keys)
	return g.version(namespaces[i%len(namespaces)], fmt.Sprintf("o%02d", i))
}

// version returns a new version of ns/name with fresh random fields.
func (g *objects) version(ns, name string) Object {
	g.rv++
	o := Object{Namespace: ns, Name: name, RV: g.rv, Color: colors[g.r.IntN(len(colors))]}
	for _, t := range tags {
		if g.r.IntN(3) == 0 {
			o.Tags = append(o.Tags, t)
		}
	}
	return o
}

// IndexerOpKind names one step of an indexer sequence.
type IndexerOpKind int

// The indexer steps; a harness queries every index after each.
const (
	IAdd IndexerOpKind = iota
	IUpdate
	IDelete
	IReplace
)

// IndexerOp is one step of an indexer sequence.
type IndexerOp struct {
	Kind IndexerOpKind
	Obj  Object
	List []Object
}

func (o IndexerOp) String() string {
	switch o.Kind {
	case IAdd:
		return "Add " + o.Obj.String()
	case IUpdate:
		return "Update " + o.Obj.String()
	case IDelete:
		return "Delete " + o.Obj.String()
	}
	var parts []string
	for _, obj := range o.List {
		parts = append(parts, obj.String())
	}
	return "Replace [" + strings.Join(parts, ", ") + "]"
}

// IndexerOps returns an indexer sequence over a pool of keys. Adds and
// updates hit present and absent keys alike (an Add of a present key is an
// update in both libraries), and deletes may name absent keys.
func IndexerOps(r *rand.Rand, n, keys int) []IndexerOp {
	g := &objects{r: r, keys: keys}
	out := make([]IndexerOp, 0, n)
	for range n {
		switch m := r.IntN(100); {
		case m < 40:
			out = append(out, IndexerOp{Kind: IAdd, Obj: g.next()})
		case m < 70:
			out = append(out, IndexerOp{Kind: IUpdate, Obj: g.next()})
		case m < 92:
			out = append(out, IndexerOp{Kind: IDelete, Obj: g.next()})
		default:
			var list []Object
			for range r.IntN(keys) {
				list = append(list, g.next())
			}
			out = append(out, IndexerOp{Kind: IReplace, List: dedupByKey(list)})
		}
	}
	return out
}

// dedupByKey keeps the last version of each key, in first-seen order.
func dedupByKey(list []Object) []Object {
	var out []Object
	for _, o := range list {
		i := slices.IndexFunc(out, func(p Object) bool { return p.Key() == o.Key() })
		if i >= 0 {
			out[i] = o
		} else {
			out = append(out, o)
		}
	}
	return out
}
