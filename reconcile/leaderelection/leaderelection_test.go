package leaderelection_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
	"github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

// epoch is when a synctest bubble's clock starts.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// journal records who led when, in seconds since the bubble's start,
// and checks that two candidates never lead at once.
type journal struct {
	t       *testing.T
	mu      sync.Mutex
	leading string
	lines   []string
}

func (j *journal) log(format string, args ...any) {
	j.lines = append(j.lines, fmt.Sprintf("%5.1fs ", time.Since(epoch).Seconds())+fmt.Sprintf(format, args...))
}

// callbacks returns the callbacks of candidate id.
func (j *journal) callbacks(id string) leaderelection.Callbacks {
	return leaderelection.Callbacks{
		OnStartedLeading: func(ctx context.Context) {
			j.mu.Lock()
			if j.leading != "" {
				j.t.Errorf("%s starts leading while %s leads", id, j.leading)
			}
			j.leading = id
			j.log("%s starts leading", id)
			j.mu.Unlock()
			<-ctx.Done()
			j.mu.Lock()
			j.leading = ""
			j.mu.Unlock()
		},
		OnStoppedLeading: func() {
			j.mu.Lock()
			j.log("%s stops leading", id)
			j.mu.Unlock()
		},
	}
}

// newServer returns a server with the built-in kinds.
func newServer(t *testing.T) *apiserver.Server {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	t.Cleanup(srv.CloseWatches)
	return srv
}

// candidate starts an elector for id with client-go's usual timings
// (15s, 10s, 2s) and returns a function that ends its Run and waits.
func candidate(t *testing.T, client leaderelection.LeaseClient, j *journal, id string, release bool) (stop func()) {
	le, err := leaderelection.New(leaderelection.Config{
		Client: client, Namespace: "kitchen", Name: "chef", Identity: id,
		LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		ReleaseOnCancel: release, Callbacks: j.callbacks(id),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); le.Run(ctx) }()
	return func() { cancel(); <-done }
}

func getLease(t *testing.T, srv *apiserver.Server) builtin.LeaseSpec {
	t.Helper()
	got, err := srv.Resource(builtin.LeasesResource).Namespace("kitchen").Get(t.Context(), "chef", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return got.(*builtin.Lease).Spec
}

func ptr[T any](v T) *T { return &v }

func at(d time.Duration) *builtin.MicroTime {
	t := builtin.NewMicroTime(epoch.Add(d))
	return &t
}

// TestAcquireAndRenew: a lone candidate creates the lease at once and
// renews it every RetryPeriod; acquireTime and transitions stay.
func TestAcquireAndRenew(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		j := &journal{t: t}
		stop := candidate(t, srv.Resource(builtin.LeasesResource).Namespace("kitchen"), j, "chef-a", false)
		time.Sleep(9 * time.Second)
		synctest.Wait()
		want := builtin.LeaseSpec{
			HolderIdentity: ptr("chef-a"), LeaseDurationSeconds: ptr(int32(15)),
			AcquireTime: at(0), RenewTime: at(8 * time.Second), LeaseTransitions: ptr(int32(0)),
		}
		if diff := cmp.Diff(want, getLease(t, srv)); diff != "" {
			t.Errorf("lease after 9s (-want +got):\n%s", diff)
		}
		stop()
		if diff := cmp.Diff([]string{"  0.0s chef-a starts leading", "  9.0s chef-a stops leading"}, j.lines); diff != "" {
			t.Errorf("journal (-want +got):\n%s", diff)
		}
	})
}

// TestExpiryHandover: the leader dies without releasing; the other
// candidate takes over only once the lease has gone unrenewed for
// LeaseDuration, and counts a transition.
func TestExpiryHandover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		leases := srv.Resource(builtin.LeasesResource).Namespace("kitchen")
		j := &journal{t: t}
		stopA := candidate(t, leases, j, "chef-a", false)
		synctest.Wait()
		stopB := candidate(t, leases, j, "chef-b", false)
		time.Sleep(20 * time.Second) // a renews every 2s; b keeps waiting
		stopA()                      // a dies at 20s; its last renewal was at 20s
		time.Sleep(40 * time.Second)
		synctest.Wait()
		l := getLease(t, srv)
		if *l.HolderIdentity != "chef-b" || *l.LeaseTransitions != 1 {
			t.Errorf("lease held by %s after %d transitions, want chef-b after 1", *l.HolderIdentity, *l.LeaseTransitions)
		}
		stopB()
		if len(j.lines) != 4 || j.lines[2][7:] != "chef-b starts leading" {
			t.Fatalf("journal %q", j.lines)
		}
		// a renewed last at 18s or 20s. b polls every 2-4.4s and counts
		// 15s from the poll at which it saw the last change: it takes
		// over 33-43.8s in, never before the lease expired.
		var secs float64
		if _, err := fmt.Sscanf(j.lines[2], "%fs", &secs); err != nil || secs < 33 || secs > 43.8 {
			t.Errorf("journal %q: want chef-b to start leading 33-43.8s in", j.lines)
		}
	})
}

