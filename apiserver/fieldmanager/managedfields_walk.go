package fieldmanager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// The walks below work on an object as decoded JSON (objects are
// map[string]any, lists []any, numbers json.Number). A null value counts
// as absent. Objects are granular (each field has its own owner) unless
// the kind declares them atomic ([meta.KindInfo.AtomicMaps]). Lists are
// atomic (owned and replaced whole) unless the kind declares them keyed
// ([meta.KindInfo.ListMapKeys]) or sets ([meta.KindInfo.ListSets]);
// metadata.finalizers is a set and metadata.ownerReferences is keyed by
// uid, as in Kubernetes.

// listType is how a list merges: structured-merge-diff's
// x-kubernetes-list-type.
type listType int

const (
	listAtomic listType = iota // replaced whole
	listSet                    // scalars, merged by value: v:"x"
	listMap                    // objects, merged by key: k:{"name":"x"}
)

// fieldSchema tells the walks how the lists and objects of one kind
// merge.
type fieldSchema struct {
	mapKeys map[string][]string // list field path -> key field names
	sets    []string            // field paths of sets
	atomic  []string            // field paths of atomic objects
}

// atomicMap reports whether the object at spath is owned and replaced
// whole ([meta.KindInfo.AtomicMaps]).
func (fs fieldSchema) atomicMap(spath string) bool { return slices.Contains(fs.atomic, spath) }

// list returns how the list at the field path spath (dotted field names,
// no indices) merges, and its keys for a keyed list.
func (fs fieldSchema) list(spath string) (listType, []string) {
	switch spath {
	case "metadata.finalizers":
		return listSet, nil
	case "metadata.ownerReferences":
		return listMap, []string{"uid"}
	}
	if keys, ok := fs.mapKeys[spath]; ok {
		return listMap, keys
	}
	if slices.Contains(fs.sets, spath) {
		return listSet, nil
	}
	return listAtomic, nil
}

func joinField(spath, name string) string {
	if spath == "" {
		return name
	}
	return spath + "." + name
}

func appendElem(path []string, el string) []string { return append(slices.Clip(path), el) }

