package apiextensions

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions/cel"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// served is what the server serves for one definition: the kind of its
// storage version (served or not) and the other served versions. terminating is shared
// with the kinds' hooks: once set, they take no new objects.
type served struct {
	kind        meta.KindInfo
	others      []meta.ServedVersion
	terminating *atomic.Bool
}

// kindsOf builds what crd, an accepted definition, serves.
func kindsOf(crd *CustomResourceDefinition, terminating *atomic.Bool) (served, error) {
	var out served
	out.terminating = terminating
	storage := crd.StorageVersion()
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if !v.Served && v.Name != storage {
			continue
		}
		info, err := versionKind(crd, v, terminating)
		if err != nil {
			return served{}, err
		}
		if v.Name == storage {
			// Stored even when not served: the real server keeps
			// writing the storage version, and serves only the others.
			info.NotServed = !v.Served
			out.kind = info
			continue
		}
		out.others = append(out.others, servedVersion(crd, info, storage))
	}
	return out, nil
}

// versionKind is the kind of one version: its names, scope, schema and
// subresources, and the hooks that apply the schema.
func versionKind(crd *CustomResourceDefinition, v *CustomResourceDefinitionVersion, terminating *atomic.Bool) (meta.KindInfo, error) {
	n := crd.Status.AcceptedNames
	gvk := meta.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: n.Kind}
	sch, err := newSchema(v)
	if err != nil {
		return meta.KindInfo{}, err
	}
	info := meta.KindInfo{
		Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Resource: n.Plural,
		Namespaced: crd.Spec.Scope == NamespaceScoped,
		New:        func() meta.Object { return meta.NewUnstructured(gvk) },
		Singular:   n.Singular, ShortNames: n.ShortNames, Categories: n.Categories,
		StatusSubresource: hasStatus(v),
		Fields:            selectableFields(v),
		Schema:            openAPISchema(v),
	}
	var markers mergeMarkers
	markers.collect(sch.root, "")
	info.ListMapKeys, info.ListSets, info.AtomicMaps = markers.mapKeys, markers.sets, markers.atomic
	if sc := v.Subresources; sc != nil && sc.Scale != nil {
		info.Scale = &meta.ScaleSubresource{SpecReplicasPath: sc.Scale.SpecReplicasPath, StatusReplicasPath: sc.Scale.StatusReplicasPath}
		if sc.Scale.LabelSelectorPath != nil {
			info.Scale.LabelSelectorPath = *sc.Scale.LabelSelectorPath
		}
	}
	for _, c := range v.AdditionalPrinterColumns {
		info.PrinterColumns = append(info.PrinterColumns, meta.PrinterColumn{Name: c.Name, Type: c.Type, Format: c.Format,
			Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath})
	}
	info.Normalize = func(obj, old meta.Object) ([]string, error) {
		if old == nil && terminating.Load() {
			return nil, meta.NewForbidden(meta.GroupResource{Group: crd.Spec.Group, Resource: n.Plural}, obj.GetObjectMeta().Name,
				fmt.Errorf("create not allowed while custom resource definition is terminating"))
		}
		return sch.normalize(obj)
	}
	sch.scale = info.Scale
	info.Validate = func(obj meta.Object) meta.FieldErrors { return sch.validate(obj, nil) }
	info.ValidateUpdate = sch.validate
	return info, nil
}

// servedVersion serves info, a version other than storage, over the
// stored kind: conversion None relabels apiVersion, both ways.
func servedVersion(crd *CustomResourceDefinition, info meta.KindInfo, storage string) meta.ServedVersion {
	stored := meta.GroupVersionKind{Group: crd.Spec.Group, Version: storage, Kind: info.Kind}
	relabel := func(gvk meta.GroupVersionKind) func(meta.Object) meta.Object {
		return func(obj meta.Object) meta.Object {
			u := obj.(*meta.Unstructured).DeepCopy()
			u.TypeMeta = meta.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}
			return u
		}
	}
	labels := map[string]string{}
	for name := range info.Fields {
		labels[name] = name
	}
	return meta.ServedVersion{
		Info: info, Stored: stored, FieldLabels: labels,
		ToStored: relabel(stored), FromStored: relabel(info.GroupVersionKind()),
		ValidateCreate: info.Validate, ValidateUpdate: info.ValidateUpdate,
	}
}

// schema is one version's structural schema and its CEL rules.
type schema struct {
	version string // the version's name, for messages
	root    *structural.Schema
	rules   *cel.Validator
	scale   *meta.ScaleSubresource // the version's, or nil
}

func newSchema(v *CustomResourceDefinitionVersion) (*schema, error) {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return &schema{}, nil
	}
	root, err := structuralOf(v.Schema.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	rules, errs := cel.Compile(root, "openAPIV3Schema")
	if len(errs) > 0 {
		return nil, errs.ToError(crdKind, v.Name)
	}
	return &schema{version: v.Name, root: root, rules: rules}, nil
}

