package meta

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// StatusError is the error every failed request returns: a [Status] with
// the HTTP code, a machine-readable reason and a message worded as the
// Kubernetes API server words it. Like client-go's errors.StatusError, it
// travels unchanged from the server to the caller (and, over HTTP, is the
// response body), so callers test it with the Is* predicates rather than
// by comparing messages:
//
//	if meta.IsConflict(err) { /* read again, reapply, retry */ }
//
// The predicates see through wrapping (fmt.Errorf("...: %w", err)).
type StatusError struct {
	ErrStatus Status
}

// Error returns the status message, e.g.
// `orders.menu.example.com "t1" not found`.
func (e *StatusError) Error() string {
	return e.ErrStatus.Message
}

// Status returns a deep copy of the error's Status, ready to be sent as the
// body of a response or of a watch ERROR event.
func (e *StatusError) Status() *Status {
	return e.ErrStatus.DeepCopyObject().(*Status)
}

// newStatusError fills in what every failure Status carries.
func NewStatusError(code int32, reason StatusReason, message string, details *StatusDetails) *StatusError {
	return &StatusError{ErrStatus: Status{
		TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   "Failure",
		Code:     code,
		Reason:   reason,
		Message:  message,
		Details:  details,
	}}
}

// NewNotFound reports that the object name of resource gr does not exist
// (404), e.g. `orders.menu.example.com "t1" not found`.
func NewNotFound(gr GroupResource, name string) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonNotFound], StatusReasonNotFound,
		fmt.Sprintf("%s %q not found", gr, name),
		&StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource})
}

// NewForbidden reports that the server refuses a request on the object
// name of resource gr (403), err saying why, e.g.
// `namespaces "default" is forbidden: this namespace may not be deleted`.
func NewForbidden(gr GroupResource, name string, err error) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonForbidden], StatusReasonForbidden,
		fmt.Sprintf("%s %q is forbidden: %v", gr, name, err),
		&StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource})
}

// NewAlreadyExists reports that a create found an object of the same name
// (409), e.g. `orders.menu.example.com "t1" already exists`.
func NewAlreadyExists(gr GroupResource, name string) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonAlreadyExists], StatusReasonAlreadyExists,
		fmt.Sprintf("%s %q already exists", gr, name),
		&StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource})
}

// ConflictMessage is the reason the server gives when an update or delete
// carries a stale resourceVersion, word for word as Kubernetes gives it.
const ConflictMessage = "the object has been modified; please apply your changes to the latest version and try again"

// NewConflict reports that a write lost a race (409): err says why, usually
// errors.New([ConflictMessage]). The message reads
// `Operation cannot be fulfilled on orders.menu.example.com "t1": <err>`.
// The cure is to read the object again, reapply the change and retry.
func NewConflict(gr GroupResource, name string, err error) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonConflict], StatusReasonConflict,
		fmt.Sprintf("Operation cannot be fulfilled on %s %q: %v", gr, name, err),
		&StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource})
}

// NewInvalid reports that object name of kind gk failed validation (422).
// Each cause names one field; build them with [FieldErrors]. The message
// lists them as Kubernetes does, one cause as is and several inside
// brackets:
//
//	Order.menu.example.com "t1" is invalid: metadata.name: Invalid value: "T1": ...
//	Order.menu.example.com "t1" is invalid: [metadata.name: Required value, spec.dish: Required value]
func NewInvalid(gk GroupKind, name string, causes []StatusCause) *StatusError {
	msg := fmt.Sprintf("%s %q is invalid", gk, name)
	if agg := aggregateCauses(causes); agg != "" {
		msg += ": " + agg
	}
	return NewStatusError(reasonCodes[StatusReasonInvalid], StatusReasonInvalid, msg,
		&StatusDetails{Name: name, Group: gk.Group, Kind: gk.Kind, Causes: append([]StatusCause(nil), causes...)})
}

// aggregateCauses joins causes into one message as Kubernetes joins an
// error list: "field: message" each, repeats dropped, several in brackets.
func aggregateCauses(causes []StatusCause) string {
	var parts []string
	for _, c := range causes {
		part := c.Message
		if c.Field != "" {
			part = c.Field + ": " + c.Message
		}
		if !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	if len(parts) > 1 {
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return strings.Join(parts, "")
}

// NewResourceExpired reports that a resourceVersion is older than the
// history the server keeps (410 Gone, reason Expired), e.g.
// `too old resource version: 5 (20)`. A watcher that gets it must list
// again and watch from the new list's resourceVersion.
func NewResourceExpired(message string) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonExpired], StatusReasonExpired, message, nil)
}

