package record

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// DefaultQueueSize is how many events wait to be written before new ones
// are dropped, as client-go's broadcaster queues 1000.
const DefaultQueueSize = 1000

// EventClient writes events in one namespace: the events resource's
// client. *apiserver.ResourceClient (in process) and *rest.ResourceClient
// (over HTTP) satisfy it.
type EventClient interface {
	Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error)
	Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, error)
}

// EventClientFor returns the [EventClient] for namespace, e.g.
//
//	func(ns string) record.EventClient { return c.Resource(builtin.EventsResource).Namespace(ns) }
type EventClientFor func(namespace string) EventClient

// Options configures a [Recorder].
type Options struct {
	// Component names the reporter: source.component and
	// reportingComponent (e.g. "chef"). Required.
	Component string
	// Host and Instance fill source.host and reportingInstance.
	Host, Instance string
	// Scheme, when set, fills the involved object's kind and apiVersion
	// for objects whose TypeMeta is empty.
	Scheme *meta.Scheme
	// QueueSize bounds the queue of unwritten events (default
	// [DefaultQueueSize]).
	QueueSize int
	// Retries is how many times a failed write is tried again (default
	// 3), RetryDelay apart (default 1s).
	Retries    int
	RetryDelay time.Duration
	// ErrorHandler hears of events that could not be written (nil: they
	// are dropped silently).
	ErrorHandler func(*builtin.Event, error)
}

// Recorder takes notes about objects and, in [Recorder.Run], writes them
// as Events through a [Correlator]. Like client-go's EventRecorder, the
// recording methods never block and never fail. Safe for concurrent use;
// make one with [NewRecorder].
type Recorder struct {
	events     EventClientFor
	opts       Options
	correlator *Correlator
	queue      chan *builtin.Event

	mu        sync.Mutex // guards lastNanos
	lastNanos int64      // of the last name given: names stay unique within one instant
}

// NewRecorder returns a recorder writing through events. It fails if
// events is nil or opts.Component is empty.
func NewRecorder(events EventClientFor, opts Options) (*Recorder, error) {
	if events == nil || opts.Component == "" {
		return nil, fmt.Errorf("record.NewRecorder needs an EventClientFor and Options.Component")
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.Retries == 0 {
		opts.Retries = 3
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = time.Second
	}
	return &Recorder{events: events, opts: opts, correlator: NewCorrelator(),
		queue: make(chan *builtin.Event, opts.QueueSize)}, nil
}

// Event notes that reason happened to obj, of eventType
// ([builtin.EventTypeNormal] or [builtin.EventTypeWarning]). A nil obj is
// ignored.
func (r *Recorder) Event(obj meta.Object, eventType, reason, message string) {
	if obj == nil || obj.GetObjectMeta() == nil {
		return
	}
	e := r.newEvent(obj, eventType, reason, message, time.Now())
	select {
	case r.queue <- e:
	default: // full: drop, as client-go's broadcaster does
		if h := r.opts.ErrorHandler; h != nil {
			h(e, fmt.Errorf("record: event queue full (%d), event dropped", cap(r.queue)))
		}
	}
}

// Eventf is [Recorder.Event] with a message formatted by [fmt.Sprintf].
func (r *Recorder) Eventf(obj meta.Object, eventType, reason, format string, args ...any) {
	r.Event(obj, eventType, reason, fmt.Sprintf(format, args...))
}

func (r *Recorder) newEvent(obj meta.Object, eventType, reason, message string, now time.Time) *builtin.Event {
	m, tm := obj.GetObjectMeta(), obj.GetTypeMeta()
	ref := builtin.ObjectReference{Kind: tm.Kind, APIVersion: tm.APIVersion, Namespace: m.Namespace, Name: m.Name,
		UID: m.UID, ResourceVersion: m.ResourceVersion}
	if ref.Kind == "" && r.opts.Scheme != nil {
		if info, err := r.opts.Scheme.KindFor(obj); err == nil {
			ref.Kind, ref.APIVersion = info.Kind, info.GroupVersionKind().GroupVersion().String()
		}
	}
	ns := m.Namespace
	if ns == "" {
		ns = "default" // events about cluster-scoped objects go there, as in client-go
	}
	return &builtin.Event{
		ObjectMeta:     meta.ObjectMeta{Name: eventName(m.Name, r.nanos(now)), Namespace: ns},
		InvolvedObject: ref, Reason: reason, Message: message, Type: eventType,
		Source:         builtin.EventSource{Component: r.opts.Component, Host: r.opts.Host},
		FirstTimestamp: meta.NewTime(now), LastTimestamp: meta.NewTime(now),
		ReportingController: r.opts.Component, ReportingInstance: r.opts.Instance,
	}
}

// nanos returns now in nanoseconds, or one more than the last it returned.
func (r *Recorder) nanos(now time.Time) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastNanos = max(now.UnixNano(), r.lastNanos+1)
	return r.lastNanos
}

// Run writes the recorded events until ctx ends; events still queued
// then are dropped. Run it once, in its own goroutine.
func (r *Recorder) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-r.queue:
			r.write(ctx, e)
		}
	}
}

// write correlates e and writes it, trying again after a failure.
func (r *Recorder) write(ctx context.Context, e *builtin.Event) {
	c := r.correlator.Correlate(e, time.Now())
	if c.Skip {
		return
	}
	var err error
	for try := 0; try <= r.opts.Retries; try++ {
		if try > 0 && !sleep(ctx, r.opts.RetryDelay) {
			return
		}
		if err = r.writeOnce(ctx, c); err == nil || meta.IsAlreadyExists(err) || meta.IsInvalid(err) {
			break
		}
	}
	if err != nil && !meta.IsAlreadyExists(err) && r.opts.ErrorHandler != nil {
		r.opts.ErrorHandler(c.Event, err)
	}
}

// writeOnce patches the existing event, or creates it (also when the one
// to patch is gone: expired, or deleted).
func (r *Recorder) writeOnce(ctx context.Context, c Correlation) error {
	client := r.events(c.Event.Namespace)
	if c.Patch != nil {
		_, err := client.Patch(ctx, c.Event.Name, meta.MergePatchType, c.Patch, meta.PatchOptions{})
		if !meta.IsNotFound(err) {
			return err
		}
	}
	e := c.Event.DeepCopyObject().(*builtin.Event)
	e.ResourceVersion = ""
	_, err := client.Create(ctx, e, meta.CreateOptions{})
	return err
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
