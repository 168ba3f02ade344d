package informer

import (
	"context"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ListerWatcher is what a [Reflector] needs from the API: a consistent
// snapshot (List) and the changes after it (Watch), like client-go's
// cache.ListerWatcher.
//
// It is owned here, by its consumer: every [client.ResourceInterface]
// satisfies it as it is, in process or over HTTP.
type ListerWatcher interface {
	// List returns one page of objects and the resourceVersion they were
	// read at.
	List(ctx context.Context, opts meta.ListOptions) (*meta.List, error)
	// Watch streams the changes after opts.ResourceVersion (or, with ""
	// and "0", the current state as ADDED events first).
	Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error)
}

// ListWatch adapts two functions to a [ListerWatcher], the way
// [net/http.HandlerFunc] adapts one to a Handler. Tests use it to script a
// server's answers; programs use it to wrap a client.
type ListWatch struct {
	ListFunc  func(ctx context.Context, opts meta.ListOptions) (*meta.List, error)
	WatchFunc func(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error)
}

// List calls lw.ListFunc.
func (lw ListWatch) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	return lw.ListFunc(ctx, opts)
}

// Watch calls lw.WatchFunc.
func (lw ListWatch) Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
	return lw.WatchFunc(ctx, opts)
}

// NewFilteredListWatch returns a [ListerWatcher] that lets tweak edit the
// options of every List and Watch before lw sees them, e.g. to set a label
// selector so that the cache holds only matching objects (client-go's
// TweakListOptionsFunc). The caller's options are copied first.
func NewFilteredListWatch(lw ListerWatcher, tweak func(*meta.ListOptions)) ListerWatcher {
	if tweak == nil {
		return lw
	}
	return ListWatch{
		ListFunc: func(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
			tweak(&opts)
			return lw.List(ctx, opts)
		},
		WatchFunc: func(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
			tweak(&opts)
			return lw.Watch(ctx, opts)
		},
	}
}
