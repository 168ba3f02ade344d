package builtin

import (
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// UnmarshalProtobuf reads l from Kubernetes' protobuf form of a
// coordination.k8s.io/v1 Lease (the message inside the envelope, as
// client-go's typed clients send it). Unknown fields are skipped.
func (l *Lease) UnmarshalProtobuf(b []byte) error {
	return eachField(b, "Lease", func(f pbField) error {
		switch f.num {
		case 1:
			return decodeEmbedded(f, func(b []byte) error { return decodeObjectMeta(b, &l.ObjectMeta) })
		case 2:
			return decodeEmbedded(f, func(b []byte) error { return l.Spec.unmarshalProtobuf(b) })
		}
		return nil
	})
}

func (s *LeaseSpec) unmarshalProtobuf(b []byte) error {
	return eachField(b, "spec", func(f pbField) (err error) {
		switch f.num {
		case 1:
			s.HolderIdentity, err = ptr(f.str())
		case 2:
			s.LeaseDurationSeconds, err = ptr(f.int32())
		case 3:
			s.AcquireTime, err = ptr(f.microTime())
		case 4:
			s.RenewTime, err = ptr(f.microTime())
		case 5:
			s.LeaseTransitions, err = ptr(f.int32())
		case 6:
			s.Strategy, err = ptr(f.str())
		case 7:
			s.PreferredHolder, err = ptr(f.str())
		}
		return err
	})
}

// UnmarshalProtobuf reads e from Kubernetes' protobuf form of a core/v1
// Event. Unknown fields are skipped.
func (e *Event) UnmarshalProtobuf(b []byte) error {
	return eachField(b, "Event", func(f pbField) (err error) {
		switch f.num {
		case 1:
			err = decodeEmbedded(f, func(b []byte) error { return decodeObjectMeta(b, &e.ObjectMeta) })
		case 2:
			e.InvolvedObject, err = f.objectReference()
		case 3:
			e.Reason, err = f.str()
		case 4:
			e.Message, err = f.str()
		case 5:
			err = decodeEmbedded(f, e.Source.unmarshalProtobuf)
		case 6:
			e.FirstTimestamp, err = f.time()
		case 7:
			e.LastTimestamp, err = f.time()
		case 8:
			e.Count, err = f.int32()
		case 9:
			e.Type, err = f.str()
		case 10:
			e.EventTime, err = f.microTime()
		case 11:
			e.Series = &EventSeries{}
			err = decodeEmbedded(f, e.Series.unmarshalProtobuf)
		case 12:
			e.Action, err = f.str()
		case 13:
			e.Related, err = ptr(f.objectReference())
		case 14:
			e.ReportingController, err = f.str()
		case 15:
			e.ReportingInstance, err = f.str()
		}
		return err
	})
}

func (f pbField) objectReference() (ObjectReference, error) {
	var r ObjectReference
	return r, decodeEmbedded(f, func(b []byte) error {
		return eachField(b, "ObjectReference", func(g pbField) (err error) {
			fields := [...]*string{1: &r.Kind, 2: &r.Namespace, 3: &r.Name, 4: &r.UID,
				5: &r.APIVersion, 6: &r.ResourceVersion, 7: &r.FieldPath}
			if g.num > 0 && int(g.num) < len(fields) {
				*fields[g.num], err = g.str()
			}
			return err
		})
	})
}

func (s *EventSource) unmarshalProtobuf(b []byte) error {
	return eachField(b, "source", func(f pbField) (err error) {
		switch f.num {
		case 1:
			s.Component, err = f.str()
		case 2:
			s.Host, err = f.str()
		}
		return err
	})
}

func (s *EventSeries) unmarshalProtobuf(b []byte) error {
	return eachField(b, "series", func(f pbField) (err error) {
		switch f.num {
		case 1:
			s.Count, err = f.int32()
		case 2:
			s.LastObservedTime, err = f.microTime()
		}
		return err
	})
}

// UnmarshalProtobuf reads n from Kubernetes' protobuf form of a core/v1
// Namespace. Unknown fields are skipped.
func (n *Namespace) UnmarshalProtobuf(b []byte) error {
	return eachField(b, "Namespace", func(f pbField) error {
		switch f.num {
		case 1:
			return decodeEmbedded(f, func(b []byte) error { return decodeObjectMeta(b, &n.ObjectMeta) })
		case 2:
			return decodeEmbedded(f, func(b []byte) error {
				return eachField(b, "spec", func(g pbField) error {
					if g.num != 1 {
						return nil
					}
					s, err := g.str()
					n.Spec.Finalizers = append(n.Spec.Finalizers, s)
					return err
				})
			})
		case 3:
			return decodeEmbedded(f, func(b []byte) error {
				return eachField(b, "status", func(g pbField) (err error) {
					switch g.num {
					case 1:
						n.Status.Phase, err = g.str()
					case 2:
						err = decodeEmbedded(g, func(b []byte) error {
							c, err := namespaceCondition(b)
							n.Status.Conditions = append(n.Status.Conditions, c)
							return err
						})
					}
					return err
				})
			})
		}
		return nil
	})
}

// decodeEmbedded hands the bytes of f, an embedded message, to decode.
func decodeEmbedded(f pbField, decode func([]byte) error) error {
	b, err := f.message()
	if err != nil {
		return err
	}
	return decode(b)
}

// namespaceCondition reads a core/v1 NamespaceCondition.
func namespaceCondition(b []byte) (c meta.Condition, err error) {
	err = eachField(b, "conditions", func(f pbField) (err error) {
		switch f.num {
		case 1:
			c.Type, err = f.str()
		case 2:
			var s string
			s, err = f.str()
			c.Status = meta.ConditionStatus(s)
		case 4:
			c.LastTransitionTime, err = f.time()
		case 5:
			c.Reason, err = f.str()
		case 6:
			c.Message, err = f.str()
		}
		return err
	})
	return c, err
}
