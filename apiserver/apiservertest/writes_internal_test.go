package apiservertest

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The counting reader of BenchmarkWrites finishes when the events it
// waits for have left the history before it read them (410 Expired): it
// lists, and counts them as seen, where it used to wait for ever.
func TestCountingReaderAfterExpiry(t *testing.T) {
	for _, extra := range []int{0, 1} {
		synctest.Test(t, func(t *testing.T) {
			srv := apiserver.NewServer(NewScheme(), apiserver.Options{HistorySize: 10, WatchBufferSize: 10})
			defer srv.CloseWatches()
			rc := srv.Resource(WidgetsResource).Namespace("ns")
			from := srv.ResourceVersion()
			create := func(name string) {
				if _, err := rc.Create(context.Background(), NewWidget("ns", name), meta.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 100 {
				create(fmt.Sprintf("w-%d", i))
			}
			// With extra, the reader waits for one write more than there
			// were: it watches on from the list's resourceVersion.
			r := startCounting(t, rc, from, 100+extra)
			synctest.Wait()
			for range extra {
				create("last")
			}
			r.wait()
			if r.rewatches != extra {
				t.Errorf("waiting for %d: %d rewatches, want %d", 100+extra, r.rewatches, extra)
			}
		})
	}
}
