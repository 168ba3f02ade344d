package meta

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Scheme is the registry of kinds the server knows: it maps each kind's
// names (group/version/kind, group/version/resource) and its Go type to a
// [KindInfo], like Kubernetes' runtime.Scheme and RESTMapper together.
//
// Register kinds first, then share the scheme. All methods are safe for
// concurrent use; lookups take a read lock only.
type Scheme struct {
	mu     sync.RWMutex // guards the maps below
	byGVK  map[GroupVersionKind]KindInfo
	byGVR  map[GroupVersionResource]GroupVersionKind
	byType map[reflect.Type]GroupVersionKind
	served map[GroupVersionResource]ServedVersion // see served_version.go
}

// NewScheme returns an empty scheme.
func NewScheme() *Scheme {
	return &Scheme{
		byGVK:  make(map[GroupVersionKind]KindInfo),
		byGVR:  make(map[GroupVersionResource]GroupVersionKind),
		byType: make(map[reflect.Type]GroupVersionKind),
	}
}

// Register adds kinds, like a generated AddToScheme. It checks them all
// first, against the scheme and against each other, and if anything is
// wrong registers none of them: it returns a 422 Invalid error, for the
// first kind at fault, whose causes name each wrong KindInfo field: an empty or malformed
// Kind, Version or Resource (Resource must be a lowercase DNS-1035 label
// such as "orders"), a nil New or one that returns nil or a non-pointer, a
// GVK, resource or Go type already registered.
func (s *Scheme) Register(infos ...KindInfo) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Stage the additions on copies, so that a refusal leaves the scheme
	// as it was: nothing is half-registered.
	staged := &Scheme{byGVK: maps.Clone(s.byGVK), byGVR: maps.Clone(s.byGVR), byType: maps.Clone(s.byType)}
	for _, info := range infos {
		if err := staged.registerLocked(info); err != nil {
			return err
		}
	}
	s.byGVK, s.byGVR, s.byType = staged.byGVK, staged.byGVR, staged.byType
	return nil
}

// registerLocked checks and adds one kind; see [Scheme.Register]. s.mu
// must be held (or s not yet shared).
func (s *Scheme) registerLocked(info KindInfo) error {
	errs, typ := checkKindInfo(info)
	gvk := info.GroupVersionKind()
	errs = append(errs, s.checkUnique(info, typ)...)
	name := gvk.String() // names the failed kind in the error, e.g. "menu.example.com/v1, Kind=Order"
	if info.Kind == "" {
		name = ""
	}
	if err := errs.ToError(GroupKind{Kind: "KindInfo"}, name); err != nil {
		return err
	}
	info.Fields = maps.Clone(info.Fields) // the caller may reuse its map
	s.byGVK[gvk] = info
	s.byGVR[info.GroupVersionResource()] = gvk
	if typ != unstructuredType {
		s.byType[typ] = gvk
	}
	return nil
}

// unstructuredType is the Go type of [Unstructured] objects, which serve
// many kinds: the scheme finds their kind by apiVersion and kind.
var unstructuredType = reflect.TypeFor[*Unstructured]()

// checkKindInfo validates info on its own and finds its Go type.
func checkKindInfo(info KindInfo) (FieldErrors, reflect.Type) {
	var errs FieldErrors
	if info.Kind == "" {
		errs.Required("Kind", "")
	} else if msgs := IsDNS1035Label(strings.ToLower(info.Kind)); len(msgs) > 0 {
		errs.Invalid("Kind", info.Kind, "lowercased, "+strings.Join(msgs, "; "))
	}
	if info.Version == "" {
		errs.Required("Version", "")
	} else {
		for _, msg := range IsDNS1035Label(info.Version) {
			errs.Invalid("Version", info.Version, msg)
		}
	}
	if info.Group != "" {
		for _, msg := range IsDNS1123Subdomain(info.Group) {
			errs.Invalid("Group", info.Group, msg)
		}
	}
	if info.Resource == "" {
		errs.Required("Resource", `the lowercase plural, e.g. "orders"`)
	} else {
		for _, msg := range IsDNS1035Label(info.Resource) {
			errs.Invalid("Resource", info.Resource, msg)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(info.Fields)) {
		if name == "" || info.Fields[name] == nil {
			errs.Invalid("Fields["+name+"]", name, "a field selector needs a non-empty name and a non-nil FieldFunc")
		}
	}
	typ := checkNew(info.New, &errs)
	return errs, typ
}

// checkNew calls New once, safely, and returns the Go type it makes.
func checkNew(newFn func() Object, errs *FieldErrors) (typ reflect.Type) {
	if newFn == nil {
		errs.Required("New", "a func returning a new empty object of the kind")
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			errs.Invalid("New", fmt.Sprint(r), "New panicked")
			typ = nil
		}
	}()
	obj := newFn()
	if obj == nil || reflect.ValueOf(obj).Kind() != reflect.Pointer || reflect.ValueOf(obj).IsNil() {
		errs.Invalid("New", fmt.Sprintf("%T", obj), "must return a non-nil pointer to a struct")
		return nil
	}
	if t := reflect.TypeOf(obj); t.Elem().Kind() != reflect.Struct {
		errs.Invalid("New", t.String(), "must return a non-nil pointer to a struct")
		return nil
	}
	return reflect.TypeOf(obj)
}

