package explore

import (
	"context"
	"strconv"
	"sync"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// inProcess is the front of in-process runs: each controller gets a
// [view] of the server, and time is testing/synctest's.
type inProcess struct{}

func (inProcess) connect(r *run, c *ctrlState, inc *incarnation) (Conn, error) {
	return Conn{API: &view{r: r, c: c, inc: inc}, Tracer: r.tr}, nil
}

// quiet waits until every goroutine of the bubble is blocked.
func (inProcess) quiet(*run) { synctest.Wait() }

// idle lets fake time pass.
func (inProcess) idle(d time.Duration) { time.Sleep(d) }

// view is the server as one incarnation of a controller sees it (c set),
// or as the workload sees it (c nil): a [client.Interface] whose writes
// go through [run.write] and whose lists and watches go through the
// scheduler.
type view struct {
	r   *run
	c   *ctrlState
	inc *incarnation
}

// Scheme returns the run's scheme.
func (v *view) Scheme() *meta.Scheme { return v.r.scheme }

// ResourceFor returns the view's calls on one resource.
func (v *view) ResourceFor(gvr meta.GroupVersionResource, namespace string) client.ResourceInterface {
	kind := gvr.Resource
	if info, ok := v.r.scheme.KindForResource(gvr); ok {
		kind = info.Kind
	}
	return &resourceView{v: v, gvr: gvr, kind: kind, ns: namespace, up: v.r.srv.ResourceFor(gvr, namespace)}
}

// resourceView is a view's calls on one resource.
type resourceView struct {
	v    *view
	gvr  meta.GroupVersionResource
	kind string
	ns   string
	up   client.ResourceInterface
}

// keyOfName returns the key of the object name in rv's namespace.
func (rv *resourceView) keyOfName(name string) string {
	if rv.ns == "" {
		return name
	}
	return rv.ns + "/" + name
}

// Get reads the server directly, as a live read: not perturbed.
func (rv *resourceView) Get(ctx context.Context, name string, opts meta.GetOptions) (meta.Object, error) {
	if rv.v.inc != nil && rv.v.inc.isDead() {
		return nil, errCrashed
	}
	return rv.up.Get(ctx, name, opts)
}

// List waits its turn (a controller's), reads at an older
// resourceVersion after a Stale crash, and tells the run what the
// informer now caches.
func (rv *resourceView) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	if rv.v.c == nil {
		return rv.up.List(ctx, opts)
	}
	st := rv.v.r.streamFor(rv.v.c, rv.v.inc, rv.gvr.Resource, rv.kind)
	first := opts.Continue == ""
	opts, err := rv.v.r.beforeList(ctx, st, opts)
	if err != nil {
		return nil, err
	}
	list, err := rv.up.List(ctx, opts)
	var keys []string
	if err == nil {
		for _, o := range list.Items {
			keys = append(keys, keyOf(o))
		}
		rv.v.r.afterList(st, keys, list.ResourceVersion, first, nil)
	}
	return list, err
}

// Watch starts the server's watch and hands its events to the
// scheduler, which delivers them one at a time (a controller's;
// the workload's watches are the server's own).
func (rv *resourceView) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	if rv.v.c == nil {
		return rv.up.Watch(ctx, opts)
	}
	if rv.v.inc.isDead() {
		return nil, errCrashed
	}
	if opts.SendInitialEvents == nil {
		opts.AllowWatchBookmarks = false // bookmarks would only be noise in the narration
	}
	up, err := rv.up.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	st := rv.v.r.streamFor(rv.v.c, rv.v.inc, rv.gvr.Resource, rv.kind)
	out := &chanOutlet{ch: make(chan meta.Event, 1)}
	s := &rv.v.r.sched
	w := s.addWatch(st, out, up.Stop)
	go func() {
		for ev := range up.ResultChan() {
			s.push(w, itemOf(ev))
		}
		s.upstreamEnded(w)
	}()
	return &watchView{out: out, stop: func() { s.stop(w) }}, nil
}

