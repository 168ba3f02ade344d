package strategicpatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Merge applies the strategic merge patch patch to doc, a JSON object of
// kind info, and returns the merged JSON. A patch that is not a JSON
// object, or uses a directive this package does not implement, is a 400
// BadRequest ([meta.IsBadRequest]) that says why; doc is not changed.
func Merge(info meta.KindInfo, doc, patch []byte) ([]byte, error) {
	var cur, p map[string]any
	if err := decodeNumbers(doc, &cur); err != nil {
		return nil, err
	}
	if err := decodeNumbers(patch, &p); err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the patch is not a JSON object: %v", err))
	}
	s := smp{keys: map[string]string{"metadata.ownerReferences": "uid"}, sets: map[string]bool{"metadata.finalizers": true}}
	for path, k := range info.ListMapKeys {
		if len(k) > 0 {
			s.keys[path] = k[0]
		}
	}
	out, err := s.mergeMap(cur, p, "")
	if err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the strategic merge patch cannot be applied: %v", err))
	}
	return json.Marshal(out)
}

func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

// smp is the merge strategy of one kind: which list paths (without
// indices) merge on a key, and which merge as sets of strings.
type smp struct {
	keys map[string]string
	sets map[string]bool
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mergeMap merges the patch map p into cur (which it may change) and
// returns the result; nil means the map is deleted ("$patch": "delete").
func (s smp) mergeMap(cur, p map[string]any, path string) (map[string]any, error) {
	switch p["$patch"] {
	case nil:
	case "replace":
		return s.strip(p, path)
	case "delete":
		return nil, nil
	default:
		return nil, fmt.Errorf("%s: unknown $patch %v", path, p["$patch"])
	}
	if cur == nil {
		cur = map[string]any{}
	}
	for k, v := range p {
		if strings.HasPrefix(k, "$") {
			if err := s.checkDirective(k, path); err != nil {
				return nil, err
			}
			continue
		}
		if err := s.mergeField(cur, k, v, join(path, k)); err != nil {
			return nil, err
		}
	}
	return cur, s.directives(cur, p, path)
}

func (s smp) checkDirective(k, path string) error {
	if k == "$patch" || k == "$retainKeys" || strings.HasPrefix(k, "$setElementOrder/") || strings.HasPrefix(k, "$deleteFromPrimitiveList/") {
		return nil
	}
	return fmt.Errorf("%s: unknown directive %q", path, k)
}

// mergeField merges the patch value v of key k into cur.
func (s smp) mergeField(cur map[string]any, k string, v any, path string) error {
	switch v := v.(type) {
	case nil:
		delete(cur, k)
	case map[string]any:
		m, _ := cur[k].(map[string]any)
		merged, err := s.mergeMap(m, v, path)
		if err != nil {
			return err
		}
		if merged == nil {
			delete(cur, k)
		} else {
			cur[k] = merged
		}
	case []any:
		list, _ := cur[k].([]any)
		merged, err := s.mergeList(list, v, path)
		if err != nil {
			return err
		}
		cur[k] = merged
	default:
		cur[k] = v
	}
	return nil
}

// mergeList merges a patch list into cur by the list's strategy.
func (s smp) mergeList(cur, p []any, path string) ([]any, error) {
	key, keyed := s.keys[path]
	switch {
	case s.sets[path]:
		for _, v := range p {
			if !slices.ContainsFunc(cur, func(c any) bool { return same(c, v) }) {
				cur = append(cur, v)
			}
		}
		return cur, nil
	case !keyed:
		return s.stripList(p, path)
	}
	out := slices.Clone(cur)
	for _, item := range p {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: an item of a list merged on %q is not an object", path, key)
		}
		if m["$patch"] == "replace" {
			rest := slices.DeleteFunc(slices.Clone(p), func(v any) bool { o, _ := v.(map[string]any); return o["$patch"] == "replace" })
			return s.stripList(rest, path)
		}
		i := slices.IndexFunc(out, func(v any) bool { o, _ := v.(map[string]any); return o != nil && same(o[key], m[key]) })
		var orig map[string]any
		if i >= 0 {
			orig = out[i].(map[string]any)
		}
		merged, err := s.mergeMap(orig, m, path)
		switch {
		case err != nil:
			return nil, err
		case merged == nil && i >= 0:
			out = slices.Delete(out, i, i+1)
		case merged != nil && i >= 0:
			out[i] = merged
		case merged != nil:
			out = append(out, merged)
		}
	}
	return out, nil
}

// directives applies a map's list directives and $retainKeys to cur,
// the map already merged.
func (s smp) directives(cur, p map[string]any, path string) error {
	for k, v := range p {
		name, del := strings.CutPrefix(k, "$deleteFromPrimitiveList/")
		if del {
			gone, _ := v.([]any)
			list, _ := cur[name].([]any)
			cur[name] = slices.DeleteFunc(list, func(x any) bool { return slices.ContainsFunc(gone, func(g any) bool { return same(g, x) }) })
		}
		if name, ok := strings.CutPrefix(k, "$setElementOrder/"); ok {
			order, _ := v.([]any)
			list, _ := cur[name].([]any)
			cur[name] = s.order(list, order, join(path, name))
		}
	}
	keep, ok := p["$retainKeys"].([]any)
	if !ok {
		return nil
	}
	for k := range cur {
		if !slices.ContainsFunc(keep, func(x any) bool { return same(x, k) }) {
			delete(cur, k)
		}
	}
	return nil
}

// order puts the items that order names first, in its order (by value,
// or by merge key for a keyed list), then the rest as they were.
func (s smp) order(list, order []any, path string) []any {
	id := func(v any) any { return v }
	if key, ok := s.keys[path]; ok {
		id = func(v any) any { m, _ := v.(map[string]any); return m[key] }
	}
	out := make([]any, 0, len(list))
	for _, o := range order {
		if i := slices.IndexFunc(list, func(v any) bool { return same(id(v), id(o)) }); i >= 0 {
			out = append(out, list[i])
		}
	}
	for _, v := range list {
		if !slices.ContainsFunc(order, func(o any) bool { return same(id(v), id(o)) }) {
			out = append(out, v)
		}
	}
	return out
}

// strip returns a patch map as a value: its directives removed.
func (s smp) strip(p map[string]any, path string) (map[string]any, error) {
	return s.mergeMap(nil, withoutKey(p, "$patch"), path)
}

func (s smp) stripList(p []any, path string) ([]any, error) {
	out := make([]any, 0, len(p))
	for _, v := range p {
		if m, ok := v.(map[string]any); ok {
			stripped, err := s.strip(m, path)
			if err != nil {
				return nil, err
			}
			v = stripped
		}
		out = append(out, v)
	}
	return out, nil
}

// same compares decoded JSON values; unlike ==, it does not panic on
// maps and lists.
func same(a, b any) bool { return reflect.DeepEqual(a, b) }

func withoutKey(m map[string]any, k string) map[string]any {
	out := make(map[string]any, len(m))
	for key, v := range m {
		if key != k {
			out[key] = v
		}
	}
	return out
}
