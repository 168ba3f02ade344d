package builtin

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// EventsGroup and EventsVersion name the newer Events API, events.k8s.io/v1.
const (
	EventsGroup   = "events.k8s.io"
	EventsVersion = "v1"
)

// EventsV1Resource names the collection of [EventsV1Event] objects: the
// same Events as [EventsResource], served in events.k8s.io/v1.
var EventsV1Resource = meta.GroupVersionResource{Group: EventsGroup, Version: EventsVersion, Resource: "events"}

// EventsV1Event is Kubernetes' events.k8s.io/v1 Event: the newer form of
// the same stored object as the core/v1 [Event], which client-go's
// tools/events and controller-runtime's GetEventRecorder write. What core
// calls involvedObject is regarding here, message is note, source is
// deprecatedSource, reportingComponent is reportingController, and the
// core form's counting fields (firstTimestamp, lastTimestamp, count) are
// deprecated in favour of eventTime and series. See [EventsV1] for how the
// two convert.
type EventsV1Event struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	// EventTime is when the event was first observed; required.
	EventTime MicroTime `json:"eventTime"`
	// Series, for an event that repeats, counts it and says when it
	// was last seen.
	Series *EventsV1Series `json:"series,omitempty"`
	// ReportingController and ReportingInstance name the reporter, e.g.
	// "kitchensync.example.com/chef" and "chef-1"; required.
	ReportingController string `json:"reportingController,omitempty"`
	ReportingInstance   string `json:"reportingInstance,omitempty"`
	// Action is what the reporter did (or failed to do); required.
	Action string `json:"action,omitempty"`
	// Reason is why, a short CamelCase word; required.
	Reason string `json:"reason,omitempty"`
	// Regarding is the object the event is about; Related, a second one.
	Regarding ObjectReference  `json:"regarding,omitempty"`
	Related   *ObjectReference `json:"related,omitempty"`
	// Note says it for people, at most 1 KiB.
	Note string `json:"note,omitempty"`
	// Type is [EventTypeNormal] or [EventTypeWarning].
	Type string `json:"type,omitempty"`
	// The core form's fields, carried for events written in it.
	DeprecatedSource         EventSource `json:"deprecatedSource,omitempty"`
	DeprecatedFirstTimestamp meta.Time   `json:"deprecatedFirstTimestamp,omitempty"`
	DeprecatedLastTimestamp  meta.Time   `json:"deprecatedLastTimestamp,omitempty"`
	DeprecatedCount          int32       `json:"deprecatedCount,omitempty"`
}

// EventsV1Series is events.k8s.io/v1's EventSeries: the core
// [EventSeries] with both fields always on the wire.
type EventsV1Series struct {
	Count            int32     `json:"count"`
	LastObservedTime MicroTime `json:"lastObservedTime"`
}

// DeepCopyObject returns a copy of e that shares no memory with it.
func (e *EventsV1Event) DeepCopyObject() meta.Object {
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	out.Series = clone(e.Series)
	out.Related = clone(e.Related)
	return &out
}

// EventsV1 returns the events.k8s.io/v1 version of [EventKind]'s Events,
// for [meta.Scheme.RegisterServedVersion] ([Register] does it). Its
// conversions move each field to its namesake in the other form, as
// Kubernetes converts them; a core Event written without the newer fields
// reads with an empty reportingController and a null eventTime. Its field
// selectors are Kubernetes': regarding.* (involvedObject.* in core),
// reason, type and reportingController (core's reportingComponent); not
// core's source. Its writes are held to the stricter rules of new-style events
// (see [ValidateEventsV1Create]).
func EventsV1() meta.ServedVersion {
	labels := map[string]string{
		"reason": "reason", "type": "type", "reportingController": "reportingComponent",
	}
	for _, f := range []string{"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"} {
		labels["regarding."+f] = "involvedObject." + f
	}
	return meta.ServedVersion{
		Info: meta.KindInfo{
			Group: EventsGroup, Version: EventsVersion, Kind: "Event", Resource: "events", Namespaced: true,
			StrategicMergePatch: true, New: func() meta.Object { return &EventsV1Event{} },
			AtomicMaps: []string{"regarding", "related"},
		},
		Stored:      EventKind().GroupVersionKind(),
		FieldLabels: labels,
		ToStored:    func(obj meta.Object) meta.Object { return EventFromV1(obj.(*EventsV1Event)) },
		FromStored:  func(obj meta.Object) meta.Object { return EventToV1(obj.(*Event)) },
		ValidateCreate: func(obj meta.Object) meta.FieldErrors {
			return ValidateEventsV1Create(obj.(*Event))
		},
		ValidateUpdate: func(obj, old meta.Object) meta.FieldErrors {
			return ValidateEventsV1Update(obj.(*Event), old.(*Event))
		},
	}
}

// EventToV1 converts a core/v1 Event to events.k8s.io/v1, as Kubernetes
// does: every field to its namesake, nothing defaulted. The copy shares no
// memory with e.
func EventToV1(e *Event) *EventsV1Event {
	out := &EventsV1Event{
		TypeMeta:   meta.TypeMeta{APIVersion: EventsGroup + "/" + EventsVersion, Kind: "Event"},
		ObjectMeta: e.ObjectMeta.DeepCopy(), EventTime: e.EventTime,
		ReportingController: e.ReportingController, ReportingInstance: e.ReportingInstance,
		Action: e.Action, Reason: e.Reason, Regarding: e.InvolvedObject, Related: clone(e.Related),
		Note: e.Message, Type: e.Type, DeprecatedSource: e.Source,
		DeprecatedFirstTimestamp: e.FirstTimestamp, DeprecatedLastTimestamp: e.LastTimestamp,
		DeprecatedCount: e.Count,
	}
	if e.Series != nil {
		out.Series = &EventsV1Series{Count: e.Series.Count, LastObservedTime: e.Series.LastObservedTime}
	}
	return out
}

// EventFromV1 converts an events.k8s.io/v1 Event to core/v1, the inverse
// of [EventToV1]. The copy shares no memory with e.
func EventFromV1(e *EventsV1Event) *Event {
	out := &Event{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: e.ObjectMeta.DeepCopy(), InvolvedObject: e.Regarding,
		Reason: e.Reason, Message: e.Note, Source: e.DeprecatedSource,
		FirstTimestamp: e.DeprecatedFirstTimestamp, LastTimestamp: e.DeprecatedLastTimestamp,
		Count: e.DeprecatedCount, Type: e.Type, EventTime: e.EventTime, Action: e.Action,
		Related: clone(e.Related), ReportingController: e.ReportingController, ReportingInstance: e.ReportingInstance,
	}
	if e.Series != nil {
		out.Series = &EventSeries{Count: e.Series.Count, LastObservedTime: e.Series.LastObservedTime}
	}
	return out
}
