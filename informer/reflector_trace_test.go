package informer_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/trace"
)

// nopStore is a ReflectorStore that forgets everything.
type nopStore struct{}

func (nopStore) Add(meta.Object) error               { return nil }
func (nopStore) Update(meta.Object) error            { return nil }
func (nopStore) Delete(meta.Object) error            { return nil }
func (nopStore) Replace([]meta.Object, string) error { return nil }
func (nopStore) Resync() error                       { return nil }

// lines returns the records as String prints them.
func lines(recs []trace.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.String()
	}
	return out
}

// TestTraceReflectorListsWatchesAndRelistsAfter410 cuts a reflector's
// watch and answers its re-watch with 410 Expired.
func TestTraceReflectorListsWatchesAndRelistsAfter410(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		srv := apiservertest.NewServerWithOptions(t, apiserver.Options{Tracer: tr})
		widgets := srv.Resource(apiservertest.WidgetsResource)
		if _, err := client.New[*apiservertest.Widget](srv).Create(t.Context(),
			apiservertest.NewWidget("ns", "a"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		r := informer.NewReflector(widgets, nopStore{}, informer.ReflectorOptions{
			Name: "widgets", Tracer: tr, WatchErrorHandler: func(error) {}})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); r.Run(ctx) }()
		time.Sleep(2 * time.Second) // not a very short watch
		srv.FailNext(apiserver.VerbWatch, 1, meta.NewResourceExpired("too old resource version: 2 (3)"))
		srv.CloseWatches()
		time.Sleep(time.Minute) // the backoff before the relist
		synctest.Wait()
		cancel()
		<-done

		want := []string{
			"apiserver created Widget ns/a rv=2",
			"reflector[widgets] listed rv=2 count=1",
			"reflector[widgets] watch-started rv=2",
			"apiserver watches-closed count=1",
			"reflector[widgets] watch-ended rv=2",
			`reflector[widgets] expired rv=2 err="too old resource version: 2 (3)"`,
			"reflector[widgets] listed rv=2 count=1",
			"reflector[widgets] watch-started rv=2",
		}
		if diff := cmp.Diff(want, lines(rec.Records())); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
}
