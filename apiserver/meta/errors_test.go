package meta_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var (
	orders  = meta.GroupResource{Group: "menu.example.com", Resource: "orders"}
	orderGK = meta.GroupKind{Group: "menu.example.com", Kind: "Order"}
)

// predicates lists, in a fixed order, the names of the Is* predicates that
// hold for err, so that a test states exactly which ones should.
func predicates(err error) []string {
	all := []struct {
		name string
		is   func(error) bool
	}{
		{"NotFound", meta.IsNotFound},
		{"AlreadyExists", meta.IsAlreadyExists},
		{"Conflict", meta.IsConflict},
		{"Invalid", meta.IsInvalid},
		{"Expired", meta.IsExpired},
		{"BadRequest", meta.IsBadRequest},
		{"MethodNotSupported", meta.IsMethodNotSupported},
		{"Timeout", meta.IsTimeout},
		{"TooManyRequests", meta.IsTooManyRequests},
		{"TooLarge", meta.IsTooLarge},
		{"InternalError", meta.IsInternalError},
	}
	var got []string
	for _, p := range all {
		if p.is(err) {
			got = append(got, p.name)
		}
	}
	return got
}

func TestStatusErrors(t *testing.T) {
	var invalid meta.FieldErrors
	invalid.Invalid("metadata.name", "T1", "must be lowercase")
	var twoInvalid meta.FieldErrors
	twoInvalid.Required("metadata.name", "name or generateName is required")
	twoInvalid.Required("spec.dish", "")
	twoInvalid.Required("spec.dish", "") // Kubernetes drops repeated messages

	tests := []struct {
		name   string
		reason string
		err    *meta.StatusError
		msg    string
		code   int32
		preds  []string
	}{{
		name:   "NotFound",
		reason: "404 names the resource and the object, as kubectl shows it",
		err:    meta.NewNotFound(orders, "t1"),
		msg:    `orders.menu.example.com "t1" not found`,
		code:   404,
		preds:  []string{"NotFound"},
	}, {
		name:   "NotFoundCoreGroup",
		reason: "the core group has no suffix",
		err:    meta.NewNotFound(meta.GroupResource{Resource: "pods"}, "p"),
		msg:    `pods "p" not found`,
		code:   404,
		preds:  []string{"NotFound"},
	}, {
		name:   "AlreadyExists",
		reason: "AlreadyExists is a 409 but not a Conflict",
		err:    meta.NewAlreadyExists(orders, "t1"),
		msg:    `orders.menu.example.com "t1" already exists`,
		code:   409,
		preds:  []string{"AlreadyExists"},
	}, {
		name:   "Conflict",
		reason: "the stale-resourceVersion message, word for word",
		err:    meta.NewConflict(orders, "t1", errors.New(meta.ConflictMessage)),
		msg: `Operation cannot be fulfilled on orders.menu.example.com "t1": ` +
			`the object has been modified; please apply your changes to the latest version and try again`,
		code:  409,
		preds: []string{"Conflict"},
	}, {
		name:   "InvalidOneCause",
		reason: "one cause is printed bare",
		err:    meta.NewInvalid(orderGK, "T1", invalid),
		msg:    `Order.menu.example.com "T1" is invalid: metadata.name: Invalid value: "T1": must be lowercase`,
		code:   422,
		preds:  []string{"Invalid"},
	}, {
		name:   "InvalidTwoCauses",
		reason: "several causes go in brackets, repeats dropped",
		err:    meta.NewInvalid(orderGK, "", twoInvalid),
		msg: `Order.menu.example.com "" is invalid: ` +
			`[metadata.name: Required value: name or generateName is required, spec.dish: Required value]`,
		code:  422,
		preds: []string{"Invalid"},
	}, {
		name:   "InvalidNoCauses",
		reason: "no causes, no colon",
		err:    meta.NewInvalid(orderGK, "t1", nil),
		msg:    `Order.menu.example.com "t1" is invalid`,
		code:   422,
		preds:  []string{"Invalid"},
	}, {
		name:   "Expired",
		reason: "410 with reason Expired, the watch-from-compacted-RV error",
		err:    meta.NewResourceExpired("too old resource version: 5 (20)"),
		msg:    "too old resource version: 5 (20)",
		code:   410,
		preds:  []string{"Expired"},
	}, {
		name:   "BadRequest",
		err:    meta.NewBadRequest("bad selector"),
		msg:    "bad selector",
		code:   400,
		preds:  []string{"BadRequest"},
		reason: "the message is kept as given",
	}, {
		name:   "MethodNotSupported",
		reason: "405 names the action and the resource",
		err:    meta.NewMethodNotSupported(orders, "update status"),
		msg:    `update status is not supported on resources of kind "orders.menu.example.com"`,
		code:   405,
		preds:  []string{"MethodNotSupported"},
	}, {
		name:   "Timeout",
		reason: "504, prefixed like client-go's NewTimeoutError",
		err:    meta.NewTimeout("request did not complete within 1s", 2),
		msg:    "Timeout: request did not complete within 1s",
		code:   504,
		preds:  []string{"Timeout"},
	}, {
		name:   "TooManyRequests",
		reason: "429 keeps the message as given",
		err:    meta.NewTooManyRequests("slow down", 3),
		msg:    "slow down",
		code:   429,
		preds:  []string{"TooManyRequests"},
	}, {
		name:   "TooLarge",
		reason: "413, prefixed",
		err:    meta.NewRequestEntityTooLarge("limit is 1572864 bytes"),
		msg:    "Request entity too large: limit is 1572864 bytes",
		code:   413,
		preds:  []string{"TooLarge"},
	}, {
		name:   "InternalError",
		reason: "500, prefixed, the cause kept",
		err:    meta.NewInternalError(errors.New("disk on fire")),
		msg:    "Internal error occurred: disk on fire",
		code:   500,
		preds:  []string{"InternalError"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.msg {
				t.Errorf("Error() = %q, want %q (%s)", got, tt.msg, tt.reason)
			}
			st := tt.err.Status()
			if st.Code != tt.code || st.Status != "Failure" || st.Kind != "Status" || st.APIVersion != "v1" {
				t.Errorf("Status() = code %d status %q kind %q apiVersion %q, want %d Failure Status v1",
					st.Code, st.Status, st.Kind, st.APIVersion, tt.code)
			}
			if diff := cmp.Diff(tt.preds, predicates(tt.err)); diff != "" {
				t.Errorf("predicates mismatch (-want +got):\n%s", diff)
			}
			wrapped := fmt.Errorf("reconcile order: %w", tt.err)
			if diff := cmp.Diff(tt.preds, predicates(wrapped)); diff != "" {
				t.Errorf("predicates of a wrapped error mismatch (-want +got):\n%s", diff)
			}
			if got := meta.ReasonForError(wrapped); got != st.Reason {
				t.Errorf("ReasonForError(wrapped) = %q, want %q", got, st.Reason)
			}
		})
	}
}

