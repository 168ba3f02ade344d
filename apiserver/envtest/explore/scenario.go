package explore

import (
	"context"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// Scenario is what a user gives the explorer: the kinds to serve, the
// controllers under test, a workload, and what must hold.
type Scenario struct {
	// Kinds are registered in a fresh scheme for every run.
	Kinds []meta.KindInfo
	// Server are the options of every run's [apiserver.Server].
	Server apiserver.Options
	// Setup runs before the controllers start (e.g. to create what they
	// expect to find). It is not part of the workload: never skipped, no
	// point counted in it.
	Setup []Step
	// Controllers are started, each with a [Conn] of its own, after Setup.
	Controllers []Controller
	// Workload is the users' writes, one step at a time; after each step
	// the explorer lets the controllers act until everything is quiet.
	Workload []Step
	// Invariants must hold at every quiet point: after each step of the
	// workload, and after each event the explorer delivers. They are
	// safety properties ("never two children for one parent"), not
	// progress ("every parent has a child"), which a correct controller
	// breaks for a moment after each write; progress is checked by the end
	// state.
	Invariants []Invariant
	// EndState reads what a run ends with, to compare with the reference
	// run's. Nil means [Objects]: every object of every kind, without the
	// fields that differ from run to run.
	EndState func(ctx context.Context, api client.Interface) (any, error)
	// Compare are go-cmp options for comparing end states (e.g.
	// cmpopts.IgnoreFields for a status timestamp).
	Compare []cmp.Option
}

// Controller is one of the user's controllers, as the explorer starts it:
// a name for plans and narration, and a function that runs it.
type Controller struct {
	// Name names the controller in plans ("crash:chef@2.w1").
	Name string
	// Start runs the controller until ctx is done, then returns, having
	// stopped every goroutine it started. It must reach the API server
	// only through conn, and keep no state between calls that a restarted
	// process would not keep: the explorer calls it again, with a fresh
	// Conn, after each crash. An error it returns before ctx is done is a
	// violation.
	Start func(ctx context.Context, conn Conn) error
}

// Conn is how a controller reaches the API server: the explorer's front
// for that controller, through which every perturbation happens.
type Conn struct {
	// API is the server as the controller sees it: in process, the
	// explorer's view of the server; over HTTP, a *rest.Client of the
	// controller's front (without a rate limit). Give it to
	// informer.NewSharedInformerFactory and reconcile.NewClient.
	API client.Interface
	// Tracer, if the controller gives it to its informers and controllers
	// (informer.WithTracer, reconcile.Options), adds their reconciles to
	// the narration of a failing run.
	Tracer *trace.Tracer
	// Host is, over HTTP ([Options].HTTP), the URL of the controller's
	// front (http://127.0.0.1:PORT): all client-go's rest.Config needs.
	// Empty in process.
	Host string
	// Kubeconfig is, over HTTP, the path of a kubeconfig file for Host.
	Kubeconfig string
}

// Step is one step of a workload: writes that users make at once. The
// explorer waits for everything to be quiet after each.
type Step struct {
	// Name says what the step does, for narration ("delete parent p1").
	Name string
	// Do makes the writes. An error is a violation, unless the run is the
	// reference run (then the scenario is wrong and the test fails).
	Do func(ctx context.Context, api client.Interface) error
}

// Invariant is a safety property checked at every quiet point.
type Invariant struct {
	// Name names it in reports ("one child per parent").
	Name string
	// Check returns an error that says what is wrong, reading the server
	// through api.
	Check func(ctx context.Context, api client.Interface) error
}

// Options say how to explore.
type Options struct {
	// Plan, if set, replays this plan only (see [ParsePlan]) instead of
	// exploring. The test flag -explore.plan sets it for every
	// exploration in the test binary.
	Plan string
	// MaxPlans caps the plans tried (the reference run and shrinking do
	// not count). Default 1000.
	MaxPlans int
	// Try are the kinds of perturbation to try. Default: all, in the
	// order of [AllKinds].
	Try []Kind
	// Settle is how long (fake time in process) the explorer waits with
	// no event and no write before it moves on to the next step: long
	// enough for retries with backoff and RequeueAfter to happen. It waits
	// in doubling slices, from a millisecond. Default one minute. Over
	// HTTP it is real time, in slices from Quiet: default 10 × Quiet, more
	// than the 100ms that client-go's WaitForCacheSync polls in, so that a
	// restarted controller-runtime manager has started its workers. After
	// an [Expire], it waits up to 3 s (real or fake) for the informer to
	// list again: client-go's reflector backs off up to 1.6 s first.
	Settle time.Duration
	// MaxSteps caps the events delivered and writes made after one
	// workload step; a run that goes past it "does not settle" (a hot
	// loop), which is a violation. Default 2000.
	MaxSteps int
	// NoShrink reports failing plans as found, without shrinking them.
	NoShrink bool
	// HTTP serves each controller over HTTP through a front of its own
	// (Conn.Host, Conn.Kubeconfig), for client-go and controller-runtime
	// controllers. Runs are then in real time, outside testing/synctest:
	// see the package doc for what stays deterministic.
	HTTP bool
	// Quiet is, over HTTP, how long no request may start or end, and no
	// event may be delivered, before the explorer calls a moment quiet.
	// Default 30ms.
	Quiet time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxPlans <= 0 {
		o.MaxPlans = 1000
	}
	if len(o.Try) == 0 {
		o.Try = AllKinds()
	}
	if o.Quiet <= 0 {
		o.Quiet = 30 * time.Millisecond
	}
	if o.Settle <= 0 {
		o.Settle = time.Minute
		if o.HTTP {
			o.Settle = 10 * o.Quiet
		}
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 2000
	}
	return o
}

// firstIdle is the first slice of time the explorer waits in when
// nothing is left to deliver.
func (o Options) firstIdle() time.Duration {
	if o.HTTP {
		return o.Quiet
	}
	return time.Millisecond
}
