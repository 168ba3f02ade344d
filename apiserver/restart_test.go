package apiserver_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
)

// A server that replaces another (a restarted process) starts above every
// resourceVersion the old one gave out and makes new uids: an informer
// that watched the old one gets 410 from the new one, lists again, and
// ends up with the new state, with a tombstone for what vanished.
func TestInformerConvergesAfterServerRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		before := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{ResourceVersionStart: 1000})
		createWidgets(t, before, "a", "b")
		var mu sync.Mutex
		current := before
		resource := func() *apiserver.ResourceClient {
			mu.Lock()
			defer mu.Unlock()
			return current.Resource(apiservertest.WidgetsResource)
		}
		lw := informer.ListWatch{
			ListFunc: func(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
				return resource().List(ctx, opts)
			},
			WatchFunc: func(ctx context.Context, opts meta.ListOptions) (meta.WatchInterface, error) {
				return resource().Watch(ctx, opts)
			},
		}
		var events []string
		inf := informer.NewSharedIndexInformer[*apiservertest.Widget](lw, informer.Options[*apiservertest.Widget]{
			WatchErrorHandler: func(error) {},
		})
		_, _ = inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{
			AddFunc: func(w *apiservertest.Widget, _ bool) { events = append(events, "add "+w.Name) },
			UpdateFunc: func(old, w *apiservertest.Widget) {
				events = append(events, fmt.Sprintf("update %s (new uid: %t)", w.Name, old.UID != w.UID))
			},
			DeleteFunc: func(w *apiservertest.Widget, tombstone bool) {
				events = append(events, fmt.Sprintf("delete %s (tombstone: %t)", w.Name, tombstone))
			},
		})
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		go inf.Run(runCtx)
		synctest.Wait()

		after := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{
			ResourceVersionStart: apiserver.ResourceVersionFromClock(time.Now())})
		createWidgets(t, after, "a", "c")
		mu.Lock()
		current = after
		mu.Unlock()
		before.CloseWatches() // the old process is gone
		time.Sleep(time.Minute)
		synctest.Wait()

		// The relist replaces the cache in one step and then tells the
		// handlers: a tombstone for what it no longer holds first, then
		// what it lists, as client-go v0.37's default (atomic) informer
		// does. (Its DeltaFIFO told the tombstone last.)
		want := []string{"add a", "add b", "delete b (tombstone: true)", "update a (new uid: true)", "add c"}
		if diff := cmp.Diff(want, events); diff != "" {
			t.Errorf("handler events (-want +got):\n%s", diff)
		}
		if got, want := inf.LastSyncResourceVersion(), after.ResourceVersion(); got != want {
			t.Errorf("informer at resourceVersion %s, want the new server's %s", got, want)
		}
		cancel()
		synctest.Wait()
	})
}

func createWidgets(t *testing.T, srv *apiserver.Server, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := client.New[*apiservertest.Widget](srv).Namespace("ns").Create(context.Background(),
			apiservertest.NewWidget("ns", name), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}
