package bakery

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Config is what every scene gets.
type Config struct {
	// Out receives the narration, one line per hand-off; nil is silent.
	Out io.Writer
	// Seed drives whatever a scene draws at random (the Valentine's rush).
	Seed int64
	// Minute is the real duration of one shop minute (default DefaultMinute).
	Minute time.Duration
	// Logger receives the controllers' structured logs; nil discards them.
	Logger *slog.Logger
}

// Scene is one scene of the cake-shop story, runnable on its own.
type Scene struct {
	Name  string // the -scene flag's value
	Title string
	// Run plays the scene and returns what happened.
	Run func(ctx context.Context, cfg Config) (*Report, error)
}

// Report is what a scene leaves behind, for the summary and for tests.
// Everything in it is deterministic for a given seed.
type Report struct {
	Scene string
	// Outcomes maps each order ("branch/name", or "cluster:branch/name"
	// in multi-cluster scenes) to how it ended: Completed, Failed or
	// Cancelled (deleted after its deposit was refunded).
	Outcomes map[string]string
	// Cakes holds the final state of every order still stored, keyed like
	// Outcomes.
	Cakes map[string]*Cake
	// Refunds counts the refunds the journal records, per order.
	Refunds map[string]int
	// Numbers are the scene's own counts, by name (e.g. "max-concurrent").
	Numbers map[string]int
	// Delays are the rate limiter's retry delays per order, in shop time.
	Delays map[string][]time.Duration
	// Served lists orders in the order the baker started them, where the
	// scene cares (the VIP queue).
	Served []string
	// Replicas lists the autoscaler's decisions, in order.
	Replicas []int
	// Facts are the scene's own findings, one line each, for people.
	Facts []string
	// Entries are every hand-off narrated, journal by journal.
	Entries []Entry

	kept map[*Journal]bool
}

func newReport(scene string) *Report {
	return &Report{Scene: scene, Outcomes: map[string]string{}, Cakes: map[string]*Cake{}, Refunds: map[string]int{},
		Numbers: map[string]int{}, Delays: map[string][]time.Duration{}, kept: map[*Journal]bool{}}
}

// keep adds j's entries (once) to the report, counting refunds.
func (r *Report) keep(j *Journal) {
	if r.kept[j] {
		return
	}
	r.kept[j] = true
	for _, en := range j.Entries() {
		r.Entries = append(r.Entries, en)
		if en.Event == "refunded" {
			r.Refunds[en.Key]++
		}
	}
}

func (r *Report) fact(format string, args ...any) {
	r.Facts = append(r.Facts, fmt.Sprintf(format, args...))
}

// Write prints the report as the summary of its scene.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "== summary: %s\n", r.Scene)
	byOutcome := map[string][]string{}
	for k, o := range r.Outcomes {
		byOutcome[o] = append(byOutcome[o], k)
	}
	for _, o := range slices.Sorted(maps.Keys(byOutcome)) {
		keys := byOutcome[o]
		slices.Sort(keys)
		fmt.Fprintf(w, "   %-10s %d: %s\n", o, len(keys), strings.Join(keys, " "))
	}
	for _, f := range r.Facts {
		fmt.Fprintf(w, "   %s\n", f)
	}
}

// Scenes returns every scene, in story order.
func Scenes() []Scene {
	return []Scene{
		{"order-form", "1. The form is a CRD; a filled-in order is a Cake (订单受理台)", SceneOrderForm},
		{"lifecycle", "2. Front desk and baker: new, modified, cancelled orders", SceneLifecycle},
		{"faults", "3. Fault tolerance: frosting, collapses, oven failures, decoration last", SceneFaults},
		{"branches", "4. Branches, two clusters, a dispatcher and disaster recovery", SceneBranches},
		{"rush", "5. Valentine's Day: autoscaling bakers, spare ovens, degraded service", SceneRush},
		{"edge", "6. Edge cases: the wedding cake (RequeueAfter vs error) and VIP orders", SceneEdge},
		{"practices", "7. Best practices: idempotency, checkpoints, 5 bakers, resync, logs", ScenePractices},
		{"monitoring", "8. Monitoring: short reconciles, and the alert that sees a slow oven", SceneMonitoring},
	}
}

// SceneByName returns the scene called name.
func SceneByName(name string) (Scene, bool) {
	for _, s := range Scenes() {
		if s.Name == name {
			return s, true
		}
	}
	return Scene{}, false
}

// env is the stage of a scene: one API server ("cluster"), a clock, the
// journal, the till and the order desk.
type env struct {
	cfg   Config
	clock *Clock
	j     *Journal
	srv   *apiserver.Server
	till  *Till
	cakes *client.Client[*Cake]
	desk  OrderDesk
}

func newEnv(cfg Config) *env {
	e := &env{cfg: cfg, clock: NewClock(cfg.Minute), j: NewJournal(cfg.Out), srv: NewServer(), till: &Till{}}
	e.cakes = client.New[*Cake](e.srv)
	e.desk = OrderDesk{Client: e.cakes, Till: e.till}
	return e
}

// shop returns the options of a shop on e's server.
func (e *env) shop(o ShopOptions) ShopOptions {
	if o.Server == nil {
		o.Server = e.srv
	}
	o.Clock, o.Journal, o.Logger = e.clock, e.j, e.cfg.Logger
	if o.Till == nil {
		o.Till = e.till
	}
	return o
}

// order has a customer place an order.
func (e *env) order(ctx context.Context, branch, name string, spec CakeSpec) error {
	e.j.Say("customer", branch+"/"+name, "ordered", "orders %s/%s: %s", branch, name, describe(spec))
	c := &Cake{ObjectMeta: meta.ObjectMeta{Namespace: branch, Name: name}, Spec: spec}
	_, err := e.desk.Place(ctx, c)
	return err
}

// change has the customer edit an order.
func (e *env) change(ctx context.Context, branch, name, what string, edit func(*CakeSpec)) error {
	e.j.Say("customer", branch+"/"+name, "edited", "changes %s: %s", name, what)
	return client.RetryOnConflict(client.DefaultRetry, func() error {
		c, err := e.cakes.Namespace(branch).Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return err
		}
		edit(&c.Spec)
		_, err = e.cakes.Namespace(branch).Update(ctx, c, meta.UpdateOptions{})
		return err
	})
}

// cancel has the customer cancel an order.
func (e *env) cancel(ctx context.Context, branch, name string) error {
	e.j.Say("customer", branch+"/"+name, "cancelled", "cancels %s", name)
	return e.cakes.Namespace(branch).Delete(ctx, name, meta.DeleteOptions{})
}

// await waits until the journal has n entries of event for key.
func (e *env) await(ctx context.Context, key, event string, n int) error {
	return e.j.Await(ctx, n, Is(key, event))
}

// outcomes fills r.Outcomes and r.Refunds from the server and the till;
// prefix labels the cluster in multi-cluster scenes.
func (e *env) outcomes(ctx context.Context, r *Report, srv *apiserver.Server, till *Till, prefix string) error {
	cakes, _, err := client.New[*Cake](srv).List(ctx, meta.ListOptions{})
	if err != nil {
		return err
	}
	for _, c := range cakes {
		r.Outcomes[prefix+key(c)] = string(c.Status.Phase)
		r.Cakes[prefix+key(c)] = c
	}
	for _, k := range till.Refunded() {
		r.Outcomes[prefix+k] = "Cancelled"
	}
	r.keep(e.j)
	return nil
}