// write makes a write through the run.
func (rv *resourceView) write(verb, key string, do func() (meta.Object, error)) (meta.Object, error) {
	var obj meta.Object
	err := rv.v.r.write(writeCall{c: rv.v.c, inc: rv.v.inc, verb: verb, gr: rv.gvr.GroupResource(), kind: rv.kind, key: key,
		do: func() (string, string, error) {
			var err error
			obj, err = do()
			if err != nil || obj == nil {
				return "", "", err
			}
			return obj.GetObjectMeta().ResourceVersion, keyOf(obj), nil
		},
		rvNow: func() string { return latestRV(rv.v.r.ctx, rv.up) },
	})
	if err != nil {
		return nil, err
	}
	return obj, nil
}

// Create, Update, UpdateStatus, Patch and Delete go through [run.write].
func (rv *resourceView) Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error) {
	key := keyOf(obj)
	if obj.GetName() == "" {
		key += obj.GetObjectMeta().GenerateName + "*"
	}
	return rv.write(verbCreate, key, func() (meta.Object, error) { return rv.up.Create(ctx, obj, opts) })
}

func (rv *resourceView) Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return rv.write(verbUpdate, keyOf(obj), func() (meta.Object, error) { return rv.up.Update(ctx, obj, opts) })
}

func (rv *resourceView) UpdateStatus(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	return rv.write(verbUpdateStatus, keyOf(obj), func() (meta.Object, error) { return rv.up.UpdateStatus(ctx, obj, opts) })
}

func (rv *resourceView) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, error) {
	return rv.write(verbPatch, rv.keyOfName(name), func() (meta.Object, error) {
		return rv.up.Patch(ctx, name, pt, data, opts, subresources...)
	})
}

func (rv *resourceView) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	_, err := rv.write(verbDelete, rv.keyOfName(name), func() (meta.Object, error) { return nil, rv.up.Delete(ctx, name, opts) })
	return err
}

// latestRV returns the server's latest resourceVersion, as a list of at
// most one object reports it.
func latestRV(ctx context.Context, up client.ResourceInterface) string {
	list, err := up.List(ctx, meta.ListOptions{Limit: 1})
	if err != nil {
		return ""
	}
	return list.ResourceVersion
}

// keyOf returns obj's namespace/name (or name).
func keyOf(obj meta.Object) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns + "/" + obj.GetName()
	}
	return obj.GetName()
}

// itemOf makes an item of a watch event.
func itemOf(ev meta.Event) item {
	it := item{typ: ev.Type, ev: ev}
	if ev.Object != nil && ev.Object.GetObjectMeta() != nil {
		it.key = keyOf(ev.Object)
		it.rv, _ = strconv.ParseInt(ev.Object.GetObjectMeta().ResourceVersion, 10, 64)
	}
	return it
}

// chanOutlet delivers events into a channel of capacity one.
type chanOutlet struct {
	ch   chan meta.Event
	once sync.Once
}

func (o *chanOutlet) ready() bool     { return len(o.ch) < cap(o.ch) }
func (o *chanOutlet) deliver(it item) { o.ch <- it.ev }

func (o *chanOutlet) retype(it item, typ meta.EventType) item {
	it.typ, it.ev.Type = typ, typ
	return it
}

func (o *chanOutlet) expire() {
	st := meta.NewResourceExpired("too old resource version (explore: expired on purpose)").Status()
	if o.ready() {
		o.deliver(item{ev: meta.Event{Type: meta.EventError, Object: st}})
	}
}

func (o *chanOutlet) close() { o.once.Do(func() { close(o.ch) }) }

// watchView is the informer's side of a watch.
type watchView struct {
	out  *chanOutlet
	stop func()
}

func (w *watchView) ResultChan() <-chan meta.Event { return w.out.ch }
func (w *watchView) Stop()                         { w.stop() }
