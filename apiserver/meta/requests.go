package meta

// ListMeta is the metadata of a list response, like metav1.ListMeta.
type ListMeta struct {
	// ResourceVersion is the server's resourceVersion when the list was
	// read: a watch started from it misses nothing and repeats nothing.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Continue, when not empty, fetches the next page with the same
	// selectors (pass it as ListOptions.Continue).
	Continue string `json:"continue,omitempty"`
	// RemainingItemCount is how many items the later pages hold, when known.
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// List is the answer to a list call: one page of objects of one kind, and
// the resourceVersion they were read at. In JSON it has the shape of a
// Kubernetes list (kind "OrderList", metadata, items).
type List struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata"`
	// Items are copies owned by the caller, sorted by namespace then name.
	Items []Object `json:"items"`
}

// ResourceVersionMatch says how ListOptions.ResourceVersion is read, as in
// Kubernetes.
type ResourceVersionMatch string

const (
	// ResourceVersionMatchNotOlderThan asks for data at least as new as the
	// given resourceVersion. With SendInitialEvents on a watch, it is the
	// watch-list mode.
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	// ResourceVersionMatchExact asks for data at exactly the given
	// resourceVersion.
	ResourceVersionMatchExact ResourceVersionMatch = "Exact"
)

// ListOptions select and page what List returns and where Watch starts,
// with the meaning Kubernetes gives them (metav1.ListOptions).
type ListOptions struct {
	// LabelSelector, e.g. "section=vip,table in (1,2),!allergy".
	LabelSelector string
	// FieldSelector, e.g. "metadata.name=t1,spec.section!=terrace".
	FieldSelector string
	// ResourceVersion: for List, "" reads the latest state and "0" allows
	// any state (here also the latest); for Watch, "" and "0" start with
	// synthetic ADDED events for the current state, and N streams every
	// change after N.
	ResourceVersion string
	// ResourceVersionMatch refines ResourceVersion; see its constants.
	ResourceVersionMatch ResourceVersionMatch
	// Limit caps the items in one page of a List; 0 means no limit.
	Limit int64
	// Continue is the token from the previous page's ListMeta.Continue.
	Continue string
	// AllowWatchBookmarks lets a watch send BOOKMARK events that carry only
	// a newer resourceVersion.
	AllowWatchBookmarks bool
	// SendInitialEvents, on a watch with ResourceVersionMatchNotOlderThan,
	// streams the current state as ADDED events and then a BOOKMARK
	// annotated with [InitialEventsEndAnnotation] (watch-list mode).
	SendInitialEvents *bool
	// TimeoutSeconds ends a watch cleanly after this long; 0 means never,
	// and a negative value ends it at once, as in Kubernetes.
	TimeoutSeconds *int64
}

// InitialEventsEndAnnotation marks the BOOKMARK that ends the initial
// events of a watch-list stream, as in Kubernetes.
const InitialEventsEndAnnotation = "k8s.io/initial-events-end"

// GetOptions modify a Get. Kept for symmetry with Kubernetes; Get always
// reads the latest state here.
type GetOptions struct {
	// ResourceVersion is accepted for compatibility and otherwise ignored;
	// one that is not a number is 400 BadRequest, as for a list.
	ResourceVersion string
}

// CreateOptions modify a Create.
type CreateOptions struct {
	// DryRun validates and returns the result without storing it.
	DryRun bool
	// FieldManager names the writer in metadata.managedFields (operation
	// Update). Empty: the object's fields are not tracked.
	FieldManager string
}

// UpdateOptions modify an Update or UpdateStatus.
type UpdateOptions struct {
	// DryRun validates and returns the result without storing it.
	DryRun bool
	// FieldManager names the writer in metadata.managedFields (operation
	// Update), if the object's fields are tracked.
	FieldManager string
}

// PatchType names a patch format by its media type, as Kubernetes'
// types.PatchType does; an HTTP front takes it from the Content-Type.
type PatchType string

// The patch types an API server applies.
const (
	// JSONPatchType is a JSON patch (RFC 6902): a list of operations
	// (add, remove, replace, move, copy, test) on JSON pointers, applied
	// in order, all or nothing.
	JSONPatchType PatchType = "application/json-patch+json"
	// MergePatchType is a JSON merge patch (RFC 7386): objects merge
	// recursively, null removes a field, anything else replaces.
	MergePatchType PatchType = "application/merge-patch+json"
	// ApplyPatchType is server-side apply: the patch is the writer's whole
	// intent for the fields it manages, in YAML (or JSON), merged into the
	// object field by field, each field owned by the managers that applied it.
	ApplyPatchType PatchType = "application/apply-patch+yaml"
	// StrategicMergePatchType is Kubernetes' strategic merge patch, for
	// kinds that take it (KindInfo.StrategicMergePatch): a merge patch in
	// which some lists merge item by item, steered by "$" directives.
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
)