// NewBadRequest reports a request the server cannot make sense of (400):
// a malformed selector, the wrong kind in a body, an unknown field.
func NewBadRequest(message string) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonBadRequest], StatusReasonBadRequest, message, nil)
}

// NewMethodNotSupported reports that action (e.g. "update status") is not
// possible on resource gr (405).
func NewMethodNotSupported(gr GroupResource, action string) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonMethodNotAllowed], StatusReasonMethodNotAllowed,
		fmt.Sprintf("%s is not supported on resources of kind %q", action, gr),
		&StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// NewTimeout reports that a request did not complete in time (504); it may
// still take effect. The message reads "Timeout: <message>".
func NewTimeout(message string, retryAfterSeconds int) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonTimeout], StatusReasonTimeout,
		"Timeout: "+message, &StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// NewTooManyRequests reports that the server is shedding load (429) and
// suggests waiting retryAfterSeconds before trying again.
func NewTooManyRequests(message string, retryAfterSeconds int) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonTooManyRequests], StatusReasonTooManyRequests,
		message, &StatusDetails{RetryAfterSeconds: int32(retryAfterSeconds)})
}

// NewRequestEntityTooLarge reports a body over the server's limit (413).
// The message reads "Request entity too large: <message>".
func NewRequestEntityTooLarge(message string) *StatusError {
	return NewStatusError(reasonCodes[StatusReasonRequestEntityTooLarge], StatusReasonRequestEntityTooLarge,
		"Request entity too large: "+message, nil)
}

// NewInternalError reports a failure inside the server (500), e.g.
// "Internal error occurred: disk on fire". err's text is kept as the one
// cause. A nil err (a caller's mistake, which apimachinery's twin panics
// on) is reported as "<nil>" rather than panicking.
func NewInternalError(err error) *StatusError {
	text := fmt.Sprint(err)
	return NewStatusError(reasonCodes[StatusReasonInternalError], StatusReasonInternalError,
		"Internal error occurred: "+text,
		&StatusDetails{Causes: []StatusCause{{Message: text}}})
}

// FromObject turns the object of a watch ERROR event back into an error,
// like client-go's errors.FromObject: a failed [Status] becomes a
// [*StatusError]; anything else becomes a plain error naming what it was.
func FromObject(obj Object) error {
	if s, ok := obj.(*Status); ok && s != nil && s.Status != "Success" {
		return &StatusError{ErrStatus: *s.DeepCopyObject().(*Status)}
	}
	return fmt.Errorf("unexpected object in error event: %T", obj)
}

// reasonCodes pairs each reason with its HTTP code, as Kubernetes does:
// the one table behind the constructors' codes, the predicates and
// [ReasonForCode]. A predicate trusts a known reason over the code: an
// error with one of these reasons is what its reason says, whatever its
// code. An error with an unknown reason is judged by its code alone, as
// client-go does for errors from servers newer than itself.
var reasonCodes = map[StatusReason]int32{
	StatusReasonBadRequest:            400,
	StatusReasonForbidden:             403,
	StatusReasonNotFound:              404,
	StatusReasonMethodNotAllowed:      405,
	StatusReasonAlreadyExists:         409,
	StatusReasonConflict:              409,
	StatusReasonExpired:               410,
	StatusReasonRequestEntityTooLarge: 413,
	StatusReasonInvalid:               422,
	StatusReasonTooManyRequests:       429,
	StatusReasonInternalError:         500,
	StatusReasonTimeout:               504,
}

// ReasonForCode guesses the reason of a failure from its HTTP code alone,
// for an answer that carries no Status (a proxy's error page, say), as
// client-go does: the reason whose code it is (Conflict for 409),
// InternalError for any other 5xx, and "" otherwise.
func ReasonForCode(code int32) StatusReason {
	for _, r := range []StatusReason{StatusReasonBadRequest, StatusReasonNotFound, StatusReasonMethodNotAllowed,
		StatusReasonConflict, StatusReasonExpired, StatusReasonRequestEntityTooLarge, StatusReasonInvalid,
		StatusReasonTooManyRequests, StatusReasonTimeout} {
		if reasonCodes[r] == code {
			return r
		}
	}
	if code >= 500 {
		return StatusReasonInternalError
	}
	return ""
}