// normalize defaults and prunes obj's content and coerces its embedded
// resources, and returns the paths of the fields it dropped (the pruned
// ones, then the embedded metadata's, as the real server lists them). An
// embedded resource that cannot be coerced is 400 BadRequest, in the
// words of the real server's decoder.
func (s *schema) normalize(obj meta.Object) ([]string, error) {
	u, ok := obj.(*meta.Unstructured)
	if !ok || s.root == nil {
		return nil, nil
	}
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	structural.Default(s.root, u.Content)
	pruned := structural.Prune(s.root, u.Content, "")
	dropped, errs := structural.CoerceEmbedded(s.root, u.Content, "")
	if len(u.Content) == 0 {
		u.Content = nil
	}
	if len(errs) > 0 {
		return nil, meta.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s: %s",
			u.Kind, s.version, u.Kind, errs[0].Field, errs[0].Message))
	}
	return append(pruned, dropped...), nil
}

// validate checks obj by the schema, its lists and its CEL rules; for
// an update, old is the stored object, and a field that has not changed
// is not held to rules it broke already (ratcheting, as on the real
// server).
func (s *schema) validate(obj, old meta.Object) meta.FieldErrors {
	u, ok := obj.(*meta.Unstructured)
	if !ok || s.root == nil {
		return nil
	}
	doc := rootValue(u)
	errs := structural.Validate(s.root, doc, "")
	errs = append(errs, s.validateScale(u)...)
	errs = append(errs, structural.ValidateLists(s.root, doc, "")...)
	var oldDoc any
	if o, ok := old.(*meta.Unstructured); ok {
		oldDoc = rootValue(o)
		errs = ratchet(errs, doc, oldDoc)
	}
	// Not ratcheted: the real server checks embedded resources alike on
	// create and update.
	errs = append(errs, structural.ValidateEmbedded(s.root, doc, "")...)
	if s.rules != nil {
		if blocking(errs) {
			errs.Invalid("<nil>", nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		} else {
			errs = append(errs, s.rules.Validate(doc, oldDoc, "")...)
		}
	}
	return errs
}

// rootValue is the object as its schema sees it: its content, apiVersion,
// kind, and of its metadata the name and generateName.
func rootValue(u *meta.Unstructured) map[string]any {
	doc := make(map[string]any, len(u.Content)+3)
	for k, v := range u.Content {
		doc[k] = v
	}
	doc["apiVersion"], doc["kind"] = u.APIVersion, u.Kind
	md := map[string]any{"name": u.Name}
	if u.GenerateName != "" {
		md["generateName"] = u.GenerateName
	}
	doc["metadata"] = md
	return doc
}

// blocking reports whether errs hold a cause that keeps the real server
// from running the CEL rules: a wrong type, a missing required field, an
// unsupported value, a value too long or too many.
func blocking(errs meta.FieldErrors) bool {
	for _, c := range errs {
		switch c.Type {
		case meta.CauseTypeFieldValueNotSupported, meta.CauseTypeFieldValueRequired, meta.CauseTypeFieldValueTooLong,
			meta.CauseTypeFieldValueTooMany, meta.CauseTypeFieldValueTypeInvalid:
			return true
		}
	}
	return false
}

// ratchet drops the causes about fields an update left as they were
// stored.
func ratchet(errs meta.FieldErrors, doc, old any) meta.FieldErrors {
	out := errs[:0]
	for _, c := range errs {
		nv, nok := lookup(doc, c.Field)
		ov, ook := lookup(old, c.Field)
		if nok && ook && structural.EqualJSON(nv, ov) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// lookup finds the value at a cause's field path ("spec.lines[2].name").
func lookup(doc any, path string) (any, bool) {
	cur := doc
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[name]; !ok {
			return nil, false
		}
		for rest != "" {
			var i int
			if _, err := fmt.Sscanf(rest, "%d]", &i); err != nil {
				return nil, false
			}
			list, ok := cur.([]any)
			if !ok || i < 0 || i >= len(list) {
				return nil, false
			}
			cur = list[i]
			_, rest, _ = strings.Cut(rest, "[")
		}
	}
	return cur, true
}

// validateScale checks what the scale subresource reads as the desired
// replicas: a whole number from 0 to 2^31-1, where it is set.
func (s *schema) validateScale(u *meta.Unstructured) meta.FieldErrors {
	var errs meta.FieldErrors
	if s.scale == nil {
		return nil
	}
	path := s.scale.SpecReplicasPath
	v, ok := u.NestedField(strings.Split(strings.TrimPrefix(path, "."), ".")...)
	n, isInt := v.(int64)
	switch {
	case !ok:
	case !isInt:
		errs.Invalid(path, 0, fmt.Sprintf("%s accessor error: %v is of the type %T, expected int64", path, v, v))
	case n < 0:
		errs.Invalid(path, n, "should be a non-negative integer")
	case n > math.MaxInt32:
		errs.Invalid(path, n, fmt.Sprintf("should be less than or equal to %d", math.MaxInt32))
	}
	return errs
}
