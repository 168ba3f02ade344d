package informer

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
)

// TestConvergenceOverHTTP runs the convergence test with the informer on
// the far side of the REST protocol: it lists and watches through a
// rest.Client, and the server answers through httpapi over an in-memory
// network. Faults (cut watches, 410 after compaction, 429 and 500) travel
// as HTTP answers, and the client's 429 retries and rate limit (client-go's
// 5 QPS, burst 10) join the informer's own backoff. Writes go to the
// server in process. Shorter than the in-process run by default:
//
//	go test -race ./informer/ -run TestConvergenceOverHTTP -args -long
func TestConvergenceOverHTTP(t *testing.T) {
	ops := 2_000
	if *long {
		ops = 200_000
	}
	modes := []struct {
		name string
		opts Options[*widget]
	}{
		{"atomic", Options[*widget]{ResyncPeriod: 30 * time.Second}},
		{"classic", Options[*widget]{ResyncPeriod: 30 * time.Second, Queue: QueueDeltaFIFO}},
		{"watch-list", Options[*widget]{UseWatchList: true}},
		{"paged", Options[*widget]{PageSize: 7, Queue: QueueInOrder}},
	}
	overHTTP := func(t *testing.T) func(*apiserver.Server) ListerWatcher {
		return func(srv *apiserver.Server) ListerWatcher {
			ts := resttest.NewServer(t, httpapi.NewHandler(srv))
			c, err := rest.New(&ts.Config, srv.Scheme())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.CloseIdleConnections)
			return c.Resource(apiservertest.WidgetsResource)
		}
	}
	for i, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { runConvergence(t, uint64(i+11), ops/len(modes), m.opts, overHTTP(t)) })
		})
	}
}
