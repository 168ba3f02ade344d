package explore

import (
	"fmt"
	"slices"
	"time"
)

// point is a place in the reference run where a perturbation can happen:
// a controller's write (res empty) or an event to one of its informers.
type point struct {
	ctrl, res   string
	step, index int
	verb        string // of a write
	chain       int    // events delivered before it: writes with the same chain answer one event
}

// learned is what the reference run teaches: where it can be perturbed.
type learned struct {
	writes []point
	events []point
}

// candidates returns the plans worth trying after the reference run ref,
// at most max: one perturbation each, taking turns between the kinds so
// that every kind is tried early, and within a kind taking turns between
// the steps and the informers (or controllers), so that a small budget
// still reaches every informer and the last steps.
func (x *explorer) candidates(ref *run, max int) []Plan {
	var perKind [][]Plan
	for _, k := range x.opts.Try {
		var groups [][]Plan
		index := map[string]int{}
		add := func(p Perturbation) {
			g := fmt.Sprint(p.Step, p.Controller, p.Resource)
			i, ok := index[g]
			if !ok {
				i = len(groups)
				index[g] = i
				groups = append(groups, nil)
			}
			groups[i] = append(groups[i], Plan{Perturbations: []Perturbation{p}})
		}
		switch {
		case k.atWrite():
			for _, w := range ref.learn.writesByInterest(k) {
				if k != Conflict || isUpdate(w.verb) {
					add(Perturbation{Kind: k, Controller: w.ctrl, Step: w.step, Index: w.index})
				}
			}
		case k.atEvent():
			for _, e := range ref.learn.events {
				add(Perturbation{Kind: k, Controller: e.ctrl, Resource: e.res, Step: e.step, Index: e.index})
			}
		case k == Down:
			for step := 1; step <= len(x.s.Workload); step++ {
				for _, c := range x.s.Controllers {
					add(Perturbation{Kind: k, Controller: c.Name, Step: step})
				}
			}
		}
		perKind = append(perKind, roundRobin(groups))
	}
	plans := roundRobin(perKind)
	return plans[:min(len(plans), max)]
}

// writesByInterest returns the writes in the order worth perturbing with
// k. For a crash, first those that the same controller followed with
// another write in answer to the same event: a crash between two writes
// that go together is an intermediate state; after the last, it is much
// like a crash between reconciles.
func (l *learned) writesByInterest(k Kind) []point {
	if k != Crash && k != Stale {
		return l.writes
	}
	var first, then []point
	for i, w := range l.writes {
		mid := false
		for _, next := range l.writes[i+1:] {
			if next.ctrl == w.ctrl {
				mid = next.chain == w.chain
				break
			}
		}
		if mid {
			first = append(first, w)
		} else {
			then = append(then, w)
		}
	}
	return append(first, then...)
}

// roundRobin takes one from each list in turn until all are used up.
func roundRobin(lists [][]Plan) []Plan {
	var out []Plan
	for i := 0; ; i++ {
		more := false
		for _, l := range lists {
			if i < len(l) {
				out = append(out, l[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// explore runs the reference, then replay (if set) or every candidate
// plan, and reports.
func (x *explorer) explore(replay *Plan) *Report {
	x.start = time.Now()
	rep := &Report{}
	defer func() {
		rep.Runs, rep.Elapsed = x.runs, time.Since(x.start)
	}()
	ref := x.reference(nil)
	rep.Writes, rep.Events = len(ref.learn.writes), len(ref.learn.events)
	rep.Reference = narrateAll(ref.records())
	if ref.fail != nil {
		rep.Violations = append(rep.Violations, x.violation(Plan{}, Plan{}, ref, 0))
		return rep
	}
	if replay != nil {
		rep.Plans = 1
		ref = x.reference(replay.Skip)
		if r := x.run(*replay, ref); r.fail != nil {
			rep.Violations = append(rep.Violations, x.violation(*replay, *replay, r, 1))
		}
		return rep
	}
	x.exploreAll(rep, ref)
	return rep
}

// exploreAll runs every candidate plan, grouping the failures by what
// went wrong and shrinking the first plan of each.
func (x *explorer) exploreAll(rep *Report, ref *run) {
	bySig := map[string]*Violation{}
	for _, p := range x.candidates(ref, x.opts.MaxPlans) {
		rep.Plans++
		r := x.run(p, ref)
		if r.fail == nil {
			continue
		}
		sig := r.fail.signature()
		if v := bySig[sig]; v != nil {
			v.Hits++
			v.Failing = append(v.Failing, p)
			continue
		}
		found := time.Since(x.start)
		small, sr := p, r
		if !x.opts.NoShrink {
			small, sr = x.shrink(p, r)
		}
		v := x.violation(p, small, sr, rep.Plans)
		v.Elapsed = found
		bySig[sig] = v
		rep.Violations = append(rep.Violations, v)
	}
}

// maxShrinkRuns bounds the runs spent shrinking one failing plan.
const maxShrinkRuns = 120

// shrink looks for a smaller plan that fails the same way as r: fewer
// perturbations, then fewer workload steps (leaving out each step no
// perturbation happens in, from the last). It returns the smallest found
// and its run.
func (x *explorer) shrink(p Plan, r *run) (Plan, *run) {
	sig, budget := r.fail.signature(), x.runs+maxShrinkRuns
	try := func(c Plan) *run {
		if x.runs >= budget {
			return nil
		}
		ref := x.reference(c.Skip)
		if ref.fail != nil {
			return nil
		}
		if cr := x.run(c, ref); cr.fail != nil && cr.fail.signature() == sig {
			return cr
		}
		return nil
	}
	for i := 0; len(p.Perturbations) > 1 && i < len(p.Perturbations); {
		c := Plan{Perturbations: slices.Delete(slices.Clone(p.Perturbations), i, i+1), Skip: p.Skip}
		if cr := try(c); cr != nil {
			p, r = c, cr
			continue
		}
		i++
	}
	needed := map[int]bool{}
	for _, q := range p.Perturbations {
		needed[q.Step] = true
	}
	for step := len(x.s.Workload); step >= 1; step-- {
		if needed[step] || p.skips(step) {
			continue
		}
		skip := append(slices.Clone(p.Skip), step)
		slices.Sort(skip)
		c := Plan{Perturbations: p.Perturbations, Skip: skip}
		if cr := try(c); cr != nil {
			p, r = c, cr
		}
	}
	return p, r
}
