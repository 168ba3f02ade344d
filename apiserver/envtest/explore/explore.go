package explore

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/trace"
)

// planFlag replays one plan in every exploration of the test binary.
var planFlag = flag.String("explore.plan", "", "replay this plan (a replay line of package explore) instead of exploring")

// Explore runs the scenario once unperturbed (the reference run), learns
// from it the points worth perturbing, then runs one plan per
// perturbation, in fake time, and returns what it found, each failing
// plan shrunk. It fails t only if the scenario is malformed (an error
// naming the field) or a plan to replay does not parse; a violation,
// even of the reference run, is in the report. [Check] fails t on
// violations.
//
// With Options.Plan or the test flag -explore.plan set, it runs the
// reference and that one plan only.
//
// Each run happens inside a testing/synctest bubble of its own (over
// HTTP, in real time): so Explore must not be called from inside one.
func Explore(t *testing.T, s Scenario, opts Options) *Report {
	t.Helper()
	opts = opts.withDefaults()
	if opts.Plan == "" {
		opts.Plan = *planFlag
	}
	x, err := newExplorer(t, s, opts)
	if err != nil {
		t.Fatal(err)
		return nil
	}
	var replay *Plan
	if opts.Plan != "" {
		p, err := x.parsePlan(opts.Plan)
		if err != nil {
			t.Fatal(err)
			return nil
		}
		replay = &p
	}
	return x.explore(replay)
}

// Check is [Explore] for a user's own test: it fails t with every
// violation found (its replay line, narration and diff), and returns the
// report.
func Check(t *testing.T, s Scenario, opts Options) *Report {
	t.Helper()
	rep := Explore(t, s, opts)
	for _, v := range rep.Violations {
		t.Error(v.String())
	}
	return rep
}

// explorer explores one scenario.
type explorer struct {
	t     *testing.T
	pkg   string // the test's package, for replay lines
	s     Scenario
	opts  Options
	dir   string // for kubeconfigs, over HTTP
	runs  int
	refs  map[string]*run // reference runs, by the steps they skip
	start time.Time
}

func newExplorer(t *testing.T, s Scenario, opts Options) (*explorer, error) {
	if err := validate(s); err != nil {
		return nil, err
	}
	return &explorer{t: t, pkg: testPackage(), s: s, opts: opts, refs: map[string]*run{}}, nil
}

// validate checks a scenario before any run, naming what is wrong.
func validate(s Scenario) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("explore: Scenario.%s: %s", field, fmt.Sprintf(format, args...))
	}
	if err := meta.NewScheme().Register(s.Kinds...); err != nil {
		return bad("Kinds", "%v", err)
	}
	if len(s.Controllers) == 0 {
		return bad("Controllers", "no controller to explore")
	}
	seen := map[string]bool{"user": true}
	for i, c := range s.Controllers {
		switch {
		case c.Name == "" || strings.ContainsAny(c.Name, ":/@, "):
			return bad(fmt.Sprintf("Controllers[%d].Name", i), "%q is not a name (non-empty, none of : / @ , or space)", c.Name)
		case seen[c.Name]:
			return bad(fmt.Sprintf("Controllers[%d].Name", i), "%q is taken (by another controller, or the workload's \"user\")", c.Name)
		case c.Start == nil:
			return bad(fmt.Sprintf("Controllers[%d].Start", i), "nil")
		}
		seen[c.Name] = true
	}
	for field, steps := range map[string][]Step{"Setup": s.Setup, "Workload": s.Workload} {
		for i, st := range steps {
			if st.Do == nil {
				return bad(fmt.Sprintf("%s[%d].Do", field, i), "nil")
			}
		}
	}
	for i, inv := range s.Invariants {
		if inv.Check == nil {
			return bad(fmt.Sprintf("Invariants[%d].Check", i), "nil")
		}
	}
	return nil
}

// parsePlan parses a plan to replay and checks that its controllers,
// resources and steps exist.
func (x *explorer) parsePlan(s string) (Plan, error) {
	p, err := ParsePlan(s)
	if err != nil {
		return p, err
	}
	resources := map[string]bool{}
	for _, k := range x.s.Kinds {
		resources[k.Resource] = true
	}
	for _, q := range p.Perturbations {
		if !x.hasController(q.Controller) {
			return p, &PlanError{q.String(), fmt.Sprintf("no controller %q in this scenario", q.Controller)}
		}
		if q.Resource != "" && !resources[q.Resource] {
			return p, &PlanError{q.String(), fmt.Sprintf("no resource %q in this scenario's kinds", q.Resource)}
		}
		if q.Step > len(x.s.Workload) {
			return p, &PlanError{q.String(), fmt.Sprintf("the workload has %d steps", len(x.s.Workload))}
		}
	}
	return p, nil
}

func (x *explorer) hasController(name string) bool {
	for _, c := range x.s.Controllers {
		if c.Name == name {
			return true
		}
	}
	return false
}

// newRun prepares a run of plan, compared with ref (nil: a reference
// run, which learns the points worth perturbing).
func (x *explorer) newRun(plan Plan, ref *run) *run {
	scheme := meta.NewScheme()
	if err := scheme.Register(x.s.Kinds...); err != nil {
		panic(err) // validate registered them already
	}
	r := &run{x: x, plan: plan, ref: ref, front: inProcess{}, scheme: scheme, tr: trace.New(),
		used: make([]bool, len(plan.Perturbations))}
	if ref == nil {
		r.learn = &learned{}
	}
	r.tr.Subscribe(func(rec trace.Record) {
		if keep(rec) {
			r.recMu.Lock()
			r.recs = append(r.recs, rec)
			r.recMu.Unlock()
		}
	})
	for i, c := range x.s.Controllers {
		r.ctrls = append(r.ctrls, &ctrlState{Controller: c, idx: i, writes: map[int]int{}, events: map[string]map[int]int{}})
	}
	return r
}

// run runs plan once, in a bubble of its own (over HTTP, in real time).
func (x *explorer) run(plan Plan, ref *run) *run {
	r := x.newRun(plan, ref)
	x.runs++
	body := func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r.srv = apiserver.NewServer(r.scheme, x.s.Server)
		r.user = &view{r: r}
		if h, ok := r.front.(*overHTTP); ok {
			h.open(r)
			defer h.close()
		}
		r.execute(ctx)
	}
	if !x.opts.HTTP {
		synctest.Test(x.t, func(*testing.T) { body() })
		return r
	}
	if x.dir == "" {
		x.dir = x.t.TempDir()
	}
	r.front = &overHTTP{quietFor: x.opts.Quiet, dir: x.dir}
	body()
	return r
}

// reference returns the reference run that leaves out the steps skip,
// running it the first time.
func (x *explorer) reference(skip []int) *run {
	key := fmt.Sprint(skip)
	if r, ok := x.refs[key]; ok {
		return r
	}
	r := x.run(Plan{Skip: skip}, nil)
	x.refs[key] = r
	return r
}
