package compare

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	cgle "k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	cgtransport "k8s.io/client-go/transport"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
	ksle "github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

// Lease timings for both electors: client-go's defaults, in virtual time.
const (
	leLeaseDuration = 15 * time.Second
	leRenewDeadline = 10 * time.Second
	leRetryPeriod   = 2 * time.Second
)

// TestLeaderElectionInterop: a client-go elector (tools/leaderelection
// with a LeaseLock) and a kitchensync elector compete for one Lease over
// HTTP, against httpapi, through rounds of trouble for whoever leads: a
// crash (its context ends, the Lease is not released), a partition (its
// requests fail, so it cannot renew) and a graceful release. They must
// never lead at once, and each must lead at some point. Inside a synctest
// bubble, so the lease timings pass in virtual time.
func TestLeaderElectionInterop(t *testing.T) {
	quietClientGo()
	synctest.Test(t, func(t *testing.T) {
		a := newArena(t)
		troubles := []string{"crash", "partition", "release", "partition", "crash", "release"}
		for round, trouble := range troubles {
			leader := a.waitForLeader(t)
			a.logf("round %d: %s leads; trouble: %s", round, leader, trouble)
			a.trouble(leader, trouble)
			time.Sleep(2 * leLeaseDuration) // virtual: long enough for the other to take over
			synctest.Wait()
			a.heal(leader)
		}
		a.stopAll()
		t.Logf("history:\n%s", strings.Join(a.history, "\n"))
		if a.violation != "" {
			t.Errorf("two leaders at once: %s\nhistory:\n%s", a.violation, strings.Join(a.history, "\n"))
		}
		if a.handovers < len(troubles)-1 {
			t.Errorf("%d handovers between the two, want at least %d", a.handovers, len(troubles)-1)
		}
		for _, id := range []string{"client-go", "kitchensync"} {
			if a.ledCount[id] == 0 {
				t.Errorf("%s never led; history:\n%s", id, strings.Join(a.history, "\n"))
			}
		}
	})
}

// arena is the server and the two candidates.
type arena struct {
	t         *testing.T
	ts        *resttest.Server
	ctx       context.Context
	mu        sync.Mutex // guards the fields below
	cut       map[string]bool
	leader    map[string]bool // who is inside OnStartedLeading..OnStoppedLeading
	cancel    map[string]context.CancelFunc
	done      map[string]chan struct{}
	ledCount  map[string]int
	last      string // who led last
	handovers int    // changes of leader from one library to the other
	violation string
	history   []string
	changed   chan struct{}
}

func newArena(t *testing.T) *arena {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	a := &arena{t: t, ctx: t.Context(), cut: map[string]bool{}, leader: map[string]bool{},
		cancel: map[string]context.CancelFunc{}, done: map[string]chan struct{}{},
		ledCount: map[string]int{}, changed: make(chan struct{})}
	a.ts = resttest.NewServer(t, a.partitioned(httpapi.NewHandler(srv)))
	a.start("client-go")
	a.start("kitchensync")
	return a
}