// PatchOptions modify a Patch.
type PatchOptions struct {
	// DryRun validates and returns the result without storing it.
	DryRun bool
	// FieldManager names the writer in metadata.managedFields: required
	// for [ApplyPatchType], optional for the others (operation Update).
	FieldManager string
	// Force, for [ApplyPatchType] only, takes the fields that conflict
	// from their managers instead of failing with 409 Conflict.
	Force *bool
}

// Preconditions must hold for a Delete to proceed; a mismatch is 409
// Conflict.
type Preconditions struct {
	// UID, when set, must equal the stored object's UID.
	UID *string
	// ResourceVersion, when set, must equal the stored object's.
	ResourceVersion *string
}

// DeleteOptions modify a Delete, like Kubernetes' metav1.DeleteOptions.
// Delete checks them all before it changes anything: a bad
// PropagationPolicy, or both it and OrphanDependents, is 422 Invalid.
type DeleteOptions struct {
	// GracePeriodSeconds is accepted for compatibility: no kind here
	// deletes gracefully, so an object without finalizers goes at once,
	// whatever the value (as a custom resource does).
	GracePeriodSeconds *int64
	// Preconditions guard against deleting a newer or re-created object.
	Preconditions *Preconditions
	// OrphanDependents is the deprecated form of PropagationPolicy: true
	// means [DeletePropagationOrphan], false [DeletePropagationBackground].
	// Set at most one of the two.
	OrphanDependents *bool
	// PropagationPolicy says what happens to the object's dependents; nil
	// keeps what the object's finalizers already ask for, and else
	// [DeletePropagationBackground].
	PropagationPolicy *DeletionPropagation
	// DryRun validates without deleting.
	DryRun bool
}

// EventType is the kind of change a watch event reports.
type EventType string

// The event types of a watch stream, with Kubernetes' wire names.
const (
	EventAdded    EventType = "ADDED"
	EventModified EventType = "MODIFIED"
	EventDeleted  EventType = "DELETED"
	// EventBookmark carries an object of the watched kind whose only
	// meaningful field is metadata.resourceVersion.
	EventBookmark EventType = "BOOKMARK"
	// EventError carries a *[Status]; the watch ends after it.
	EventError EventType = "ERROR"
)

// Event is one entry of a watch stream, like Kubernetes' watch.Event.
type Event struct {
	Type EventType `json:"type"`
	// Object is the object after the change (for DELETED, its last
	// state), a bookmark object, or a *Status for ERROR. It is shared
	// with every other watcher and read-only: change a [DeepCopy].
	Object Object `json:"object"`
}

// WatchInterface is a running watch, like Kubernetes' watch.Interface. The
// channel closes when the watch ends: after Stop, when the context passed
// to Watch is done, after an ERROR event, on a timeout, or when the server
// ends it (a clean close: re-watch from the last resourceVersion seen).
type WatchInterface interface {
	// ResultChan delivers the events in resourceVersion order.
	ResultChan() <-chan Event
	// Stop ends the watch and releases its resources. It is safe to call
	// more than once and from any goroutine.
	Stop()
}

// DeletionPropagation says what happens to an object's dependents (the
// objects whose ownerReferences name it) when it is deleted, like
// Kubernetes' metav1.DeletionPropagation.
type DeletionPropagation string

const (
	// DeletePropagationBackground deletes the object at once; the garbage
	// collector deletes its dependents afterwards. The default.
	DeletePropagationBackground DeletionPropagation = "Background"
	// DeletePropagationForeground keeps the object, with a
	// deletionTimestamp and the [FinalizerDeleteDependents] finalizer,
	// until the garbage collector has deleted every dependent whose
	// reference to it sets blockOwnerDeletion; then it goes.
	DeletePropagationForeground DeletionPropagation = "Foreground"
	// DeletePropagationOrphan keeps the dependents: the garbage collector
	// removes their references to the object (held meanwhile by the
	// [FinalizerOrphanDependents] finalizer), and then the object goes.
	DeletePropagationOrphan DeletionPropagation = "Orphan"
)

// The finalizers through which the garbage collector carries out a
// propagation policy, with Kubernetes' names. Delete adds them; the
// collector removes them when its work is done.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// ApplyOptions modify a client's Apply: server-side apply's
// [PatchOptions] by another name, as in Kubernetes' metav1.ApplyOptions.
type ApplyOptions struct {
	// DryRun validates and returns the result without storing it.
	DryRun bool
	// FieldManager names the applier; required.
	FieldManager string
	// Force takes fields that other managers own instead of failing with
	// 409 Conflict.
	Force bool
}
