package adapt

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// WidgetList is the client-go list type of Widget.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items           []Widget `json:"items"`
}

// DeepCopyObject implements runtime.Object.
func (l *WidgetList) DeepCopyObject() runtime.Object {
	out := *l
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = make([]Widget, len(l.Items))
	for i := range l.Items {
		out.Items[i] = *l.Items[i].DeepCopyObject().(*Widget)
	}
	return &out
}

// ListerWatcher is the part of kitchensync's informer.ListerWatcher that
// the adapter calls (an *apiserver.ResourceClient, or a Gate over one).
type ListerWatcher interface {
	List(ctx context.Context, opts meta.ListOptions) (*meta.List, error)
	Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error)
}

// ClientGoListWatch returns a client-go ListerWatcher over a kitchensync
// one: it converts options, objects, lists, watch events and errors
// (a kitchensync *StatusError becomes an apimachinery *StatusError, so
// that client-go's reflector recognises 410 Expired and relists).
func ClientGoListWatch(lw ListerWatcher) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			list, err := lw.List(ctx, ListOptions(o))
			if err != nil {
				return nil, Error(err)
			}
			out := &WidgetList{ListMeta: metav1.ListMeta{ResourceVersion: list.ResourceVersion, Continue: list.Continue, RemainingItemCount: list.RemainingItemCount}}
			out.Items = make([]Widget, len(list.Items))
			for i, obj := range list.Items {
				out.Items[i] = *FromKS(obj.(*apiservertest.Widget))
			}
			return out, nil
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			w, err := lw.Watch(ctx, ListOptions(o))
			if err != nil {
				return nil, Error(err)
			}
			return newWatch(w), nil
		},
	}
}

// ListOptions converts client-go list options to kitchensync's.
func ListOptions(o metav1.ListOptions) meta.ListOptions {
	return meta.ListOptions{
		LabelSelector: o.LabelSelector, FieldSelector: o.FieldSelector,
		ResourceVersion: o.ResourceVersion, ResourceVersionMatch: meta.ResourceVersionMatch(o.ResourceVersionMatch),
		Limit: o.Limit, Continue: o.Continue, AllowWatchBookmarks: o.AllowWatchBookmarks,
		SendInitialEvents: o.SendInitialEvents, TimeoutSeconds: o.TimeoutSeconds,
	}
}

// Error converts a kitchensync API error to apimachinery's; other errors
// pass unchanged.
func Error(err error) error {
	var se *meta.StatusError
	if errors.As(err, &se) {
		return &apierrors.StatusError{ErrStatus: Status(&se.ErrStatus)}
	}
	return err
}

// Status converts a kitchensync Status to a metav1.Status.
func Status(s *meta.Status) metav1.Status {
	out := metav1.Status{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   s.Status, Message: s.Message, Reason: metav1.StatusReason(s.Reason), Code: s.Code,
	}
	if s.Details != nil {
		out.Details = &metav1.StatusDetails{Name: s.Details.Name, Group: s.Details.Group, Kind: s.Details.Kind, RetryAfterSeconds: s.Details.RetryAfterSeconds}
	}
	return out
}

// watcher converts a kitchensync watch into a client-go watch.Interface.
type watcher struct {
	src  meta.WatchInterface
	out  chan watch.Event
	stop chan struct{}
	once sync.Once
}

func newWatch(src meta.WatchInterface) *watcher {
	w := &watcher{src: src, out: make(chan watch.Event), stop: make(chan struct{})}
	go w.run()
	return w
}

func (w *watcher) run() {
	defer close(w.out)
	for ev := range w.src.ResultChan() {
		select {
		case w.out <- convertEvent(ev):
		case <-w.stop:
			return
		}
	}
}

func convertEvent(ev meta.Event) watch.Event {
	if ev.Type == meta.EventError {
		if s, ok := ev.Object.(*meta.Status); ok {
			st := Status(s)
			return watch.Event{Type: watch.Error, Object: &st}
		}
	}
	return watch.Event{Type: watch.EventType(ev.Type), Object: FromKS(ev.Object.(*apiservertest.Widget))}
}

// ResultChan implements watch.Interface.
func (w *watcher) ResultChan() <-chan watch.Event { return w.out }

// Stop implements watch.Interface.
func (w *watcher) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.src.Stop()
	})
}

// Gate stands between an informer and the server to cut it off: while
// the gate is down, List and Watch wait (without timers) until it is up
// again, so that writes made meanwhile are missed by the informer exactly
// as during a network partition. Each informer gets its own gate over the
// same server, so both miss the same writes. Ending the watches already
// running is the server's job (apiserver.Server.CloseWatches).
type Gate struct {
	lw    ListerWatcher
	mu    sync.Mutex
	up    chan struct{} // closed while the gate is up
	calls []string
	fail  map[string][]error // "list"/"watch" -> errors for the next calls
}

// FailNext makes the next n calls of verb ("list" or "watch") that pass
// the gate fail with err, without reaching the server. Unlike the
// server's own FailNext, it is per informer, so two informers on one
// server each see the same failures.
func (g *Gate) FailNext(verb string, n int, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail == nil {
		g.fail = map[string][]error{}
	}
	for range n {
		g.fail[verb] = append(g.fail[verb], err)
	}
}

// ClearFailures forgets the failures FailNext queued that no call has
// consumed.
func (g *Gate) ClearFailures() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.fail = nil
}

// injected returns the next injected error for verb, if any.
func (g *Gate) injected(verb string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	errs := g.fail[verb]
	if len(errs) == 0 {
		return nil
	}
	g.fail[verb] = errs[1:]
	g.calls = append(g.calls, verb+" failed")
	return errs[0]
}

// Calls returns the list and watch calls that passed the gate, with the
// resourceVersion each asked for, for failure messages.
func (g *Gate) Calls() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.calls...)
}

func (g *Gate) record(verb string, opts meta.ListOptions) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, fmt.Sprintf("%s rv=%q initial=%v", verb, opts.ResourceVersion, opts.SendInitialEvents != nil && *opts.SendInitialEvents))
}

// NewGate returns an open gate over lw.
func NewGate(lw ListerWatcher) *Gate {
	up := make(chan struct{})
	close(up)
	return &Gate{lw: lw, up: up}
}

// Down closes the gate.
func (g *Gate) Down() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.up:
		g.up = make(chan struct{})
	default:
	}
}

// Up opens the gate, releasing the calls waiting on it.
func (g *Gate) Up() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.up:
	default:
		close(g.up)
	}
}

func (g *Gate) wait(ctx context.Context) error {
	g.mu.Lock()
	up := g.up
	g.mu.Unlock()
	select {
	case <-up:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// List waits for the gate, then lists.
func (g *Gate) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	if err := g.injected("list"); err != nil {
		return nil, err
	}
	g.record("list", opts)
	return g.lw.List(ctx, opts)
}

// Watch waits for the gate, then watches.
func (g *Gate) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	if err := g.injected("watch"); err != nil {
		return nil, err
	}
	// No server-side watch timeouts: each reflector picks them at random,
	// so they would end the two informers' watches at different moments
	// (and a watch cut within a second of such a re-watch is "very short",
	// FINDINGS F4): the two histories could differ for no fault.
	opts.TimeoutSeconds = nil
	g.record("watch", opts)
	return g.lw.Watch(ctx, opts)
}
