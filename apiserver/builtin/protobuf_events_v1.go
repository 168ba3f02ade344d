package builtin

import (
	kp "github.com/kitchensync/kitchensync/apiserver/internal/kubeproto"
)

// MarshalProtobuf writes e in Kubernetes' protobuf form of an
// events.k8s.io/v1 Event, with k8s.io/api's field numbers. Unset times
// are written as the zero time, as client-go writes them.
func (e *EventsV1Event) MarshalProtobuf() ([]byte, error) {
	b := kp.AppendMessage(nil, 1, kp.AppendObjectMeta(nil, &e.ObjectMeta))
	b = kp.AppendMessage(b, 2, kp.AppendTimestamp(nil, e.EventTime.Time))
	if s := e.Series; s != nil {
		b = kp.AppendMessage(b, 3, kp.AppendMessage(kp.AppendInt32(nil, 1, s.Count),
			2, kp.AppendTimestamp(nil, s.LastObservedTime.Time)))
	}
	b = kp.AppendString(b, 4, e.ReportingController)
	b = kp.AppendString(b, 5, e.ReportingInstance)
	b = kp.AppendString(b, 6, e.Action)
	b = kp.AppendString(b, 7, e.Reason)
	b = kp.AppendMessage(b, 8, appendObjectReference(nil, e.Regarding))
	if r := e.Related; r != nil {
		b = kp.AppendMessage(b, 9, appendObjectReference(nil, *r))
	}
	b = kp.AppendString(b, 10, e.Note)
	b = kp.AppendString(b, 11, e.Type)
	src := e.DeprecatedSource
	b = kp.AppendMessage(b, 12, kp.AppendString(kp.AppendString(nil, 1, src.Component), 2, src.Host))
	b = kp.AppendMessage(b, 13, kp.AppendTimestamp(nil, e.DeprecatedFirstTimestamp.Time))
	b = kp.AppendMessage(b, 14, kp.AppendTimestamp(nil, e.DeprecatedLastTimestamp.Time))
	return kp.AppendInt32(b, 15, e.DeprecatedCount), nil
}

// UnmarshalProtobuf reads e from Kubernetes' protobuf form of an
// events.k8s.io/v1 Event, as client-go's typed EventsV1 client (which
// tools/events and controller-runtime's recorder use) sends it. Unknown
// fields are skipped.
func (e *EventsV1Event) UnmarshalProtobuf(b []byte) error {
	return eachField(b, "Event", func(f pbField) (err error) {
		switch f.num {
		case 1:
			err = decodeEmbedded(f, func(b []byte) error { return decodeObjectMeta(b, &e.ObjectMeta) })
		case 2:
			e.EventTime, err = f.microTime()
		case 3:
			var s EventSeries
			err = decodeEmbedded(f, s.unmarshalProtobuf)
			e.Series = &EventsV1Series{Count: s.Count, LastObservedTime: s.LastObservedTime}
		case 4, 5, 6, 7, 10, 11:
			fields := map[int]*string{4: &e.ReportingController, 5: &e.ReportingInstance, 6: &e.Action,
				7: &e.Reason, 10: &e.Note, 11: &e.Type}
			*fields[int(f.num)], err = f.str()
		case 8:
			e.Regarding, err = f.objectReference()
		case 9:
			e.Related, err = ptr(f.objectReference())
		case 12:
			err = decodeEmbedded(f, e.DeprecatedSource.unmarshalProtobuf)
		case 13:
			e.DeprecatedFirstTimestamp, err = f.time()
		case 14:
			e.DeprecatedLastTimestamp, err = f.time()
		case 15:
			e.DeprecatedCount, err = f.int32()
		}
		return err
	})
}
