package informer_test

import (
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
)

// TestHoldWatch relays a watch's events one at a time, each once its hold
// lets it go; a hold that gives up closes the watch.
func TestHoldWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		ctx := t.Context()
		widgets := srv.Resource(apiservertest.WidgetsResource).Namespace("ns")
		w, err := widgets.Watch(ctx, meta.ListOptions{ResourceVersion: srv.ResourceVersion()})
		if err != nil {
			t.Fatal(err)
		}
		turn := make(chan bool)
		held := informer.HoldWatch(w, func(_ meta.Event, stopped <-chan struct{}) bool {
			select {
			case ok := <-turn:
				return ok
			case <-stopped:
				return false
			}
		})
		for _, name := range []string{"a", "b"} {
			if _, err := widgets.Create(ctx, apiservertest.NewWidget("ns", name), meta.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		select {
		case e := <-held.ResultChan():
			t.Fatalf("%v came through before its hold let it", e.Type)
		default:
		}
		turn <- true
		if e := <-held.ResultChan(); e.Object.GetObjectMeta().Name != "a" {
			t.Errorf("the first event is %s, want a", e.Object.GetObjectMeta().Name)
		}
		turn <- false
		if _, open := <-held.ResultChan(); open {
			t.Error("the watch is still open after its hold gave up")
		}
		held.Stop()
	})
}
