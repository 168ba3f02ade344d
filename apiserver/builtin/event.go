package builtin

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// EventsResource names the collection of [Event] objects (core/v1).
var EventsResource = meta.GroupVersionResource{Version: "v1", Resource: "events"}

// Event types, as Kubernetes' core/v1 EventTypeNormal and EventTypeWarning.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// Event is Kubernetes' core/v1 Event: a note that something happened to
// an object (its involvedObject), with a machine-readable reason and a
// message for people. `kubectl describe` lists an object's events under
// it; `kubectl events` lists a namespace's. Repeats of the same note are
// one Event whose count and lastTimestamp grow (see package
// reconcile/record).
//
// The field names are core/v1's. The same objects are served in
// events.k8s.io/v1 as [EventsV1Event] (see [EventsV1]).
type Event struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	// InvolvedObject is the object the event is about.
	InvolvedObject ObjectReference `json:"involvedObject"`
	// Reason is a short CamelCase word for what happened, e.g. "Cooking".
	Reason string `json:"reason,omitempty"`
	// Message says it for people.
	Message string `json:"message,omitempty"`
	// Source is the component (and host) that reported it.
	Source EventSource `json:"source,omitempty"`
	// FirstTimestamp and LastTimestamp are when it was first and last
	// seen; Count is how many times.
	FirstTimestamp meta.Time `json:"firstTimestamp,omitempty"`
	LastTimestamp  meta.Time `json:"lastTimestamp,omitempty"`
	Count          int32     `json:"count,omitempty"`
	// Type is [EventTypeNormal] or [EventTypeWarning].
	Type string `json:"type,omitempty"`
	// EventTime, Series, Action and Related belong to the newer API.
	EventTime MicroTime        `json:"eventTime,omitempty"`
	Series    *EventSeries     `json:"series,omitempty"`
	Action    string           `json:"action,omitempty"`
	Related   *ObjectReference `json:"related,omitempty"`
	// ReportingController and ReportingInstance name the reporter, as
	// Source does in the older form.
	ReportingController string `json:"reportingComponent"`
	ReportingInstance   string `json:"reportingInstance"`
}

// ObjectReference points at an object, as core/v1's ObjectReference.
type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}

// EventSource names who reported an event.
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// EventSeries counts a repeating event in the newer API.
type EventSeries struct {
	Count            int32     `json:"count,omitempty"`
	LastObservedTime MicroTime `json:"lastObservedTime,omitempty"`
}

// DeepCopyObject returns a copy of e that shares no memory with it.
func (e *Event) DeepCopyObject() meta.Object {
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	out.Series = clone(e.Series)
	out.Related = clone(e.Related)
	return &out
}

// EventKind returns the registration of [Event]: namespaced, resource
// "events" in the core group, selectable by involvedObject's fields (as
// `kubectl describe` selects an object's events), reason, type and
// source; an event must name its involved object.
func EventKind() meta.KindInfo {
	return meta.KindInfo{
		StrategicMergePatch: true, AllowUnconditionalUpdate: true, AllowCreateOnUpdate: true, NoGeneration: true,
		Version: "v1", Kind: "Event", Resource: "events", Namespaced: true,
		New:      func() meta.Object { return &Event{} },
		Fields:   eventFields(),
		Validate: meta.ValidateAs(validateEvent),
		// An ObjectReference is +structType=atomic in Kubernetes.
		AtomicMaps: []string{"involvedObject", "related"},
	}
}

func eventFields() map[string]meta.FieldFunc {
	ref := func(get func(ObjectReference) string) meta.FieldFunc {
		return func(obj meta.Object) string { return get(obj.(*Event).InvolvedObject) }
	}
	return map[string]meta.FieldFunc{
		"involvedObject.kind":            ref(func(r ObjectReference) string { return r.Kind }),
		"involvedObject.namespace":       ref(func(r ObjectReference) string { return r.Namespace }),
		"involvedObject.name":            ref(func(r ObjectReference) string { return r.Name }),
		"involvedObject.uid":             ref(func(r ObjectReference) string { return r.UID }),
		"involvedObject.apiVersion":      ref(func(r ObjectReference) string { return r.APIVersion }),
		"involvedObject.resourceVersion": ref(func(r ObjectReference) string { return r.ResourceVersion }),
		"involvedObject.fieldPath":       ref(func(r ObjectReference) string { return r.FieldPath }),
		"reason":                         func(obj meta.Object) string { return obj.(*Event).Reason },
		"type":                           func(obj meta.Object) string { return obj.(*Event).Type },
		"source":                         func(obj meta.Object) string { return obj.(*Event).Source.Component },
		"reportingComponent":             func(obj meta.Object) string { return obj.(*Event).ReportingController },
	}
}

// validateEvent holds every Event to Kubernetes' rules for any version
// ([validateEventLegacy]: an old-style event in its object's namespace, a
// new-style one, with eventTime, naming its reporter, action and reason).
// Like kube-apiserver, it takes an old-style event that names no object,
// or of a type other than Normal and Warning, or with a negative count;
// events.k8s.io/v1 holds its writes to more ([ValidateEventsV1Create]).
func validateEvent(e *Event) meta.FieldErrors {
	return validateEventLegacy(e, "reportingComponent")
}
