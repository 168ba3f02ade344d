package fieldmanager

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// fieldSet is a set of field paths. A path is its path elements ("f:spec",
// `k:{"name":"a"}`, `v:"x"`) joined by pathSep; a path in the set is owned
// (in structured-merge-diff's words, a member).
type fieldSet map[string]struct{}

// pathSep joins path elements: JSON never holds a raw newline.
const pathSep = "\n"

func (s fieldSet) insert(path ...string) { s[strings.Join(path, pathSep)] = struct{}{} }

func (s fieldSet) has(p string) bool { _, ok := s[p]; return ok }

func (s fieldSet) union(o fieldSet) fieldSet {
	out := maps.Clone(s)
	if out == nil {
		out = fieldSet{}
	}
	maps.Copy(out, o)
	return out
}

func (s fieldSet) minus(o fieldSet) fieldSet {
	out := fieldSet{}
	for p := range s {
		if !o.has(p) {
			out[p] = struct{}{}
		}
	}
	return out
}

func (s fieldSet) intersect(o fieldSet) fieldSet {
	out := fieldSet{}
	for p := range s {
		if o.has(p) {
			out[p] = struct{}{}
		}
	}
	return out
}

// without drops every path for which drop is true.
func (s fieldSet) without(drop func(elems []string) bool) fieldSet {
	out := fieldSet{}
	for p := range s {
		if !drop(strings.Split(p, pathSep)) {
			out[p] = struct{}{}
		}
	}
	return out
}

// sorted returns the paths in order, parents before children.
func (s fieldSet) sorted() []string { return slices.Sorted(maps.Keys(s)) }

// encodeFields writes s as FieldsV1 JSON.
func encodeFields(s fieldSet) json.RawMessage {
	root := map[string]any{}
	for p := range s {
		node := root
		for _, el := range strings.Split(p, pathSep) {
			child, ok := node[el].(map[string]any)
			if !ok {
				child = map[string]any{}
				node[el] = child
			}
			node = child
		}
		node["."] = map[string]any{}
	}
	dropLeafDots(root)
	b, _ := jsonenc.Marshal(root) // maps of maps: cannot fail (jsonenc: json.Marshal's bytes, faster)
	return b
}

// dropLeafDots removes "." from nodes with no other keys: an owned leaf
// is written {}, and "." only marks an owned node that has children.
func dropLeafDots(node map[string]any) {
	if _, ok := node["."]; ok && len(node) == 1 {
		delete(node, ".")
		return
	}
	for k, child := range node {
		if k != "." {
			dropLeafDots(child.(map[string]any))
		}
	}
}

// decodeFields reads FieldsV1 JSON into a set.
func decodeFields(raw json.RawMessage) (fieldSet, error) {
	s := fieldSet{}
	if len(raw) == 0 {
		return s, nil
	}
	var walk func(prefix []string, raw json.RawMessage) error
	walk = func(prefix []string, raw json.RawMessage) error {
		var node map[string]json.RawMessage
		if err := json.Unmarshal(raw, &node); err != nil {
			return err
		}
		if len(node) == 0 && len(prefix) > 0 {
			s.insert(prefix...)
		}
		for el, child := range node {
			if el == "." {
				s.insert(prefix...)
				continue
			}
			if len(el) < 2 || !strings.Contains("fkvi", el[:1]) || el[1] != ':' {
				return fmt.Errorf("unknown path element %q", el)
			}
			if err := walk(append(slices.Clip(prefix), el), child); err != nil {
				return err
			}
		}
		return nil
	}
	return s, walk(nil, raw)
}

// pathString writes a path as structured-merge-diff prints it in
// conflict messages: .spec.items[name="a"].price, .metadata.finalizers[="x"].
func pathString(p string) string {
	var b strings.Builder
	for _, el := range strings.Split(p, pathSep) {
		kind, rest := el[:2], el[2:]
		switch kind {
		case "f:":
			b.WriteString("." + rest)
		case "k:":
			var key map[string]any
			_ = json.Unmarshal([]byte(rest), &key)
			parts := make([]string, 0, len(key))
			for _, name := range slices.Sorted(maps.Keys(key)) {
				parts = append(parts, name+"="+valueString(key[name]))
			}
			b.WriteString("[" + strings.Join(parts, ",") + "]")
		case "v:":
			var v any
			_ = json.Unmarshal([]byte(rest), &v)
			b.WriteString("[=" + valueString(v) + "]")
		default:
			b.WriteString("[" + rest + "]")
		}
	}
	return b.String()
}

// valueString prints a key or set value as structured-merge-diff's
// value.ToString does: strings quoted, numbers and booleans bare.
func valueString(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
