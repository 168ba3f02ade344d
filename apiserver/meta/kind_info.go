package meta

import "slices"

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
	// ListSets names the kind's lists of scalars that merge as sets, by
	// field path without indices ("spec.tags"), as a CRD schema's
	// x-kubernetes-list-type: set (a Go field marked +listType=set)
	// declares: server-side apply owns each value on its own, so that
	// the values several managers apply are kept side by side.
	ListSets []string
	// AtomicMaps names the kind's objects that are owned and replaced
	// whole, by field path ("involvedObject"), as a Go struct marked
	// +structType=atomic is in Kubernetes (x-kubernetes-map-type: atomic):
	// server-side apply records such an object as one field, without its
	// fields. Every other object is granular.
	AtomicMaps []string
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
	// The fields below serve kinds whose Go type does not say it all, the
	// kinds a CustomResourceDefinition defines ([Unstructured] objects),
	// as the CRD says; see kind_info_custom.go.

	// StatusSubresource gives the kind a status subresource, as a CRD's
	// subresources.status does: status is then written only through it,
	// as for a Go kind with a field named Status (which needs no flag).
	StatusSubresource bool
	// Scale, when set, gives the kind a scale subresource.
	Scale *ScaleSubresource
	// Singular, ShortNames and Categories are the kind's other names in
	// discovery, as kubectl reads them ("kubectl get tb", "kubectl get
	// all"); Singular defaults to the lowercase kind.
	Singular   string
	ShortNames []string
	Categories []string
	// PrinterColumns, when set, are the columns of the kind's tables
	// (kubectl get), as a CRD's additionalPrinterColumns.
	PrinterColumns []PrinterColumn
	// Normalize, when set, readies every object written (created,
	// updated, patched, applied, its status too) before it is tracked
	// and validated, as a CRD's structural schema does: it applies
	// defaults and drops (prunes) the fields the kind does not know,
	// returning their paths ("spec.colour"). old is the stored object,
	// nil for a create. An error refuses the write as it is.
	Normalize func(obj, old Object) (pruned []string, err error)
	// ValidateUpdate, when set, checks an update (status too) knowing the
	// object as stored, in place of Validate: for rules about changes
	// (a CRD's transition rules, with oldSelf). It must not modify obj
	// or old.
	ValidateUpdate func(obj, old Object) FieldErrors
	// NotServed keeps the kind stored but not served over HTTP, as a
	// CRD's storage version marked served: false: the server stores its
	// objects (and the in-process clients reach them), but the HTTP front
	// neither routes its resource (404 NotFound) nor lists it in
	// discovery; its other versions ([ServedVersion]) serve the objects.
	NotServed bool
	// BeforeDelete, when set, may change an object whose deletion has
	// been asked for before the server decides how it goes: add a
	// finalizer that holds it and a condition saying why, in the same
	// write, as the registry of CustomResourceDefinitions does.
	BeforeDelete func(obj Object)
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
func (k KindInfo) ValidateObject(obj Object) error {
	if k.Validate == nil {
		return nil
	}
	return k.Validate(obj).ToError(k.GroupKind(), obj.GetObjectMeta().Name)
}

// NormalizeObject runs the kind's Normalize hook, if any, on obj, the new
// state of old (nil for a create), and returns only its error.
func (k KindInfo) NormalizeObject(obj, old Object) error {
	if k.Normalize == nil {
		return nil
	}
	_, err := k.Normalize(obj, old)
	return err
}

// ValidateUpdateOf runs the kind's ValidateUpdate hook on an update of
// old to obj, or else its Validate hook on obj, and turns the causes into
// a 422 Invalid error.
func (k KindInfo) ValidateUpdateOf(obj, old Object) error {
	if k.ValidateUpdate == nil {
		return k.ValidateObject(obj)
	}
	return k.ValidateUpdate(obj, old).ToError(k.GroupKind(), obj.GetObjectMeta().Name)
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
func (k KindInfo) IsAPIVersion(apiVersion string) bool {
	if k.Group == "" {
		return apiVersion == k.Version
	}
	return len(apiVersion) == len(k.Group)+1+len(k.Version) && apiVersion[len(k.Group)] == '/' &&
		apiVersion[:len(k.Group)] == k.Group && apiVersion[len(k.Group)+1:] == k.Version
}

// setTypeMeta sets tm to the kind's apiVersion and kind, keeping the
// strings tm already holds when they are right (no new string per write).
func (k KindInfo) SetTypeMeta(tm *TypeMeta) {
	if tm.Kind != k.Kind || !k.IsAPIVersion(tm.APIVersion) {
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
