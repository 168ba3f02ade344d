package meta

import (
	"cmp"
	"maps"
	"slices"
)

// ServedVersion serves the objects of a registered kind (the stored kind)
// under a second group and version, with a Go type and field names of
// its own, as Kubernetes serves one stored Event as core/v1 and as
// events.k8s.io/v1: both versions see the same objects, with the same
// uid, name and resourceVersion, and a write in either is seen in both.
//
// The server stores, validates and watches the stored kind only;
// the in-process clients serve it alone. The HTTP front (package
// apiserver/httpapi) applies a ServedVersion: it decodes a body in this
// version, converts it with ToStored, holds it to this version's rules
// (ValidateCreate, ValidateUpdate), writes it as the stored kind, and
// converts every answer back with FromStored; its discovery lists the
// version beside the stored kind's.
//
// Register one with [Scheme.RegisterServedVersion], after its stored kind.
type ServedVersion struct {
	// Info names the kind as this version serves it: Group, Version,
	// Kind, Resource, New (a Go type of its own, not registered as a
	// kind) and StrategicMergePatch. Namespaced must match the stored
	// kind's. Its Fields and Validate are not used: see FieldLabels and
	// ValidateCreate.
	Info KindInfo
	// Stored is the registered kind whose objects this version shows.
	Stored GroupVersionKind
	// FieldLabels maps each field selector this version takes to the
	// stored kind's field selector it stands for, as Kubernetes' field
	// label conversion functions do ("regarding.name" is
	// "involvedObject.name"); metadata.name and metadata.namespace are
	// always taken. Any other field is 400 BadRequest.
	FieldLabels map[string]string
	// ToStored and FromStored convert an object of this version into one
	// of the stored kind, and back. They must copy metadata whole, not
	// modify their argument, and share no memory with it.
	ToStored, FromStored func(Object) Object
	// ValidateCreate and ValidateUpdate, when set, hold writes made in
	// this version to rules of their own, beyond the stored kind's
	// Validate, as a real server's strategy may judge a write by the
	// version it came in. They see the stored form of the object (and,
	// for an update, of the object as it was), so their causes name the
	// stored kind's fields, as Kubernetes' internal validation does.
	ValidateCreate func(obj Object) FieldErrors
	ValidateUpdate func(obj, old Object) FieldErrors
}

// GroupVersionResource returns where the version is served.
func (v ServedVersion) GroupVersionResource() GroupVersionResource {
	return v.Info.GroupVersionResource()
}

// FromStoredObject converts obj, an object of the stored kind, to this
// version, apiVersion and kind set.
func (v ServedVersion) FromStoredObject(obj Object) Object {
	out := v.FromStored(obj)
	*out.GetTypeMeta() = v.Info.TypeMeta()
	return out
}

// Validate holds obj, a write made in this version, to its own rules,
// in the stored form: ValidateCreate for a create (old nil), else
// ValidateUpdate (old is the object as it was).
func (v ServedVersion) Validate(obj, old Object) FieldErrors {
	switch {
	case old == nil && v.ValidateCreate != nil:
		return v.ValidateCreate(obj)
	case old != nil && v.ValidateUpdate != nil:
		return v.ValidateUpdate(obj, old)
	}
	return nil
}

// StoredFieldSelector translates a field selector written in this
// version's names into the stored kind's, or answers 400 BadRequest
// naming a field this version does not take, in kube-apiserver's words.
func (v ServedVersion) StoredFieldSelector(selector string) (string, error) {
	sel, err := ParseFieldSelector(selector)
	if err != nil || sel.Empty() {
		return selector, err
	}
	out := &FieldSelector{terms: make([]fieldTerm, 0, len(sel.terms))}
	for _, t := range sel.terms {
		stored, ok := v.FieldLabels[t.field]
		if t.field == FieldMetadataName || t.field == FieldMetadataNamespace {
			stored, ok = t.field, true
		}
		if !ok {
			return "", NewBadRequest("field label not supported: " + t.field)
		}
		t.field = stored
		out.terms = append(out.terms, t)
	}
	slices.SortFunc(out.terms, func(a, b fieldTerm) int { return cmp.Compare(a.field, b.field) })
	return out.String(), nil
}

// RegisterServedVersion adds v, whose stored kind must be registered
// already. It checks v first and registers nothing if anything is wrong:
// a 422 Invalid error names each wrong field, as [Scheme.Register] does
// (an Info that is no valid kind, a resource already served, a stored
// kind that is missing or scoped otherwise, a missing conversion, a
// field label the stored kind does not take).
func (s *Scheme) RegisterServedVersion(v ServedVersion) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.registerServedLocked(v)
}

// registerServedLocked checks and adds v; see
// [Scheme.RegisterServedVersion]. s.mu must be held (or s not yet
// shared).
func (s *Scheme) registerServedLocked(v ServedVersion) error {
	errs, _ := checkKindInfo(v.Info)
	gvr := v.GroupVersionResource()
	if _, ok := s.byGVR[gvr]; ok {
		errs.Invalid("Info.Resource", v.Info.Resource, "already registered as a kind")
	}
	if _, ok := s.served[gvr]; ok {
		errs.Invalid("Info.Resource", v.Info.Resource, "already served")
	}
	stored, ok := s.byGVK[v.Stored]
	switch {
	case !ok:
		errs.NotFound("Stored", v.Stored.String())
	case stored.Namespaced != v.Info.Namespaced:
		errs.Invalid("Info.Namespaced", v.Info.Namespaced, "must match the stored kind's")
	}
	if v.ToStored == nil || v.FromStored == nil {
		errs.Required("ToStored", "both conversions are needed")
	}
	for _, label := range slices.Sorted(maps.Keys(v.FieldLabels)) {
		if ok && !slices.Contains(stored.SupportedFields(), v.FieldLabels[label]) {
			errs.Invalid("FieldLabels["+label+"]", v.FieldLabels[label], "not a field selector of the stored kind")
		}
	}
	if err := errs.ToError(GroupKind{Kind: "ServedVersion"}, v.Info.GroupVersionKind().String()); err != nil {
		return err
	}
	if s.served == nil {
		s.served = make(map[GroupVersionResource]ServedVersion)
	}
	v.FieldLabels = maps.Clone(v.FieldLabels)
	s.served[gvr] = v
	return nil
}

// ServedVersionForResource finds the served version at gvr, e.g.
// events.k8s.io/v1 events.
func (s *Scheme) ServedVersionForResource(gvr GroupVersionResource) (ServedVersion, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.served[gvr]
	return v, ok
}

// ServedVersions returns every served version, sorted by group, version
// and kind.
func (s *Scheme) ServedVersions() []ServedVersion {
	s.mu.RLock()
	vs := slices.Collect(maps.Values(s.served))
	s.mu.RUnlock()
	slices.SortFunc(vs, func(a, b ServedVersion) int { return compareKinds(a.Info, b.Info) })
	return vs
}