// TestReleaseOnCancel: a leader that releases on cancel lets the next
// candidate in within one retry, without waiting out the lease.
func TestReleaseOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		leases := srv.Resource(builtin.LeasesResource).Namespace("kitchen")
		j := &journal{t: t}
		stopA := candidate(t, leases, j, "chef-a", true)
		synctest.Wait()
		stopB := candidate(t, leases, j, "chef-b", false)
		time.Sleep(10 * time.Second)
		stopA()
		if l := getLease(t, srv); *l.HolderIdentity != "" || *l.LeaseDurationSeconds != 1 {
			t.Errorf("released lease: holder %q, duration %d; want none, 1", *l.HolderIdentity, *l.LeaseDurationSeconds)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		stopB()
		if len(j.lines) != 4 || j.lines[2][7:] != "chef-b starts leading" {
			t.Fatalf("journal %q", j.lines)
		}
		var secs float64
		if _, err := fmt.Sscanf(j.lines[2], "%fs", &secs); err != nil || secs > 10+4.4 {
			t.Errorf("chef-b took over at %.1fs, want within one retry of 10s", secs)
		}
	})
}

// TestRenewDeadline: a leader that cannot write the lease stops leading
// after RenewDeadline, before the lease could expire for others.
func TestRenewDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		j := &journal{t: t}
		le, err := leaderelection.New(leaderelection.Config{
			Client: srv.Resource(builtin.LeasesResource).Namespace("kitchen"), Namespace: "kitchen", Name: "chef", Identity: "chef-a",
			LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
			Callbacks: j.callbacks("chef-a"),
		})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { defer close(done); le.Run(t.Context()) }()
		time.Sleep(5 * time.Second) // renewed at 2s and 4s
		srv.FailNext(apiserver.VerbUpdate, 1000, meta.NewInternalError(errors.New("etcd unreachable")))
		<-done
		want := []string{"  0.0s chef-a starts leading", " 16.0s chef-a stops leading"}
		if diff := cmp.Diff(want, j.lines); diff != "" {
			t.Errorf("journal (-want +got):\n%s", diff)
		}
	})
}

// TestOverHTTP: two candidates, each with its own client over HTTP,
// hand over on release as they do in process.
func TestOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		ts := resttest.NewServer(t, httpapi.NewHandler(srv))
		client := func() leaderelection.LeaseClient {
			c, err := rest.New(&ts.Config, srv.Scheme())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.CloseIdleConnections)
			return c.Resource(builtin.LeasesResource).Namespace("kitchen")
		}
		j := &journal{t: t}
		stopA := candidate(t, client(), j, "chef-a", true)
		synctest.Wait()
		stopB := candidate(t, client(), j, "chef-b", true)
		// Stop chef-a between two of its renewals (at 0s, 2s, ... 8s,
		// 10s), never at one: at the same instant, a renewal's Update
		// abandoned by the cancel can still land after release read the
		// lease, so that release's Update fails 409 and chef-b must wait
		// out the lease. Which goes first is up to the scheduler.
		time.Sleep(9 * time.Second)
		stopA()
		time.Sleep(11 * time.Second)
		synctest.Wait()
		stopB()
		if len(j.lines) != 4 || j.lines[0][7:] != "chef-a starts leading" || j.lines[2][7:] != "chef-b starts leading" {
			t.Errorf("journal %q", j.lines)
		}
		if l := getLease(t, srv); *l.LeaseTransitions != 1 || *l.HolderIdentity != "" {
			t.Errorf("lease: holder %q, %d transitions; want released after 1", *l.HolderIdentity, *l.LeaseTransitions)
		}
	})
}

// TestBadConfig: each missing or inconsistent setting is refused.
func TestBadConfig(t *testing.T) {
	_, err := leaderelection.New(leaderelection.Config{
		Client: (*apiserver.ResourceClient)(nil), Namespace: "kitchen", Name: "chef", Identity: "a",
		LeaseDuration: 10 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
	})
	if want := "leaderelection: Config.LeaseDuration (10s) must be greater than RenewDeadline (10s)"; err == nil || err.Error() != want {
		t.Errorf("New = %v, want %s", err, want)
	}
}
