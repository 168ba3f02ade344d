package client

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ForResource returns a typed client for the resource gvr, whatever T
// is, across all namespaces:
//
//	tables := client.ForResource[*meta.Unstructured](srv, gvr) // a dynamic client
//	tables := client.ForResource[*Table](srv, gvr)              // a Go type of your own
//
// The first is Kubernetes' dynamic client: objects without a Go type,
// for a kind that a CustomResourceDefinition defines (package
// apiserver/apiextensions) or any other. The second reads and writes
// the same kind as a Go type the server does not know: objects are
// converted through their JSON, as controller-runtime's client decodes
// a custom resource into the type its scheme maps it to. The Go type
// must have the kind's JSON form; fields it lacks are dropped on the way
// in, and left as stored on the way out only where the server keeps them
// (status through UpdateStatus).
func ForResource[T meta.Object](api Interface, gvr meta.GroupVersionResource) *Client[T] {
	return &Client[T]{api: api, gvr: &gvr}
}

// forResource returns the calls on gvr in namespace ns, converting
// objects to and from T when the kind's Go type is another.
func forResource[T meta.Object](api Interface, gvr meta.GroupVersionResource, ns string) ResourceInterface {
	rc := api.ResourceFor(gvr, ns)
	info, ok := api.Scheme().KindForResource(gvr)
	if !ok || reflect.TypeOf(info.New()) == reflect.TypeFor[T]() {
		return rc
	}
	return &converting[T]{rc: rc, info: info}
}

// applyKind finds the kind an apply configuration is for.
func (c *Client[T]) applyKind(obj T) (meta.KindInfo, error) {
	if c.gvr == nil {
		return c.api.Scheme().KindFor(obj)
	}
	if info, ok := c.api.Scheme().KindForResource(*c.gvr); ok {
		return info, nil
	}
	return meta.KindInfo{}, meta.NewNotFound(c.gvr.GroupResource(), obj.GetName())
}

// converting is a ResourceInterface whose objects are T outside and the
// kind's Go type inside: each crosses as JSON.
type converting[T meta.Object] struct {
	rc   ResourceInterface
	info meta.KindInfo
}

// convert re-encodes obj as a new object made by newObj.
func convert(obj meta.Object, newObj func() meta.Object) (meta.Object, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the object cannot be encoded as JSON: %v", err))
	}
	out := newObj()
	if err := json.Unmarshal(b, out); err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("the object does not decode as %T: %v", out, err))
	}
	return out, nil
}

// in converts a T to the kind's Go type, its apiVersion and kind set.
func (c *converting[T]) in(obj meta.Object) (meta.Object, error) {
	if reflect.ValueOf(obj).IsNil() {
		return nil, meta.NewBadRequest("the object is nil")
	}
	out, err := convert(obj, c.info.New)
	if err == nil {
		c.info.SetTypeMeta(out.GetTypeMeta())
	}
	return out, err
}

// out converts what the server answered to T.
func (c *converting[T]) out(obj meta.Object, err error) (meta.Object, error) {
	if err != nil {
		return nil, err
	}
	return convert(obj, func() meta.Object { return reflect.New(reflect.TypeFor[T]().Elem()).Interface().(meta.Object) })
}

func (c *converting[T]) Get(ctx context.Context, name string, opts meta.GetOptions) (meta.Object, error) {
	return c.out(c.rc.Get(ctx, name, opts))
}

func (c *converting[T]) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	list, err := c.rc.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	for i, obj := range list.Items {
		if list.Items[i], err = c.out(obj, nil); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func (c *converting[T]) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	w, err := c.rc.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	cw := &convertingWatch{w: w, ch: make(chan meta.Event), done: make(chan struct{})}
	go cw.run(func(obj meta.Object) meta.Object {
		if _, isStatus := obj.(*meta.Status); isStatus {
			return obj
		}
		if out, err := c.out(obj, nil); err == nil {
			return out
		}
		return obj
	})
	return cw, nil
}

// convertingWatch passes on a watch's events, each object converted.
type convertingWatch struct {
	w    meta.WatchInterface
	ch   chan meta.Event
	done chan struct{}
	once sync.Once
}

func (cw *convertingWatch) ResultChan() <-chan meta.Event { return cw.ch }

func (cw *convertingWatch) Stop() {
	cw.once.Do(func() { close(cw.done) })
	cw.w.Stop()
}

// run forwards events until the watch ends or is stopped.
func (cw *convertingWatch) run(conv func(meta.Object) meta.Object) {
	defer close(cw.ch)
	for ev := range cw.w.ResultChan() {
		if ev.Object != nil {
			ev.Object = conv(ev.Object)
		}
		select {
		case cw.ch <- ev:
		case <-cw.done:
			return
		}
	}
}

func (c *converting[T]) Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error) {
	in, err := c.in(obj)
	if err != nil {
		return nil, err
	}
	return c.out(c.rc.Create(ctx, in, opts))
}

func (c *converting[T]) Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	in, err := c.in(obj)
	if err != nil {
		return nil, err
	}
	return c.out(c.rc.Update(ctx, in, opts))
}

func (c *converting[T]) UpdateStatus(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error) {
	in, err := c.in(obj)
	if err != nil {
		return nil, err
	}
	return c.out(c.rc.UpdateStatus(ctx, in, opts))
}

func (c *converting[T]) Patch(ctx context.Context, name string, pt meta.PatchType, data []byte, opts meta.PatchOptions, subresources ...string) (meta.Object, error) {
	return c.out(c.rc.Patch(ctx, name, pt, data, opts, subresources...))
}

func (c *converting[T]) Delete(ctx context.Context, name string, opts meta.DeleteOptions) error {
	return c.rc.Delete(ctx, name, opts)
}