// itemElem returns the path element of a list item: k:{...} for a keyed
// list, v:... for a set.
func itemElem(lt listType, keys []string, item any) (string, error) {
	if lt == listSet {
		if _, isObj := item.(map[string]any); isObj || isList(item) {
			return "", fmt.Errorf("a set may hold only scalars")
		}
		b, _ := json.Marshal(item)
		return "v:" + string(b), nil
	}
	obj, ok := item.(map[string]any)
	if !ok {
		return "", fmt.Errorf("an associative list may hold only objects")
	}
	key := make(map[string]any, len(keys))
	for _, k := range keys {
		v, ok := obj[k]
		if !ok || v == nil {
			return "", fmt.Errorf("associative list with keys has an element that omits key field %q", k)
		}
		key[k] = v
	}
	b, _ := json.Marshal(key) // sorted by key name, as Kubernetes writes it
	return "k:" + string(b), nil
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// items indexes the items of a set or keyed list by path element, in
// order; a duplicate or a malformed item is an error.
func items(lt listType, keys []string, list []any) ([]string, map[string]any, error) {
	order := make([]string, 0, len(list))
	byElem := make(map[string]any, len(list))
	for i, item := range list {
		el, err := itemElem(lt, keys, item)
		if err != nil {
			return nil, nil, fmt.Errorf("element %d: %w", i, err)
		}
		if _, dup := byElem[el]; dup {
			return nil, nil, fmt.Errorf("element %d: duplicate entries for key %s", i, el[2:])
		}
		order = append(order, el)
		byElem[el] = item
	}
	return order, byElem, nil
}

// toFieldSet adds to out every field v sets, below path: the leaves, and
// the items of sets and keyed lists (structured-merge-diff's ToFieldSet).
func (fs fieldSchema) toFieldSet(v any, spath string, path []string, out fieldSet) error {
	switch x := v.(type) {
	case map[string]any:
		if fs.atomicMap(spath) {
			out.insert(path...)
			return nil
		}
		for k, c := range x {
			if c == nil {
				continue
			}
			if err := fs.toFieldSet(c, joinField(spath, k), appendElem(path, "f:"+k), out); err != nil {
				return err
			}
		}
	case []any:
		lt, keys := fs.list(spath)
		if lt == listAtomic {
			out.insert(path...)
			return nil
		}
		order, byElem, err := items(lt, keys, x)
		if err != nil {
			return fmt.Errorf("%s: %w", pathString(strings.Join(path, pathSep)), err)
		}
		for _, el := range order {
			out.insert(appendElem(path, el)...)
			if lt == listMap {
				if err := fs.toFieldSet(byElem[el], spath, appendElem(path, el), out); err != nil {
					return err
				}
			}
		}
	default:
		out.insert(path...)
	}
	return nil
}

// comparison is what changed between two versions of an object.
type comparison struct {
	added, modified, removed fieldSet
}

func newComparison() *comparison {
	return &comparison{added: fieldSet{}, modified: fieldSet{}, removed: fieldSet{}}
}

// changed returns the fields added or modified.
func (c *comparison) changed() fieldSet { return c.added.union(c.modified) }

func (c *comparison) empty() bool {
	return len(c.added) == 0 && len(c.modified) == 0 && len(c.removed) == 0
}

// compare records in c how b differs from a below path
// (structured-merge-diff's Compare): a granular object or an item that
// appears is added itself, and so are its fields.
func (fs fieldSchema) compare(a, b any, spath string, path []string, c *comparison) {
	am, aObj := a.(map[string]any)
	bm, bObj := b.(map[string]any)
	if (aObj || a == nil) && (bObj || b == nil) && len(am)+len(bm) > 0 && !fs.atomicMap(spath) {
		c.presence(a, b, path)
		for k := range union(am, bm) {
			fs.compare(am[k], bm[k], joinField(spath, k), appendElem(path, "f:"+k), c)
		}
		return
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if lt, keys := fs.list(spath); lt != listAtomic && (aList || a == nil) && (bList || b == nil) && (aList || bList) {
		_, ai, err1 := items(lt, keys, al)
		_, bi, err2 := items(lt, keys, bl)
		if err1 == nil && err2 == nil {
			c.presence(a, b, path)
			for el := range union(ai, bi) {
				sub := appendElem(path, el)
				if lt == listSet {
					c.presence(ai[el], bi[el], sub)
					continue
				}
				fs.compare(ai[el], bi[el], spath, sub, c)
			}
			return
		}
	}
	if a == nil && b == nil {
		return
	}
	c.presence(a, b, path)
	if a != nil && b != nil && !reflect.DeepEqual(a, b) {
		c.modified.insert(path...)
	}
}

// presence records path as added or removed if only one side has it.
func (c *comparison) presence(a, b any, path []string) {
	switch {
	case len(path) == 0:
	case a == nil && b != nil:
		c.added.insert(path...)
	case a != nil && b == nil:
		c.removed.insert(path...)
	}
}

func union[V any](a, b map[string]V) map[string]struct{} {
	out := make(map[string]struct{}, len(a)+len(b))
	for k := range a {
		out[k] = struct{}{}
	}
	for k := range b {
		out[k] = struct{}{}
	}
	return out
}

// merge returns live with config merged in: objects field by field, sets
// and keyed lists item by item (live's order, new items after), anything
// else replaced by config's value. It never modifies live or config.
func (fs fieldSchema) merge(live, config any, spath string) any {
	switch c := config.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if fs.atomicMap(spath) {
			return c
		}
		if !ok {
			l = map[string]any{}
		}
		out := make(map[string]any, len(l)+len(c))
		for k, v := range l {
			out[k] = v
		}
		for k, v := range c {
			if v != nil {
				out[k] = fs.merge(l[k], v, joinField(spath, k))
			}
		}
		return out
	case []any:
		lt, keys := fs.list(spath)
		l, ok := live.([]any)
		if lt == listAtomic || !ok {
			return c
		}
		lorder, lby, err1 := items(lt, keys, l)
		corder, cby, err2 := items(lt, keys, c)
		if err1 != nil || err2 != nil {
			return c
		}
		out := make([]any, 0, len(l)+len(c))
		for _, el := range lorder {
			item := lby[el]
			if ci, ok := cby[el]; ok && lt == listMap {
				item = fs.merge(item, ci, spath)
			}
			out = append(out, item)
		}
		for _, el := range corder {
			if _, ok := lby[el]; !ok {
				out = append(out, cby[el])
			}
		}
		return out
	}
	return config
}

// remove deletes the field or item at path from v, in place; a path that
// is not there is no change.
func remove(v any, path []string) {
	m, ok := v.(map[string]any)
	if !ok || len(path) == 0 {
		return
	}
	name, ok := strings.CutPrefix(path[0], "f:")
	switch {
	case !ok:
	case len(path) == 1:
		delete(m, name)
	case isList(m[name]):
		m[name] = removeItem(m[name].([]any), path[1:])
	default:
		remove(m[name], path[1:])
	}
}

// removeItem removes the item (or the field below an item) that path
// names from list, returning the new list.
func removeItem(list []any, path []string) []any {
	for i, item := range list {
		if !matchesElem(item, path[0]) {
			continue
		}
		if len(path) == 1 {
			return slices.Delete(slices.Clone(list), i, i+1)
		}
		remove(item, path[1:])
		return list
	}
	return list
}

// matchesElem reports whether item is the list item the path element
// names.
func matchesElem(item any, el string) bool {
	switch el[:2] {
	case "v:":
		b, _ := json.Marshal(item)
		return string(b) == el[2:]
	case "k:":
		var key map[string]json.RawMessage
		if json.Unmarshal([]byte(el[2:]), &key) != nil {
			return false
		}
		obj, ok := item.(map[string]any)
		if !ok {
			return false
		}
		for k, want := range key {
			got, _ := json.Marshal(obj[k])
			if !bytes.Equal(got, want) {
				return false
			}
		}
		return true
	}
	return false
}

// has reports whether v holds something at path.
func has(v any, path []string) bool {
	for _, el := range path {
		switch x := v.(type) {
		case map[string]any:
			name, ok := strings.CutPrefix(el, "f:")
			if !ok {
				return false
			}
			if v, ok = x[name]; !ok || v == nil {
				return false
			}
		case []any:
			found := false
			for _, item := range x {
				if matchesElem(item, el) {
					v, found = item, true
					break
				}
			}
			if !found {
				return false
			}
		default:
			return false
		}
	}
	return true
}