func TestStatusJSON(t *testing.T) {
	var causes meta.FieldErrors
	causes.Invalid("metadata.name", "T1", "must be lowercase")
	tests := []struct {
		name string
		err  *meta.StatusError
		want string
	}{{
		name: "NotFound",
		err:  meta.NewNotFound(orders, "t1"),
		want: `{"apiVersion":"v1","kind":"Status","status":"Failure",` +
			`"message":"orders.menu.example.com \"t1\" not found","reason":"NotFound",` +
			`"details":{"name":"t1","group":"menu.example.com","kind":"orders"},"code":404}`,
	}, {
		name: "Invalid",
		err:  meta.NewInvalid(orderGK, "T1", causes),
		want: `{"apiVersion":"v1","kind":"Status","status":"Failure",` +
			`"message":"Order.menu.example.com \"T1\" is invalid: metadata.name: Invalid value: \"T1\": must be lowercase",` +
			`"reason":"Invalid","details":{"name":"T1","group":"menu.example.com","kind":"Order",` +
			`"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"T1\": must be lowercase","field":"metadata.name"}]},` +
			`"code":422}`,
	}, {
		name: "TooManyRequests",
		err:  meta.NewTooManyRequests("slow down", 3),
		want: `{"apiVersion":"v1","kind":"Status","status":"Failure","message":"slow down",` +
			`"reason":"TooManyRequests","details":{"retryAfterSeconds":3},"code":429}`,
	}, {
		name: "Expired",
		err:  meta.NewResourceExpired("too old resource version: 5 (20)"),
		want: `{"apiVersion":"v1","kind":"Status","status":"Failure",` +
			`"message":"too old resource version: 5 (20)","reason":"Expired","code":410}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.err.Status())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("JSON mismatch (-want +got):\n%s", diff)
			}
			var back meta.Status
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.err.ErrStatus, back); diff != "" {
				t.Errorf("JSON round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPredicatesByCode(t *testing.T) {
	// An error from a newer server may carry a reason this package does not
	// know; like client-go, the predicates then judge by the code alone.
	withCode := func(code int32, reason meta.StatusReason) error {
		return &meta.StatusError{ErrStatus: meta.Status{Code: code, Reason: reason}}
	}
	tests := []struct {
		name   string
		reason string
		err    error
		preds  []string
	}{
		{name: "Nil", reason: "nil is no API error", err: nil, preds: nil},
		{name: "Plain", reason: "a plain error is no API error", err: errors.New("x"), preds: nil},
		{name: "Gone", reason: "410 Gone counts as expired", err: withCode(410, "Gone"), preds: []string{"Expired"}},
		{name: "Unknown410", reason: "unknown reason, code 410", err: withCode(410, "Weird"), preds: []string{"Expired"}},
		{name: "Unknown404", reason: "unknown reason, code 404", err: withCode(404, ""), preds: []string{"NotFound"}},
		{name: "Unknown409", reason: "a bare 409 is a conflict", err: withCode(409, ""), preds: []string{"Conflict"}},
		{name: "Known reason wins", reason: "reason NotFound with code 500 is NotFound only",
			err: withCode(500, meta.StatusReasonNotFound), preds: []string{"NotFound"}},
		{name: "429 by code", reason: "429 counts whatever the reason, as in client-go",
			err: withCode(429, meta.StatusReasonBadRequest), preds: []string{"BadRequest", "TooManyRequests"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.preds, predicates(tt.err)); diff != "" {
				t.Errorf("%s: predicates mismatch (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestFromObject(t *testing.T) {
	orig := meta.NewResourceExpired("too old resource version: 5 (20)")
	err := meta.FromObject(orig.Status())
	if !meta.IsExpired(err) || err.Error() != orig.Error() {
		t.Errorf("FromObject(expired status) = %v, want the expired error back", err)
	}
	err = meta.FromObject(&meta.Status{Status: "Success"})
	if err == nil || meta.ReasonForError(err) != "" {
		t.Errorf("FromObject(success) = %v, want a plain error", err)
	}
	if err := meta.FromObject(nil); err == nil {
		t.Error("FromObject(nil) = nil, want an error")
	}
}

func TestSuggestsClientDelay(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		seconds int
		ok      bool
	}{
		{"TooManyRequests", meta.NewTooManyRequests("slow down", 3), 3, true},
		{"Timeout", fmt.Errorf("wrapped: %w", meta.NewTimeout("x", 2)), 2, true},
		{"NoDelay", meta.NewTooManyRequests("slow down", 0), 0, false},
		{"NotFound", meta.NewNotFound(orders, "t1"), 0, false},
		{"Plain", errors.New("x"), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := meta.SuggestsClientDelay(tt.err)
			if s != tt.seconds || ok != tt.ok {
				t.Errorf("SuggestsClientDelay = %d, %v; want %d, %v", s, ok, tt.seconds, tt.ok)
			}
		})
	}
}

func TestStatusIsACopy(t *testing.T) {
	var causes meta.FieldErrors
	causes.Required("spec.dish", "")
	err := meta.NewInvalid(orderGK, "t1", causes)
	st := err.Status()
	st.Details.Causes[0].Field = "changed"
	causes[0].Field = "changed too"
	if got := err.ErrStatus.Details.Causes[0].Field; got != "spec.dish" {
		t.Errorf("cause field = %q after mutating copies, want spec.dish", got)
	}
}

// TestReasonForCode: a failure without a Status is given the reason of
// its code, as client-go guesses it; and the constructors' errors carry
// the code of their reason, so that the guess of their code is their
// reason (but for AlreadyExists, whose 409 reads as Conflict).
func TestReasonForCode(t *testing.T) {
	for code, want := range map[int32]meta.StatusReason{400: meta.StatusReasonBadRequest, 403: "", 404: meta.StatusReasonNotFound,
		409: meta.StatusReasonConflict, 410: meta.StatusReasonExpired, 422: meta.StatusReasonInvalid, 429: meta.StatusReasonTooManyRequests,
		500: meta.StatusReasonInternalError, 503: meta.StatusReasonInternalError, 504: meta.StatusReasonTimeout, 302: ""} {
		if got := meta.ReasonForCode(code); got != want {
			t.Errorf("ReasonForCode(%d) = %q, want %q", code, got, want)
		}
	}
	gr := meta.GroupResource{Resource: "widgets"}
	for _, err := range []*meta.StatusError{meta.NewNotFound(gr, "w"), meta.NewBadRequest("x"), meta.NewResourceExpired("x"),
		meta.NewInvalid(meta.GroupKind{Kind: "Widget"}, "w", nil), meta.NewTooManyRequests("x", 1), meta.NewInternalError(errors.New("x"))} {
		if got := meta.ReasonForCode(err.ErrStatus.Code); got != err.ErrStatus.Reason {
			t.Errorf("%v: code %d reads as %q, want %q", err, err.ErrStatus.Code, got, err.ErrStatus.Reason)
		}
	}
}

// A nil error handed to NewInternalError is a caller's mistake; it must be
// reported, not panic (apimachinery's NewInternalError panics on it).
func TestNewInternalErrorOfNil(t *testing.T) {
	err := meta.NewInternalError(nil)
	if got, want := err.Error(), "Internal error occurred: <nil>"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !meta.IsInternalError(err) {
		t.Errorf("IsInternalError(%v) = false, want true", err)
	}
	if diff := cmp.Diff([]meta.StatusCause{{Message: "<nil>"}}, err.ErrStatus.Details.Causes); diff != "" {
		t.Errorf("causes (-want +got):\n%s", diff)
	}
}
