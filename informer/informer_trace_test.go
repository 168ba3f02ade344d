package informer_test

import (
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/trace"
)

// TestTraceInformerCacheAndHandlers follows one widget through an
// informer of the factory: each change updates the cache, then calls the
// handler. (With several handlers, each is called on its own goroutine,
// so their records interleave in no fixed order.)
func TestTraceInformerCacheAndHandlers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		srv := apiservertest.NewServer(t)
		f := informer.NewSharedInformerFactory(srv, 0, informer.WithTracer(tr))
		inf := informer.InformerFor[*apiservertest.Widget](f)
		if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs[*apiservertest.Widget]{}); err != nil {
			t.Fatal(err)
		}
		f.Start(t.Context())
		defer f.Shutdown()
		synctest.Wait()
		rec := trace.NewRecorder(tr) // after the first list: only the widget's life
		widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
		w, err := widgets.Create(t.Context(), apiservertest.NewWidget("ns", "a"), meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		w.Spec.Color = "blue"
		if _, err := widgets.Update(t.Context(), w, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if err := widgets.Delete(t.Context(), "a", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()

		want := []string{
			"informer[widgets] cache-updated Widget ns/a rv=2 delta=Added",
			"informer[widgets] handler-called Widget ns/a rv=2 worker=1 detail=OnAdd",
			"informer[widgets] cache-updated Widget ns/a rv=3 delta=Updated",
			"informer[widgets] handler-called Widget ns/a rv=3 worker=1 detail=OnUpdate",
			"informer[widgets] cache-updated Widget ns/a rv=4 delta=Deleted",
			"informer[widgets] handler-called Widget ns/a rv=4 worker=1 detail=OnDelete",
		}
		var got []string
		for _, r := range rec.Records() {
			if r.Component == trace.Informer {
				got = append(got, r.String())
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
}

// An informer's queue records under the name of the queue that is there:
// realfifo behind the default atomic queue and QueueInOrder, deltafifo
// behind QueueDeltaFIFO.
func TestTraceNamesTheInformersQueue(t *testing.T) {
	for _, tc := range []struct {
		queue informer.QueueKind
		want  trace.Component
	}{
		{informer.QueueAtomic, trace.RealFIFO},
		{informer.QueueInOrder, trace.RealFIFO},
		{informer.QueueDeltaFIFO, trace.DeltaFIFO},
	} {
		t.Run(tc.queue.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := trace.New()
				rec := trace.NewRecorder(tr)
				srv := apiservertest.NewServer(t)
				f := informer.NewSharedInformerFactory(srv, 0, informer.WithTracer(tr), informer.WithQueue(tc.queue))
				informer.InformerFor[*apiservertest.Widget](f)
				f.Start(t.Context())
				defer f.Shutdown()
				synctest.Wait()
				if _, err := client.New[*apiservertest.Widget](srv).Namespace("ns").Create(t.Context(), apiservertest.NewWidget("ns", "a"), meta.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				got := map[trace.Component][]trace.Action{}
				for _, r := range rec.Records() {
					if r.Action == trace.DeltaRecorded || r.Action == trace.DeltaPopped {
						if r.Key == "ns/a" {
							got[r.Component] = append(got[r.Component], r.Action)
						}
					}
				}
				want := map[trace.Component][]trace.Action{tc.want: {trace.DeltaRecorded, trace.DeltaPopped}}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("queue records of ns/a by component (-want +got):\n%s", diff)
				}
			})
		})
	}
}
