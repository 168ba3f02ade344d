package apiserver

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// FieldFunc reads one selectable field of an object, e.g. an Order's
// spec.section, so that field selectors ("spec.section=terrace") can match
// it. It must not modify obj.
type FieldFunc func(obj Object) string

// The field selectors every kind supports, as in Kubernetes.
const (
	FieldMetadataName      = "metadata.name"
	FieldMetadataNamespace = "metadata.namespace"
)

// KindInfo describes one registered kind: its names in the API, whether it
// lives in namespaces, how to make an empty one, and which extra fields
// field selectors may use. It plays the part of a CustomResourceDefinition
// together with the Go type that a Kubernetes scheme would map to it.
type KindInfo struct {
	// Group is the API group, e.g. "menu.example.com" ("" for the core group).
	Group string
	// Version is the API version, e.g. "v1".
	Version string
	// Kind is the CamelCase singular type name, e.g. "Order".
	Kind string
	// Resource is the lowercase plural used in URLs and error messages,
	// e.g. "orders".
	Resource string
	// Namespaced is true for kinds whose objects live in a namespace.
	Namespaced bool
	// New returns a new, empty object of this kind. Every kind has its own
	// Go type, a pointer to a struct, and New must return a fresh one on
	// each call.
	New func() Object
	// Fields are the extra field selectors of this kind, beyond
	// metadata.name and metadata.namespace, e.g. "spec.section".
	Fields map[string]FieldFunc
	// Validate, when set, checks every object of this kind before it is
	// created or updated (status updates and patches included), as the
	// OpenAPI schema of a CustomResourceDefinition does on a real server.
	// It returns one cause per problem, each naming its field (build them
	// with [FieldErrors]); any cause refuses the write with 422 Invalid and
	// nothing is stored. It must not modify obj.
	Validate func(obj Object) FieldErrors
	// ListMapKeys declares the kind's keyed lists, as a CRD schema's
	// x-kubernetes-list-type: map and x-kubernetes-list-map-keys do: the
	// list's field path without indices (e.g. "spec.lines") maps to the
	// fields that identify an item (e.g. "name"). Server-side apply
	// merges such a list item by item, each item with its own owners;
	// every other list is atomic, owned and replaced whole.
	ListMapKeys map[string][]string
	// StrategicMergePatch, for Kubernetes' built-in kinds, makes the kind
	// take [StrategicMergePatchType] patches, as client-side kubectl apply
	// sends them. Custom kinds leave it false: the real server answers a
	// strategic merge patch of a custom resource 415, and so does this one.
	StrategicMergePatch bool
	// AllowUnconditionalUpdate, as a built-in kind's registry strategy
	// says, lets an update without metadata.resourceVersion replace what
	// is stored, whatever its resourceVersion (the last write wins).
	// Kubernetes allows it for Namespace and Event, not for Lease; custom
	// kinds leave it false, and such an update is 422 Invalid.
	AllowUnconditionalUpdate bool
	// AllowCreateOnUpdate, as a built-in kind's registry strategy says,
	// makes an update of an object that does not exist create it (HTTP
	// 201 Created), as if it had been created: any resourceVersion in
	// it is ignored, and its namespace must exist and not be
	// terminating. Kubernetes allows it for Event and Lease, not for
	// Namespace; custom kinds leave it false, and such an update is 404
	// NotFound. (A server-side apply creates whatever this says.)
	AllowCreateOnUpdate bool
	// NoGeneration, for built-in kinds whose strategy keeps no
	// metadata.generation (Namespace, Event, Lease), stores the one a
	// create sends (usually none) and keeps it through updates, as
	// kube-apiserver does. Otherwise, as for a custom resource, it is 1 at
	// create and goes up when spec changes.
	NoGeneration bool
	// Schema, when set, is the kind's OpenAPI v3 schema, published for
	// kubectl explain; otherwise [SchemaOf] derives one from the Go type.
	Schema *Schema
}

