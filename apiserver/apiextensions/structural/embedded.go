package structural

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// An embedded resource (x-kubernetes-embedded-resource) is a whole
// object inside another, as a PodTemplate is inside a Deployment: it has
// an apiVersion, a kind and a metadata of its own, whatever its schema
// declares. kube-apiserver handles the three in two steps, and so does
// this package:
//
//   - when it decodes a custom resource, it coerces them
//     ([CoerceEmbedded]): apiVersion and kind must be strings, and the
//     metadata is read as an ObjectMeta and written back, which drops
//     the fields ObjectMeta does not have and the empty ones;
//   - when it validates one, it checks them ([ValidateEmbedded]):
//     apiVersion and kind are required, and the metadata is held to
//     ObjectMeta's rules (except that a name is not required).
//
// [Prune] leaves the three alone.

// CoerceEmbedded coerces the embedded resources in value, in place, and
// returns the paths of the metadata fields it dropped, sorted: the
// unknown-field warnings the real server gives after [Prune]'s. A value
// that cannot be coerced stops it, with one cause naming the field
// (spec.template.apiVersion: Invalid value: 5: must be a string), which
// the real server answers 400 BadRequest. path is where value sits.
func CoerceEmbedded(s *Schema, value any, path string) ([]string, meta.FieldErrors) {
	var dropped []string
	errs := coerce(s, value, path, &dropped)
	slices.Sort(dropped)
	return dropped, errs
}

func coerce(s *Schema, value any, path string, dropped *[]string) meta.FieldErrors {
	if s == nil {
		return nil
	}
	switch x := value.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			at := join(path, k)
			if s.EmbeddedResource {
				if errs := coerceMetaField(x, k, at, dropped); errs != nil {
					return errs
				}
			}
			if errs := coerce(s.Property(k), x[k], at, dropped); errs != nil {
				return errs
			}
		}
	case []any:
		for i, item := range x {
			if errs := coerce(s.Items, item, fmt.Sprintf("%s[%d]", path, i), dropped); errs != nil {
				return errs
			}
		}
	}
	return nil
}

// coerceMetaField coerces x's field k, at path at, if it is apiVersion,
// kind or metadata.
func coerceMetaField(x map[string]any, k, at string, dropped *[]string) meta.FieldErrors {
	var errs meta.FieldErrors
	switch k {
	case "apiVersion", "kind":
		if _, ok := x[k].(string); !ok {
			errs.Invalid(at, x[k], "must be a string")
		}
	case "metadata":
		md, err := objectMetaOf(x[k])
		if err != nil {
			errs.Invalid(at, x[k], err.Error())
			return errs
		}
		if m, ok := x[k].(map[string]any); ok {
			for _, name := range slices.Sorted(maps.Keys(m)) {
				if !objectMetaFields[name] {
					*dropped = append(*dropped, join(at, name))
				}
			}
		}
		b, err := json.Marshal(md)
		if err == nil {
			x[k], err = meta.DecodeJSONValue(b)
		}
		if err != nil {
			errs.Invalid(at, x[k], err.Error())
		}
	}
	return errs
}

// objectMetaOf reads v, an embedded resource's metadata, as an
// ObjectMeta, with the real server's error (whose Go type is named
// v1.ObjectMeta) if it cannot.
func objectMetaOf(v any) (*meta.ObjectMeta, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var md meta.ObjectMeta
	if err := json.Unmarshal(b, &md); err != nil {
		return nil, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), "meta.ObjectMeta", "v1.ObjectMeta"))
	}
	return &md, nil
}

// ValidateEmbedded checks the embedded resources in value, as the real
// server does after the schema: each must have an apiVersion (a
// group/version) and a kind (a DNS-1035 label but for its case), and its
// metadata must follow ObjectMeta's rules for its generateName, name (a
// path segment, not required), namespace, generation, labels,
// annotations and finalizers. path is where value sits.
func ValidateEmbedded(s *Schema, value any, path string) meta.FieldErrors {
	var errs meta.FieldErrors
	if s == nil {
		return nil
	}
	switch x := value.(type) {
	case map[string]any:
		if s.EmbeddedResource {
			errs = append(errs, validateTypeMeta(x, path)...)
			if md, ok := x["metadata"]; ok {
				errs = append(errs, validateEmbeddedMeta(md, join(path, "metadata"))...)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			errs = append(errs, ValidateEmbedded(s.Property(k), x[k], join(path, k))...)
		}
	case []any:
		for i, item := range x {
			errs = append(errs, ValidateEmbedded(s.Items, item, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return errs
}

// validateTypeMeta checks an embedded resource's apiVersion and kind.
func validateTypeMeta(x map[string]any, path string) meta.FieldErrors {
	var errs meta.FieldErrors
	for _, k := range []string{"apiVersion", "kind"} {
		at := join(path, k)
		v, found := x[k]
		s, isString := v.(string)
		switch {
		case !found:
			errs.Required(at, "")
		case !isString:
			errs.Invalid(at, v, "must be a string")
		case s == "":
			errs.Invalid(at, s, "must not be empty")
		case k == "apiVersion" && strings.Count(s, "/") > 1:
			errs.Invalid(at, s, "unexpected GroupVersion string: "+s)
		case k == "kind":
			if msgs := meta.IsDNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
				errs.Invalid(at, s, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ","))
			}
		}
	}
	return errs
}

// validateEmbeddedMeta checks an embedded resource's metadata as
// kube-apiserver's ValidateObjectMeta does for a create, with names that
// need only be path segments and a name that may be empty.
func validateEmbeddedMeta(v any, path string) meta.FieldErrors {
	var errs meta.FieldErrors
	md, err := objectMetaOf(v)
	if err != nil {
		errs.Invalid(path, v, err.Error())
		return errs
	}
	if md.GenerateName != "" {
		for _, msg := range pathSegmentErrors(md.GenerateName, true) {
			errs.Invalid(path+".generateName", md.GenerateName, msg)
		}
	}
	if md.Name != "" {
		for _, msg := range pathSegmentErrors(md.Name, false) {
			errs.Invalid(path+".name", md.Name, msg)
		}
	}
	errs = append(errs, meta.ValidateNamespace(path+".namespace", md.Namespace)...)
	if md.Generation < 0 {
		errs.Invalid(path+".generation", md.Generation, "must be greater than or equal to 0")
	}
	errs = append(errs, meta.ValidateLabels(path+".labels", md.Labels)...)
	errs = append(errs, meta.ValidateAnnotations(path+".annotations", md.Annotations)...)
	for _, f := range md.Finalizers {
		for _, msg := range meta.IsLabelKey(f) {
			errs.Invalid(path+".finalizers", f, msg)
		}
	}
	return errs
}

// pathSegmentErrors says why name cannot be a path segment of a URL (or,
// for a prefix, begin one), in the real server's words.
func pathSegmentErrors(name string, prefix bool) []string {
	if !prefix && (name == "." || name == "..") {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}