// checkUnique rejects names and types already taken. Call with mu held.
func (s *Scheme) checkUnique(info KindInfo, typ reflect.Type) FieldErrors {
	var errs FieldErrors
	gvk := info.GroupVersionKind()
	if _, ok := s.byGVK[gvk]; ok {
		errs.Invalid("Kind", info.Kind, fmt.Sprintf("%s is already registered", gvk))
	}
	if other, ok := s.byGVR[info.GroupVersionResource()]; ok {
		errs.Invalid("Resource", info.Resource, fmt.Sprintf("already registered for kind %s", other))
	}
	if other, ok := s.byType[typ]; ok && typ != nil && typ != unstructuredType {
		errs.Invalid("New", typ.String(), fmt.Sprintf("Go type already registered as %s; each kind needs its own type", other))
	}
	return errs
}

// KindFor finds the kind of obj by its Go type. If obj's TypeMeta is set,
// it must agree with the registered kind: a mismatch is 422 Invalid with
// a cause for kind and one for apiVersion, worded as kube-apiserver words
// it for a custom resource (`kind: Invalid value: "Gadget": must be
// Widget`), for the kind the body claims. A nil object or a Go type that
// was never registered is 400 BadRequest. An empty TypeMeta is fine.
func (s *Scheme) KindFor(obj Object) (KindInfo, error) {
	v := reflect.ValueOf(obj)
	if obj == nil || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return KindInfo{}, NewBadRequest("the object is nil")
	}
	if u, ok := obj.(*Unstructured); ok {
		return s.kindForUnstructured(u)
	}
	info, err := s.KindForType(v.Type())
	if err != nil {
		return KindInfo{}, err
	}
	tm := obj.GetTypeMeta()
	if (tm.Kind == "" || tm.Kind == info.Kind) && (tm.APIVersion == "" || info.IsAPIVersion(tm.APIVersion)) {
		return info, nil // the common case, told without building strings
	}
	want := info.TypeMeta()
	var errs FieldErrors
	if tm.Kind != "" && tm.Kind != want.Kind {
		errs.Invalid("kind", tm.Kind, "must be "+want.Kind)
	}
	if tm.APIVersion != "" && tm.APIVersion != want.APIVersion {
		errs.Invalid("apiVersion", tm.APIVersion, "must be "+want.APIVersion)
	}
	claimed := GroupKind{Group: ParseGroupVersion(cmp.Or(tm.APIVersion, want.APIVersion)).Group, Kind: cmp.Or(tm.Kind, want.Kind)}
	return KindInfo{}, errs.ToError(claimed, obj.GetObjectMeta().Name)
}

// kindForType finds the kind registered for the Go type t, or answers
// 400 BadRequest naming t.
func (s *Scheme) KindForType(t reflect.Type) (KindInfo, error) {
	s.mu.RLock()
	gvk, ok := s.byType[t]
	info := s.byGVK[gvk]
	s.mu.RUnlock()
	if !ok {
		return KindInfo{}, NewBadRequest(fmt.Sprintf(
			"no kind is registered for the Go type %s; register it with Scheme.Register", t))
	}
	return info, nil
}

// KindForResource finds the kind served at gvr, e.g. menu.example.com/v1
// orders.
func (s *Scheme) KindForResource(gvr GroupVersionResource) (KindInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	gvk, ok := s.byGVR[gvr]
	if !ok {
		return KindInfo{}, false
	}
	return s.byGVK[gvk], true
}

// KindForGVK finds the kind registered under gvk.
func (s *Scheme) KindForGVK(gvk GroupVersionKind) (KindInfo, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	info, ok := s.byGVK[gvk]
	return info, ok
}

// Kinds returns every registered kind, sorted by group, version and kind.
func (s *Scheme) Kinds() []KindInfo {
	s.mu.RLock()
	kinds := slices.Collect(maps.Values(s.byGVK))
	s.mu.RUnlock()
	slices.SortFunc(kinds, compareKinds)
	return kinds
}

// compareKinds orders kinds by group, version and kind.
func compareKinds(a, b KindInfo) int {
	return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Kind, b.Kind))
}

// NewObject returns a new empty object of kind gvk with its apiVersion and
// kind set, or a 400 BadRequest if gvk is not registered.
func (s *Scheme) NewObject(gvk GroupVersionKind) (Object, error) {
	info, ok := s.KindForGVK(gvk)
	if !ok {
		return nil, NewBadRequest(fmt.Sprintf("no kind %q is registered for version %q", gvk.Kind, gvk.GroupVersion()))
	}
	obj := info.New()
	*obj.GetTypeMeta() = info.TypeMeta()
	return obj, nil
}

// SetTypeMeta fills obj's apiVersion and kind from the scheme, as the
// server does on every object it returns. It fails as [Scheme.KindFor]
// does, and then leaves obj unchanged.
func (s *Scheme) SetTypeMeta(obj Object) error {
	info, err := s.KindFor(obj)
	if err != nil {
		return err
	}
	*obj.GetTypeMeta() = info.TypeMeta()
	return nil
}
