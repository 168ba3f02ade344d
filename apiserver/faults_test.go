package apiserver_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// listerWatcher is the informer's interface; the server's clients satisfy
// it as they are.
type listerWatcher interface {
	List(ctx context.Context, opts meta.ListOptions) (*meta.List, error)
	Watch(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error)
}

var _ listerWatcher = (*apiserver.ResourceClient)(nil)

func TestFailNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		gr := apiservertest.WidgetsResource.GroupResource()
		tests := []struct {
			verb apiserver.Verb
			err  error
			call func() error
			is   func(error) bool
		}{
			{apiserver.VerbCreate, meta.NewTooManyRequests("slow down", 1), func() error {
				_, err := f.widgets.Create(f.ctx, apiservertest.NewWidget("ns", "a"), meta.CreateOptions{})
				return err
			}, meta.IsTooManyRequests},
			{apiserver.VerbGet, meta.NewInternalError(errors.New("disk on fire")), func() error {
				_, err := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
				return err
			}, meta.IsInternalError},
			{apiserver.VerbList, meta.NewTimeout("try later", 1), func() error {
				_, err := f.res.List(f.ctx, meta.ListOptions{})
				return err
			}, meta.IsTimeout},
			{apiserver.VerbWatch, meta.NewInternalError(errors.New("no")), func() error {
				w, err := f.res.Watch(f.ctx, meta.ListOptions{})
				if err == nil {
					w.Stop()
				}
				return err
			}, meta.IsInternalError},
			{apiserver.VerbUpdate, meta.NewConflict(gr, "a", errors.New(meta.ConflictMessage)), func() error {
				w, _ := f.widgets.Get(f.ctx, "a", meta.GetOptions{})
				w.Spec.Size++
				_, err := f.widgets.Update(f.ctx, w, meta.UpdateOptions{})
				return err
			}, meta.IsConflict},
		}
		for _, tt := range tests {
			f.srv.FailNext(tt.verb, 2, tt.err)
			for i := range 2 {
				if err := tt.call(); !tt.is(err) {
					t.Errorf("%s call %d: err = %v, want the injected error", tt.verb, i, err)
				}
			}
			if err := tt.call(); err != nil {
				t.Errorf("%s call 3: %v, want success", tt.verb, err)
			}
		}
		if got := f.srv.RequestCount(apiserver.VerbCreate, gr); got != 3 {
			t.Errorf("create count = %d, want 3", got)
		}
	})
}

func TestSetLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.srv.SetLatency(250 * time.Millisecond)
		start := time.Now()
		f.create(t, "a", "red", nil)
		if d := time.Since(start); d != 250*time.Millisecond {
			t.Errorf("create took %v, want 250ms", d)
		}
		ctx, cancel := context.WithTimeout(f.ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := f.widgets.Get(ctx, "a", meta.GetOptions{}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Get with a shorter deadline: %v", err)
		}
		f.srv.SetLatency(0)
		start = time.Now()
		f.create(t, "b", "red", nil)
		if d := time.Since(start); d != 0 {
			t.Errorf("create took %v without latency", d)
		}
	})
}

func TestRequestCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		f.update(t, a)
		_, _ = f.widgets.UpdateStatus(f.ctx, a, meta.UpdateOptions{})
		_, _ = f.res.List(f.ctx, meta.ListOptions{})
		_, _ = f.widgets.Get(f.ctx, "missing", meta.GetOptions{})
		gr := apiservertest.WidgetsResource.GroupResource()
		want := map[apiserver.RequestKey]int64{
			{Verb: apiserver.VerbCreate, Resource: gr}: 1,
			{Verb: apiserver.VerbUpdate, Resource: gr}: 2,
			{Verb: apiserver.VerbList, Resource: gr}:   1,
			{Verb: apiserver.VerbGet, Resource: gr}:    1,
		}
		if diff := cmp.Diff(want, f.srv.RequestCounts()); diff != "" {
			t.Errorf("counts (-want +got)\n%s", diff)
		}
	})
}
