package builtin

import (
	"google.golang.org/protobuf/encoding/protowire"

	kp "github.com/kitchensync/kitchensync/apiserver/internal/kubeproto"
)

// MarshalProtobuf writes l in Kubernetes' protobuf form of a
// coordination.k8s.io/v1 Lease (the message that goes inside the
// envelope), as client-go's typed clients read it.
func (l *Lease) MarshalProtobuf() ([]byte, error) {
	b := kp.AppendMessage(nil, 1, kp.AppendObjectMeta(nil, &l.ObjectMeta))
	var s []byte
	s = kp.AppendOptString(s, 1, l.Spec.HolderIdentity)
	s = kp.AppendOptInt32(s, 2, l.Spec.LeaseDurationSeconds)
	if t := l.Spec.AcquireTime; t != nil {
		s = kp.AppendMessage(s, 3, kp.AppendTimestamp(nil, t.Time))
	}
	if t := l.Spec.RenewTime; t != nil {
		s = kp.AppendMessage(s, 4, kp.AppendTimestamp(nil, t.Time))
	}
	s = kp.AppendOptInt32(s, 5, l.Spec.LeaseTransitions)
	s = kp.AppendOptString(s, 6, l.Spec.Strategy)
	s = kp.AppendOptString(s, 7, l.Spec.PreferredHolder)
	return kp.AppendMessage(b, 2, s), nil
}

// MarshalProtobuf writes e in Kubernetes' protobuf form of a core/v1
// Event. An unset eventTime is written as the zero time, as client-go
// writes a zero MicroTime; unset firstTimestamp and lastTimestamp too.
func (e *Event) MarshalProtobuf() ([]byte, error) {
	b := kp.AppendMessage(nil, 1, kp.AppendObjectMeta(nil, &e.ObjectMeta))
	b = kp.AppendMessage(b, 2, appendObjectReference(nil, e.InvolvedObject))
	b = kp.AppendString(b, 3, e.Reason)
	b = kp.AppendString(b, 4, e.Message)
	b = kp.AppendMessage(b, 5, kp.AppendString(kp.AppendString(nil, 1, e.Source.Component), 2, e.Source.Host))
	b = kp.AppendMessage(b, 6, kp.AppendTimestamp(nil, e.FirstTimestamp.Time))
	b = kp.AppendMessage(b, 7, kp.AppendTimestamp(nil, e.LastTimestamp.Time))
	b = kp.AppendInt32(b, 8, e.Count)
	b = kp.AppendString(b, 9, e.Type)
	b = kp.AppendMessage(b, 10, kp.AppendTimestamp(nil, e.EventTime.Time))
	if s := e.Series; s != nil {
		b = kp.AppendMessage(b, 11, kp.AppendMessage(kp.AppendInt32(nil, 1, s.Count),
			2, kp.AppendTimestamp(nil, s.LastObservedTime.Time)))
	}
	b = kp.AppendString(b, 12, e.Action)
	if r := e.Related; r != nil {
		b = kp.AppendMessage(b, 13, appendObjectReference(nil, *r))
	}
	b = kp.AppendString(b, 14, e.ReportingController)
	return kp.AppendString(b, 15, e.ReportingInstance), nil
}

func appendObjectReference(b []byte, r ObjectReference) []byte {
	for i, s := range [...]string{r.Kind, r.Namespace, r.Name, r.UID, r.APIVersion, r.ResourceVersion, r.FieldPath} {
		b = kp.AppendString(b, protowire.Number(i+1), s)
	}
	return b
}

// MarshalProtobuf writes n in Kubernetes' protobuf form of a core/v1
// Namespace.
func (n *Namespace) MarshalProtobuf() ([]byte, error) {
	b := kp.AppendMessage(nil, 1, kp.AppendObjectMeta(nil, &n.ObjectMeta))
	b = kp.AppendMessage(b, 2, kp.AppendStrings(nil, 1, n.Spec.Finalizers))
	st := kp.AppendString(nil, 1, n.Status.Phase)
	for _, c := range n.Status.Conditions {
		// core/v1 NamespaceCondition: type 1, status 2, lastTransitionTime 4, reason 5, message 6.
		m := kp.AppendString(kp.AppendString(nil, 1, c.Type), 2, string(c.Status))
		m = kp.AppendMessage(m, 4, kp.AppendTimestamp(nil, c.LastTransitionTime.Time))
		st = kp.AppendMessage(st, 2, kp.AppendString(kp.AppendString(m, 5, c.Reason), 6, c.Message))
	}
	return kp.AppendMessage(b, 3, st), nil
}