// ValidateAs adapts rules written for one kind's Go type T (a pointer,
// like *Order) to [KindInfo.Validate], which takes any [Object]. The
// server hands Validate only objects of the kind's own type; anything else
// is not T's rules to judge and passes.
func ValidateAs[T Object](rules func(obj T) FieldErrors) func(obj Object) FieldErrors {
	return func(obj Object) FieldErrors {
		t, ok := obj.(T)
		if !ok {
			return nil
		}
		return rules(t)
	}
}

// validate runs the kind's Validate hook, if any, and turns its causes
// into a 422 Invalid error.
func (k KindInfo) validate(obj Object) error {
	if k.Validate == nil {
		return nil
	}
	return k.Validate(obj).ToError(k.GroupKind(), obj.GetObjectMeta().Name)
}

// GroupVersionKind returns the kind's full type name.
func (k KindInfo) GroupVersionKind() GroupVersionKind {
	return GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
}

// GroupVersionResource returns the kind's collection in the REST API.
func (k KindInfo) GroupVersionResource() GroupVersionResource {
	return GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
}

// GroupResource returns the name NotFound and Conflict errors use, e.g.
// orders.menu.example.com.
func (k KindInfo) GroupResource() GroupResource {
	return GroupResource{Group: k.Group, Resource: k.Resource}
}

// GroupKind returns the name Invalid errors use, e.g. Order.menu.example.com.
func (k KindInfo) GroupKind() GroupKind {
	return GroupKind{Group: k.Group, Kind: k.Kind}
}

// TypeMeta returns the apiVersion and kind that objects of this kind carry.
// Their lists carry the kind with "List" appended, e.g. "OrderList".
func (k KindInfo) TypeMeta() TypeMeta {
	return TypeMeta{APIVersion: GroupVersion{k.Group, k.Version}.String(), Kind: k.Kind}
}

// isAPIVersion says whether apiVersion is the kind's "group/version" (or
// "version" for the core group), without building that string.
func (k KindInfo) isAPIVersion(apiVersion string) bool {
	if k.Group == "" {
		return apiVersion == k.Version
	}
	return len(apiVersion) == len(k.Group)+1+len(k.Version) && apiVersion[len(k.Group)] == '/' &&
		apiVersion[:len(k.Group)] == k.Group && apiVersion[len(k.Group)+1:] == k.Version
}

// setTypeMeta sets tm to the kind's apiVersion and kind, keeping the
// strings tm already holds when they are right (no new string per write).
func (k KindInfo) setTypeMeta(tm *TypeMeta) {
	if tm.Kind != k.Kind || !k.isAPIVersion(tm.APIVersion) {
		*tm = k.TypeMeta()
	}
}

// SupportedFields lists, sorted, the field names a field selector may use
// on this kind: metadata.name, metadata.namespace and the kind's Fields.
func (k KindInfo) SupportedFields() []string {
	names := []string{FieldMetadataName, FieldMetadataNamespace}
	for name := range k.Fields {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// FieldSet returns the values of every supported field of obj, ready for
// [FieldSelector.Matches].
func (k KindInfo) FieldSet(obj Object) map[string]string {
	meta := obj.GetObjectMeta()
	set := map[string]string{FieldMetadataName: meta.Name, FieldMetadataNamespace: meta.Namespace}
	for name, fn := range k.Fields {
		set[name] = fn(obj)
	}
	return set
}

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
	s.byType[typ] = gvk
	return nil
}

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
	if other, ok := s.byType[typ]; ok && typ != nil {
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
	info, err := s.kindForType(v.Type())
	if err != nil {
		return KindInfo{}, err
	}
	tm := obj.GetTypeMeta()
	if (tm.Kind == "" || tm.Kind == info.Kind) && (tm.APIVersion == "" || info.isAPIVersion(tm.APIVersion)) {
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
func (s *Scheme) kindForType(t reflect.Type) (KindInfo, error) {
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
	slices.SortFunc(kinds, func(a, b KindInfo) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Kind, b.Kind))
	})
	return kinds
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