// reasonAndCode finds the [*StatusError] in err's chain.
func reasonAndCode(err error) (StatusReason, int32) {
	if err == nil {
		return "", 0 // and no StatusError to escape to the heap for errors.As
	}
	var se *StatusError
	if errors.As(err, &se) && se != nil {
		return se.ErrStatus.Reason, se.ErrStatus.Code
	}
	return "", 0
}

// is reports whether err has reason, or has an unknown reason and the
// reason's code.
func is(err error, reason StatusReason) bool {
	r, c := reasonAndCode(err)
	return r == reason || (!known(r) && c == reasonCodes[reason] && c != 0)
}

// ReasonForError returns the reason of the [*StatusError] in err's chain,
// or "" when there is none.
func ReasonForError(err error) StatusReason {
	r, _ := reasonAndCode(err)
	return r
}

// IsNotFound reports whether err says an object does not exist (404).
func IsNotFound(err error) bool { return is(err, StatusReasonNotFound) }

// IsForbidden reports whether err says the server refuses the request
// (403), e.g. a create in a namespace being deleted.
func IsForbidden(err error) bool { return is(err, StatusReasonForbidden) }

// IsAlreadyExists reports whether err says a create found an object of the
// same name.
func IsAlreadyExists(err error) bool { return ReasonForError(err) == StatusReasonAlreadyExists }

// IsConflict reports whether err says a write lost a race with another
// writer (409 Conflict): read again, reapply, retry.
func IsConflict(err error) bool { return is(err, StatusReasonConflict) }

// IsInvalid reports whether err says an object failed validation (422).
func IsInvalid(err error) bool {
	return is(err, StatusReasonInvalid)
}

// IsExpired reports whether err says a resourceVersion is too old (410,
// reason Expired, or any 410 Gone), like client-go's IsResourceExpired and
// IsGone together. A reflector relists when it sees one.
func IsExpired(err error) bool {
	r, c := reasonAndCode(err)
	return r == StatusReasonExpired || r == "Gone" || (!known(r) && c == reasonCodes[StatusReasonExpired])
}

// IsBadRequest reports whether err says the request was malformed (400).
func IsBadRequest(err error) bool { return is(err, StatusReasonBadRequest) }

// IsMethodNotSupported reports whether err says the action is not possible
// on the resource (405).
func IsMethodNotSupported(err error) bool {
	return is(err, StatusReasonMethodNotAllowed)
}

// IsTimeout reports whether err says the request timed out (504).
func IsTimeout(err error) bool { return is(err, StatusReasonTimeout) }

// IsTooManyRequests reports whether err says the server is shedding load
// (429). As in client-go, the code alone is enough.
func IsTooManyRequests(err error) bool {
	r, c := reasonAndCode(err)
	return r == StatusReasonTooManyRequests || c == reasonCodes[StatusReasonTooManyRequests]
}

// IsTooLarge reports whether err says a body was over the limit (413). As
// in client-go, the code alone is enough.
func IsTooLarge(err error) bool {
	r, c := reasonAndCode(err)
	return r == StatusReasonRequestEntityTooLarge || c == reasonCodes[StatusReasonRequestEntityTooLarge]
}

// IsInternalError reports whether err says the server failed (500).
func IsInternalError(err error) bool {
	return is(err, StatusReasonInternalError)
}

// SuggestsClientDelay returns the seconds the server asked the client to
// wait before retrying (429, 504), and whether it asked at all.
func SuggestsClientDelay(err error) (int, bool) {
	var se *StatusError
	if !errors.As(err, &se) || se == nil || se.ErrStatus.Details == nil {
		return 0, false
	}
	if s := se.ErrStatus.Details.RetryAfterSeconds; s > 0 {
		return int(s), true
	}
	return 0, false
}

// known reports whether r is a reason in reasonCodes.
func known(r StatusReason) bool {
	_, ok := reasonCodes[r]
	return ok
}
