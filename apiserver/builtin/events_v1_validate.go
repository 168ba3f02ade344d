package builtin

import (
	"fmt"
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The length limits of a new-style event's fields, as Kubernetes'.
const (
	EventReportingInstanceLengthLimit = 128
	EventActionLengthLimit            = 128
	EventReasonLengthLimit            = 128
	EventNoteLengthLimit              = 1024
)

// ValidateEventsV1Create holds an Event created through events.k8s.io/v1
// (given in its stored, core form) to Kubernetes' rules for new-style
// events: those of [validateEventLegacy], and eventTime required, type
// Normal or Warning, a series (if any) of count 2 or more with a
// lastObservedTime, and none of the deprecated fields (firstTimestamp,
// lastTimestamp, count, source) set. As in Kubernetes, the causes name
// the core fields (message, not note), except reportingController.
func ValidateEventsV1Create(e *Event) meta.FieldErrors {
	errs := validateEventLegacy(e, "reportingController")
	errs = append(errs, validateEventsV1Series(e)...)
	if e.EventTime.IsZero() {
		errs.Required("eventTime", "")
	}
	if e.Type != EventTypeNormal && e.Type != EventTypeWarning {
		errs.Invalid("type", "", "has invalid value: "+e.Type)
	}
	if !e.FirstTimestamp.IsZero() {
		errs.Invalid("firstTimestamp", "", "needs to be unset")
	}
	if !e.LastTimestamp.IsZero() {
		errs.Invalid("lastTimestamp", "", "needs to be unset")
	}
	if e.Count != 0 {
		errs.Invalid("count", "", "needs to be unset")
	}
	if e.Source != (EventSource{}) {
		errs.Invalid("source", "", "needs to be unset")
	}
	return errs
}

// ValidateEventsV1Update holds an update through events.k8s.io/v1 to
// Kubernetes' rules: those of [validateEventLegacy], a changed series
// checked as on create, and everything but metadata and series
// immutable, as a new-style event only ever grows its series.
func ValidateEventsV1Update(e, old *Event) meta.FieldErrors {
	errs := validateEventLegacy(e, "reportingController")
	if !reflect.DeepEqual(e.Series, old.Series) {
		errs = append(errs, validateEventsV1Series(e)...)
	}
	immutable := []struct {
		field    string
		now, was any
	}{
		{"involvedObject", e.InvolvedObject, old.InvolvedObject},
		{"reason", e.Reason, old.Reason},
		{"message", e.Message, old.Message},
		{"source", e.Source, old.Source},
		{"firstTimestamp", e.FirstTimestamp, old.FirstTimestamp},
		{"lastTimestamp", e.LastTimestamp, old.LastTimestamp},
		{"count", e.Count, old.Count},
		{"type", e.Type, old.Type},
		{"eventTime", e.EventTime, old.EventTime},
		{"action", e.Action, old.Action},
		{"related", e.Related, old.Related},
		{"reportingController", e.ReportingController, old.ReportingController},
		{"reportingInstance", e.ReportingInstance, old.ReportingInstance},
	}
	for _, f := range immutable {
		if !reflect.DeepEqual(f.now, f.was) {
			errs.Invalid(f.field, f.now, "field is immutable")
		}
	}
	return errs
}

// validateEventsV1Series checks a new-style event's series, if any.
func validateEventsV1Series(e *Event) meta.FieldErrors {
	var errs meta.FieldErrors
	if e.Series == nil {
		return nil
	}
	if e.Series.Count < 2 {
		errs.Invalid("series.count", "", "should be at least 2")
	}
	if e.Series.LastObservedTime.IsZero() {
		errs.Required("series.lastObservedTime", "")
	}
	return errs
}

// validateEventLegacy is what Kubernetes checks of every event, whatever
// its version. An event without eventTime (old-style) must be in its
// object's namespace (or "default", for an object without one). One with
// eventTime (new-style) must name its reporter (reportingController, a
// qualified name, and reportingInstance), its action and its reason,
// within their length limits, and a message of at most 1 KiB; an object
// without a namespace may only have events in "default" or
// "kube-system". The causes name the reporter's field as the request's
// version does: reportingComponent in core/v1, reportingController in
// events.k8s.io/v1.
func validateEventLegacy(e *Event, reporterField string) meta.FieldErrors {
	var errs meta.FieldErrors
	ns, objNS := e.Namespace, e.InvolvedObject.Namespace
	if e.EventTime.IsZero() {
		if objNS == "" && ns != "" && ns != "default" || objNS != "" && ns != objNS {
			errs.Invalid("involvedObject.namespace", objNS, "does not match event.namespace")
		}
		return errs
	}
	if objNS == "" && ns != "default" && ns != "kube-system" {
		errs.Invalid("involvedObject.namespace", objNS, "does not match event.namespace")
	}
	if e.ReportingController == "" {
		errs.Required(reporterField, "")
	}
	for _, msg := range meta.IsLabelKey(e.ReportingController) {
		errs.Invalid(reporterField, e.ReportingController, msg)
	}
	required := []struct {
		field, value string
		limit        int
	}{
		{"reportingInstance", e.ReportingInstance, EventReportingInstanceLengthLimit},
		{"action", e.Action, EventActionLengthLimit},
		{"reason", e.Reason, EventReasonLengthLimit},
		{"message", e.Message, EventNoteLengthLimit},
	}
	for _, f := range required {
		if f.value == "" && f.field != "message" {
			errs.Required(f.field, "")
		}
		if len(f.value) > f.limit {
			errs.Invalid(f.field, "", fmt.Sprintf("can have at most %d characters", f.limit))
		}
	}
	return errs
}
