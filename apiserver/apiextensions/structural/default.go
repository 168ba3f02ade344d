package structural

import "github.com/kitchensync/kitchensync/apiserver/meta"

// Default fills in s's defaults in value, in place, as kube-apiserver
// defaults a custom resource: a field that is missing, or null where the
// schema does not allow null, gets its default (a copy); a null that is
// not allowed and has no default is dropped; then the fields inside are
// defaulted, so a default object gets its own fields' defaults too. It
// returns value (a new one only where value itself was replaced).
func Default(s *Schema, value any) any {
	if s == nil {
		return value
	}
	switch x := value.(type) {
	case map[string]any:
		defaultObject(s, x)
	case []any:
		for i, item := range x {
			if item == nil && s.Items != nil && s.Items.HasDefault && !s.Items.Nullable {
				x[i] = meta.DeepCopyJSONValue(s.Items.Default)
			}
			x[i] = Default(s.Items, x[i])
		}
	}
	return value
}

// defaultObject defaults the fields of x, an object of schema s.
func defaultObject(s *Schema, x map[string]any) {
	for name, p := range s.Properties {
		v, ok := x[name]
		switch {
		case (!ok || v == nil && !p.Nullable) && p.HasDefault:
			x[name] = meta.DeepCopyJSONValue(p.Default)
		case ok && v == nil && !p.Nullable:
			delete(x, name)
		}
	}
	for name, v := range x {
		p := s.Property(name)
		if p == nil {
			continue
		}
		if v == nil && s.AdditionalProperties == p && !p.Nullable {
			if p.HasDefault {
				x[name] = meta.DeepCopyJSONValue(p.Default)
			} else {
				delete(x, name)
			}
			continue
		}
		x[name] = Default(p, v)
	}
}
