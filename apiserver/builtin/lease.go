package builtin

import (
	"fmt"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// CoordinationGroup and CoordinationVersion name Lease's API group.
const (
	CoordinationGroup   = "coordination.k8s.io"
	CoordinationVersion = "v1"
)

// LeasesResource names the collection of [Lease] objects.
var LeasesResource = meta.GroupVersionResource{Group: CoordinationGroup, Version: CoordinationVersion, Resource: "leases"}

// Lease is Kubernetes' coordination.k8s.io/v1 Lease: a namespaced record
// of who holds a lock and until when. Leader election keeps one per
// controller; kubelets keep one per node as a heartbeat.
type Lease struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            LeaseSpec `json:"spec"`
}

// LeaseSpec is the state of a lease, with Kubernetes' field names. Every
// field is optional, as there.
type LeaseSpec struct {
	// HolderIdentity is who holds the lease; empty or nil means nobody.
	HolderIdentity *string `json:"holderIdentity,omitempty"`
	// LeaseDurationSeconds is how long others must wait, after the last
	// renewal they observed, before taking the lease over.
	LeaseDurationSeconds *int32 `json:"leaseDurationSeconds,omitempty"`
	// AcquireTime is when the current holder took the lease.
	AcquireTime *MicroTime `json:"acquireTime,omitempty"`
	// RenewTime is when the holder last renewed it.
	RenewTime *MicroTime `json:"renewTime,omitempty"`
	// LeaseTransitions counts the changes of holder.
	LeaseTransitions *int32 `json:"leaseTransitions,omitempty"`
	// Strategy and PreferredHolder belong to coordinated leader election
	// (Kubernetes 1.31+); they are kept, not acted upon.
	Strategy        *string `json:"strategy,omitempty"`
	PreferredHolder *string `json:"preferredHolder,omitempty"`
}

// DeepCopyObject returns a copy of l that shares no memory with it.
func (l *Lease) DeepCopyObject() meta.Object {
	out := *l
	out.ObjectMeta = l.ObjectMeta.DeepCopy()
	s := &out.Spec
	s.HolderIdentity = clone(l.Spec.HolderIdentity)
	s.LeaseDurationSeconds = clone(l.Spec.LeaseDurationSeconds)
	s.AcquireTime = clone(l.Spec.AcquireTime)
	s.RenewTime = clone(l.Spec.RenewTime)
	s.LeaseTransitions = clone(l.Spec.LeaseTransitions)
	s.Strategy = clone(l.Spec.Strategy)
	s.PreferredHolder = clone(l.Spec.PreferredHolder)
	return &out
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// LeaseKind returns the registration of [Lease]: namespaced, resource
// "leases" in coordination.k8s.io/v1, with a negative duration refused.
func LeaseKind() meta.KindInfo {
	return meta.KindInfo{
		StrategicMergePatch: true, AllowCreateOnUpdate: true, NoGeneration: true,
		Group: CoordinationGroup, Version: CoordinationVersion, Kind: "Lease", Resource: "leases", Namespaced: true,
		New: func() meta.Object { return &Lease{} },
		Validate: meta.ValidateAs(func(l *Lease) meta.FieldErrors {
			var errs meta.FieldErrors
			if d := l.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
				errs.Invalid("spec.leaseDurationSeconds", *d, "must be greater than 0")
			}
			if n := l.Spec.LeaseTransitions; n != nil && *n < 0 {
				errs.Invalid("spec.leaseTransitions", *n, "must be greater than or equal to 0")
			}
			return errs
		}),
	}
}

// Register registers every built-in kind in s, all or nothing, and
// serves Events in events.k8s.io/v1 too ([EventsV1]).
func Register(s *meta.Scheme) error {
	if _, taken := s.KindForResource(EventsV1Resource); taken {
		// Checked first: the served version could not be added after
		// the kinds, and Register would be half done.
		var errs meta.FieldErrors
		errs.Invalid("Resource", EventsV1Resource.Resource, "events.k8s.io/v1 events is registered as a kind already")
		return errs.ToError(meta.GroupKind{Kind: "KindInfo"}, "events.k8s.io/v1, Kind=Event")
	}
	if err := s.Register(LeaseKind(), EventKind()); err != nil {
		return err
	}
	return s.RegisterServedVersion(EventsV1())
}

// microTimeFormat is Kubernetes' MicroTime on the wire: RFC 3339 with
// microseconds, in UTC.
const microTimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// MicroTime is a time with microsecond precision, as Kubernetes'
// metav1.MicroTime, which Lease uses for acquireTime and renewTime.
type MicroTime struct {
	time.Time
}

// NewMicroTime returns t truncated to microseconds, in UTC.
func NewMicroTime(t time.Time) MicroTime {
	return MicroTime{t.UTC().Truncate(time.Microsecond)}
}

// MarshalJSON writes the time as "2006-01-02T15:04:05.000000Z".
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(microTimeFormat) + `"`), nil
}

// UnmarshalJSON reads the wire form, or any RFC 3339 time, or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*t = MicroTime{}
		return nil
	}
	if !strings.HasPrefix(s, `"`) || !strings.HasSuffix(s, `"`) || len(s) < 2 {
		return fmt.Errorf("MicroTime: %s is not a JSON string", s)
	}
	parsed, err := time.Parse(time.RFC3339Nano, s[1:len(s)-1])
	if err != nil {
		return fmt.Errorf("MicroTime: %w", err)
	}
	*t = MicroTime{parsed.UTC()}
	return nil
}