// partitioned fails every request of a cut candidate (known by its user
// agent) with 503, as a network partition would fail it.
func (a *arena) partitioned(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		cut := a.cut[r.UserAgent()]
		a.mu.Unlock()
		if cut {
			http.Error(w, "partitioned", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (a *arena) logf(format string, args ...any) {
	a.history = append(a.history, fmt.Sprintf("%s %s", time.Now().UTC().Format("15:04:05"), fmt.Sprintf(format, args...)))
}

// started and stopped track leadership and catch two leaders at once.
func (a *arena) started(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for other, leading := range a.leader {
		if leading && other != id && a.violation == "" {
			a.violation = fmt.Sprintf("%s started leading while %s led", id, other)
		}
	}
	a.leader[id] = true
	a.ledCount[id]++
	if a.last != "" && a.last != id {
		a.handovers++
	}
	a.last = id
	a.logf("%s started leading", id)
	close(a.changed)
	a.changed = make(chan struct{})
}

func (a *arena) stopped(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.leader[id] {
		a.logf("%s stopped leading", id)
	}
	a.leader[id] = false
}

// start runs electors for id until its context ends: a fresh one after
// each stop, as each Run is one-shot in both libraries. Both release the
// Lease when their context ends (ReleaseOnCancel), if they can reach the
// server.
func (a *arena) start(id string) {
	ctx, cancel := context.WithCancel(a.ctx)
	done := make(chan struct{})
	a.mu.Lock()
	a.cancel[id], a.done[id] = cancel, done
	a.mu.Unlock()
	run := a.kitchensync
	if id == "client-go" {
		run = a.clientGo
	}
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			run(ctx)
		}
	}()
}

// kitchensync runs one kitchensync elector over a rest.Client.
func (a *arena) kitchensync(ctx context.Context) {
	cfg := a.ts.Config
	cfg.UserAgent = "kitchensync"
	s := meta.NewScheme()
	_ = builtin.Register(s)
	c, err := rest.New(&cfg, s)
	if err != nil {
		a.t.Error(err)
		return
	}
	defer c.CloseIdleConnections()
	le, err := ksle.New(ksle.Config{Client: c.Resource(builtin.LeasesResource).Namespace("kube-system"),
		Namespace: "kube-system", Name: "chef", Identity: "kitchensync",
		LeaseDuration: leLeaseDuration, RenewDeadline: leRenewDeadline, RetryPeriod: leRetryPeriod, ReleaseOnCancel: true,
		Callbacks: ksle.Callbacks{
			OnStartedLeading: func(context.Context) { a.started("kitchensync") },
			OnStoppedLeading: func() { a.stopped("kitchensync") },
		}})
	if err != nil {
		a.t.Error(err)
		return
	}
	le.Run(ctx)
}

// clientGo runs one client-go elector with a LeaseLock over a clientset.
func (a *arena) clientGo(ctx context.Context) {
	transport := &http.Transport{DialContext: a.ts.Config.Dial}
	defer transport.CloseIdleConnections()
	// The clientset does not add Config.UserAgent to a client of our own.
	rt := cgtransport.NewUserAgentRoundTripper("client-go", transport)
	cs, err := kubernetes.NewForConfigAndClient(&restclient.Config{Host: "http://localhost", UserAgent: "client-go"},
		&http.Client{Transport: rt})
	if err != nil {
		a.t.Error(err)
		return
	}
	lock := &resourcelock.LeaseLock{LeaseMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "chef"},
		Client: cs.CoordinationV1(), LockConfig: resourcelock.ResourceLockConfig{Identity: "client-go"}}
	le, err := cgle.NewLeaderElector(cgle.LeaderElectionConfig{Lock: lock, Name: "chef",
		LeaseDuration: leLeaseDuration, RenewDeadline: leRenewDeadline, RetryPeriod: leRetryPeriod, ReleaseOnCancel: true,
		Callbacks: cgle.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { a.started("client-go") },
			OnStoppedLeading: func() { a.stopped("client-go") },
		}})
	if err != nil {
		a.t.Error(err)
		return
	}
	le.Run(ctx)
}

// waitForLeader blocks until someone leads, and returns who.
func (a *arena) waitForLeader(t *testing.T) string {
	for {
		a.mu.Lock()
		changed := a.changed
		for id, leading := range a.leader {
			if leading {
				a.mu.Unlock()
				return id
			}
		}
		a.mu.Unlock()
		select {
		case <-changed:
		case <-time.After(10 * leLeaseDuration): // virtual
			t.Fatalf("nobody leads; history:\n%s", strings.Join(a.history, "\n"))
		}
	}
}

// trouble befalls the leader: a partition (its requests fail, so it must
// stop leading before the Lease can expire), a crash (cut off, it stops
// without being able to release the Lease, and restarts cut off), or a
// graceful release (it stops, releasing the Lease, and starts again).
// heal ends a partition or a crash.
func (a *arena) trouble(id, kind string) {
	if kind != "release" {
		a.mu.Lock()
		a.cut[id] = true
		a.mu.Unlock()
	}
	if kind != "partition" {
		a.restart(id, kind == "release")
	}
}

// restart stops id's electors and starts new ones; after a release, a
// little later, so that the other candidate, retrying every RetryPeriod,
// takes the Lease first.
func (a *arena) restart(id string, later bool) {
	a.mu.Lock()
	cancel, done := a.cancel[id], a.done[id]
	a.mu.Unlock()
	cancel()
	<-done
	a.stopped(id)
	if later {
		time.Sleep(3 * leRetryPeriod) // virtual
	}
	a.start(id)
}

func (a *arena) heal(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cut[id] = false
}

func (a *arena) stopAll() {
	for _, id := range []string{"client-go", "kitchensync"} {
		a.mu.Lock()
		cancel, done := a.cancel[id], a.done[id]
		a.mu.Unlock()
		cancel()
		<-done
	}
}
