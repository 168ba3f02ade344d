package meta

// StatusReason is a machine-readable reason for a failure, with
// Kubernetes' names (metav1.StatusReason).
type StatusReason string

// The reasons the server uses, with the HTTP code each goes with.
const (
	StatusReasonBadRequest            StatusReason = "BadRequest"            // 400
	StatusReasonForbidden             StatusReason = "Forbidden"             // 403
	StatusReasonNotFound              StatusReason = "NotFound"              // 404
	StatusReasonMethodNotAllowed      StatusReason = "MethodNotAllowed"      // 405
	StatusReasonAlreadyExists         StatusReason = "AlreadyExists"         // 409
	StatusReasonConflict              StatusReason = "Conflict"              // 409
	StatusReasonExpired               StatusReason = "Expired"               // 410
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge" // 413
	StatusReasonInvalid               StatusReason = "Invalid"               // 422
	StatusReasonTooManyRequests       StatusReason = "TooManyRequests"       // 429
	StatusReasonInternalError         StatusReason = "InternalError"         // 500
	StatusReasonTimeout               StatusReason = "Timeout"               // 504
)

// CauseType says what was wrong with one field (metav1.CauseType).
type CauseType string

// The cause types the server reports.
const (
	CauseTypeFieldValueRequired     CauseType = "FieldValueRequired"
	CauseTypeFieldValueInvalid      CauseType = "FieldValueInvalid"
	CauseTypeFieldValueNotFound     CauseType = "FieldValueNotFound"
	CauseTypeFieldValueNotSupported CauseType = "FieldValueNotSupported"
	CauseTypeFieldValueForbidden    CauseType = "FieldValueForbidden"
)

// StatusCause is one problem with one field of a request.
type StatusCause struct {
	Type    CauseType `json:"reason,omitempty"`
	Message string    `json:"message,omitempty"`
	// Field is the JSON path of the offending field, e.g. "metadata.name".
	Field string `json:"field,omitempty"`
}

// StatusDetails says which object a failure is about, and why in detail.
type StatusDetails struct {
	Name   string        `json:"name,omitempty"`
	Group  string        `json:"group,omitempty"`
	Kind   string        `json:"kind,omitempty"`
	UID    string        `json:"uid,omitempty"`
	Causes []StatusCause `json:"causes,omitempty"`
	// RetryAfterSeconds suggests when to try again (429, 504).
	RetryAfterSeconds int32 `json:"retryAfterSeconds,omitempty"`
}

// Status is the body of every failed request and of a watch's ERROR event,
// shaped as Kubernetes' metav1.Status so that an HTTP front can send it as
// it is. It satisfies [Object] so that it can travel in an [Event].
type Status struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	// Status is "Failure" (or "Success").
	Status  string         `json:"status,omitempty"`
	Message string         `json:"message,omitempty"`
	Reason  StatusReason   `json:"reason,omitempty"`
	Details *StatusDetails `json:"details,omitempty"`
	// Code is the HTTP status code.
	Code int32 `json:"code,omitempty"`
}

// DeepCopyObject returns a copy of s that shares no memory with it.
func (s *Status) DeepCopyObject() Object {
	out := *s
	out.ObjectMeta = s.ObjectMeta.DeepCopy()
	if s.Details != nil {
		d := *s.Details
		d.Causes = append([]StatusCause(nil), s.Details.Causes...)
		out.Details = &d
	}
	return &out
}
