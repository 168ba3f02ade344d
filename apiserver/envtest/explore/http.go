package explore

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/rest"
)

// overHTTP is the front of runs over HTTP. The run's server is served on
// a loopback port (the upstream), and each incarnation of each controller
// gets a front of its own on another port: a reverse proxy ([proxy])
// through which every perturbation happens. Time is real, and a moment
// is quiet once no request is in flight and nothing has happened for
// Options.Quiet.
type overHTTP struct {
	quietFor  time.Duration
	dir       string // where kubeconfigs go
	upstream  *httptest.Server
	transport *http.Transport // to the upstream
	client    *http.Client

	mu       sync.Mutex // guards the fields below
	inflight int        // requests being served (not watches, not lists waiting their turn)
	seen     int        // the scheduler's activity count, last seen
	changed  time.Time  // when something last happened
}

// open serves r's server.
func (h *overHTTP) open(r *run) {
	h.upstream = startServer(httpapi.NewHandler(r.srv))
	h.transport = &http.Transport{MaxIdleConnsPerHost: 16}
	h.client = &http.Client{Transport: h.transport}
	h.changed = time.Now()
}

// startServer serves h on a loopback port, with the timeouts any server
// should have: a client that sends half a header, or keeps an idle
// connection open, does not hold it for ever.
func startServer(h http.Handler) *httptest.Server {
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ReadHeaderTimeout, ts.Config.IdleTimeout = 10*time.Second, 2*time.Minute
	ts.Start()
	return ts
}

// close stops serving; every watch must have ended.
func (h *overHTTP) close() {
	h.transport.CloseIdleConnections()
	h.upstream.CloseClientConnections()
	h.upstream.Close()
}

func (h *overHTTP) connect(r *run, c *ctrlState, inc *incarnation) (Conn, error) {
	ts := startServer(&proxy{h: h, r: r, c: c, inc: inc})
	api, err := rest.New(&rest.Config{Host: ts.URL, QPS: -1}, r.scheme)
	if err != nil {
		ts.Close()
		return Conn{}, err
	}
	path := filepath.Join(h.dir, fmt.Sprintf("%s-%d.kubeconfig", c.Name, inc.n))
	if err := envtest.WriteKubeconfig(path, ts.URL); err != nil {
		ts.Close()
		return Conn{}, err
	}
	inc.closers = append(inc.closers, func() {
		api.CloseIdleConnections()
		ts.CloseClientConnections()
		ts.Close()
	})
	return Conn{API: api, Tracer: r.tr, Host: ts.URL, Kubeconfig: path}, nil
}

// quiet waits until no request is in flight and nothing has happened
// for h.quietFor.
func (h *overHTTP) quiet(r *run) {
	for {
		act := r.sched.activityCount()
		h.mu.Lock()
		if act != h.seen {
			h.seen, h.changed = act, time.Now()
		}
		wait, busy := h.quietFor-time.Since(h.changed), h.inflight > 0
		h.mu.Unlock()
		if !busy && wait <= 0 {
			return
		}
		time.Sleep(max(wait, h.quietFor/8))
	}
}

// idle lets real time pass.
func (h *overHTTP) idle(d time.Duration) { time.Sleep(d) }

// busy counts a request in (+1) or out (-1).
func (h *overHTTP) busy(delta int) {
	h.mu.Lock()
	h.inflight += delta
	h.changed = time.Now()
	h.mu.Unlock()
}
