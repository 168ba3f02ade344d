package leaderelection

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// LeaseClient is what the elector needs from the API: the Lease calls of
// a resource client for leases in one namespace.
// *apiserver.ResourceClient and *rest.ResourceClient satisfy it.
type LeaseClient interface {
	Get(ctx context.Context, name string, opts meta.GetOptions) (meta.Object, error)
	Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error)
	Update(ctx context.Context, obj meta.Object, opts meta.UpdateOptions) (meta.Object, error)
}

// Callbacks are called as leadership changes, like client-go's
// LeaderCallbacks.
type Callbacks struct {
	// OnStartedLeading runs in its own goroutine when this candidate
	// becomes leader; its context ends when leadership does.
	OnStartedLeading func(ctx context.Context)
	// OnStoppedLeading is called when a leader stops leading (it lost the
	// lease, or its context ended), after its OnStartedLeading context
	// ends. Not called for a candidate that never led.
	OnStoppedLeading func()
	// OnNewLeader is called when the observed leader changes, with its
	// identity (this candidate's own included).
	OnNewLeader func(identity string)
}

// Config configures a [LeaderElector]. Every field but the callbacks and
// ReleaseOnCancel is required.
type Config struct {
	// Client reads and writes leases in Namespace.
	Client LeaseClient
	// Namespace and Name name the Lease.
	Namespace, Name string
	// Identity names this candidate; unique among the candidates.
	Identity string
	// LeaseDuration is how long others wait after the last change they
	// saw before taking over (client-go's usual 15s).
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps trying to renew before
	// it gives up (usual 10s); less than LeaseDuration.
	RenewDeadline time.Duration
	// RetryPeriod is the wait between attempts (usual 2s).
	RetryPeriod time.Duration
	// ReleaseOnCancel clears the lease when Run's context ends, so that a
	// successor takes over at once.
	ReleaseOnCancel bool
	// Callbacks are told of changes of leadership.
	Callbacks Callbacks
}

// jitterFactor is client-go's: an acquire retry waits RetryPeriod plus up
// to 1.2 times more.
const jitterFactor = 1.2

// validate checks the configuration, naming the first bad field.
func (c Config) validate() error {
	switch {
	case c.Client == nil:
		return errors.New("leaderelection: Config.Client is required")
	case c.Name == "" || c.Namespace == "":
		return errors.New("leaderelection: Config.Namespace and Config.Name are required")
	case c.Identity == "":
		return errors.New("leaderelection: Config.Identity is required")
	case c.LeaseDuration <= c.RenewDeadline:
		return fmt.Errorf("leaderelection: Config.LeaseDuration (%v) must be greater than RenewDeadline (%v)", c.LeaseDuration, c.RenewDeadline)
	case c.RenewDeadline <= time.Duration(jitterFactor*float64(c.RetryPeriod)):
		return fmt.Errorf("leaderelection: Config.RenewDeadline (%v) must be greater than 1.2 × RetryPeriod (%v)", c.RenewDeadline, c.RetryPeriod)
	case c.RetryPeriod <= 0:
		return errors.New("leaderelection: Config.RetryPeriod must be positive")
	case c.LeaseDuration < time.Second:
		return errors.New("leaderelection: Config.LeaseDuration must be at least 1s (the Lease counts whole seconds)")
	}
	return nil
}

// LeaderElector competes for one Lease. Make one with [New] and call
// [LeaderElector.Run]. Its methods are safe for concurrent use.
type LeaderElector struct {
	cfg Config

	mu           sync.Mutex // guards the fields below
	observed     builtin.LeaseSpec
	observedRV   string
	observedTime time.Time // when observed last changed, on our clock
	leader       string
}

// New checks cfg and returns an elector.
func New(cfg Config) (*LeaderElector, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &LeaderElector{cfg: cfg}, nil
}

// Run competes for the lease until ctx ends; once leading, it leads until
// it cannot renew within RenewDeadline or ctx ends, then returns. Run a
// new elector to compete again, as client-go expects.
func (le *LeaderElector) Run(ctx context.Context) {
	if !le.acquire(ctx) {
		return
	}
	leadCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if f := le.cfg.Callbacks.OnStartedLeading; f != nil {
		wg.Go(func() { f(leadCtx) })
	}
	le.renew(ctx)
	cancel()
	wg.Wait()
	if le.cfg.ReleaseOnCancel && ctx.Err() != nil {
		le.release()
	}
	if f := le.cfg.Callbacks.OnStoppedLeading; f != nil {
		f()
	}
}

// acquire tries every RetryPeriod (with jitter) until it holds the lease
// or ctx ends.
func (le *LeaderElector) acquire(ctx context.Context) bool {
	for {
		if le.tryAcquireOrRenew(ctx) {
			return true
		}
		wait := le.cfg.RetryPeriod + time.Duration(rand.Float64()*jitterFactor*float64(le.cfg.RetryPeriod))
		if !sleep(ctx, wait) {
			return false
		}
	}
}

// renew renews every RetryPeriod; it returns when a renewal has not
// succeeded for RenewDeadline, or ctx ends.
func (le *LeaderElector) renew(ctx context.Context) {
	for {
		deadline := time.Now().Add(le.cfg.RenewDeadline)
		renewed := false
		for !renewed {
			attempt, cancel := context.WithDeadline(ctx, deadline)
			renewed = le.tryAcquireOrRenew(attempt)
			cancel()
			if !renewed && (!sleep(ctx, le.cfg.RetryPeriod) || !time.Now().Before(deadline)) {
				return // ctx ended, or the deadline passed
			}
		}
		if !sleep(ctx, le.cfg.RetryPeriod) {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
