package explore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is a kind of perturbation. Each belongs to one of the three classes
// of Sieve (stale, intermediate and unobserved state) or is a plain fault.
type Kind string

// The kinds of perturbation, in the order the explorer tries them.
const (
	// Crash (intermediate state) kills the controller right after one of
	// its writes is committed, before it can make the next, and starts it
	// again with fresh caches once the rest is quiet.
	Crash Kind = "crash"
	// Lag (stale state) holds back the events of one of the
	// controller's informers, from one event on, while the controller goes
	// on acting on everything else; they arrive, in order, once nothing
	// else is left to do.
	Lag Kind = "lag"
	// Coalesce (unobserved state) holds back the events of one informer
	// like Lag, then delivers only the last state of each object: the
	// informer never sees the states in between, and never sees an
	// object that came and went, as after a relist.
	Coalesce Kind = "coalesce"
	// Down (unobserved state) stops the controller before a workload step
	// and starts it again, with fresh caches, after the step and
	// everything it caused: the controller never sees that step's events.
	Down Kind = "down"
	// Stale (stale state) crashes the controller after one of its writes,
	// like Crash, and starts it again on a view of the server from just
	// before that write: its first lists are read at that older
	// resourceVersion (as from a lagging API server's watch cache), and
	// its watches replay what came after.
	Stale Kind = "stale"
	// Conflict answers one of the controller's updates (Update,
	// UpdateStatus or Patch) with 409 Conflict, without writing.
	Conflict Kind = "conflict"
	// Cut ends the watch of one informer cleanly just before one event;
	// the informer watches again from the last resourceVersion it saw.
	Cut Kind = "cut"
	// Expire ends the watch of one informer with 410 Expired just before
	// one event; the informer lists again.
	Expire Kind = "expire"
)

// AllKinds returns every kind of perturbation, in the order the explorer
// tries them.
func AllKinds() []Kind {
	return []Kind{Crash, Lag, Coalesce, Down, Stale, Conflict, Cut, Expire}
}

// atWrite reports whether k happens at one of the controller's writes
// (its point is "STEP.wN"); atEvent, at an event to an informer
// ("STEP.eN"); the others happen at a whole step ("STEP").
func (k Kind) atWrite() bool { return k == Crash || k == Stale || k == Conflict }
func (k Kind) atEvent() bool { return k == Lag || k == Coalesce || k == Cut || k == Expire }

// Perturbation is one thing the explorer does to one controller at one
// point of a run. A point is counted within a workload step, so that it
// names the same moment when other steps are left out: "the controller's
// second write during step 3" (3.w2), "the first event its children
// informer receives during step 2" (2.e1). Step 0 is the start-up, before
// the first step of the workload.
type Perturbation struct {
	// Kind is what is done.
	Kind Kind
	// Controller names the controller it is done to.
	Controller string
	// Resource names the informer, by the plural resource it watches
	// (e.g. "children"), for kinds that act on one ([Lag], [Coalesce],
	// [Cut], [Expire]).
	Resource string
	// Step is the workload step (0 for the start-up).
	Step int
	// Index counts the controller's writes (for [Crash], [Stale],
	// [Conflict]) or the informer's events (the others on an informer)
	// within Step, from 1; 0 for [Down].
	Index int
}

// String formats p as in a plan: "crash:chef@2.w1",
// "lag:chef/children@3.e2", "down:chef@4".
func (p Perturbation) String() string {
	who := p.Controller
	if p.Resource != "" {
		who += "/" + p.Resource
	}
	at := strconv.Itoa(p.Step)
	switch {
	case p.Kind.atWrite():
		at += ".w" + strconv.Itoa(p.Index)
	case p.Kind.atEvent():
		at += ".e" + strconv.Itoa(p.Index)
	}
	return string(p.Kind) + ":" + who + "@" + at
}

// Plan is a run's perturbations, and the workload steps it leaves out
// (shrinking leaves out the steps a failure does not need). The zero Plan
// is the reference run. Its String is the replay line: [ParsePlan] reads
// it back, and the test flag -explore.plan replays it.
type Plan struct {
	// Perturbations happen in the run, each once.
	Perturbations []Perturbation
	// Skip lists workload steps (numbered from 1) that the run leaves out.
	Skip []int
}

// String formats the plan on one line, perturbations and skipped steps
// (runs of them as ranges) separated by commas:
// "crash:chef@2.w1,skip:1,skip:3-8". The reference run is "none".
func (p Plan) String() string {
	var parts []string
	for _, x := range p.Perturbations {
		parts = append(parts, x.String())
	}
	skip := slices.Clone(p.Skip)
	slices.Sort(skip)
	for i := 0; i < len(skip); {
		j := i
		for j+1 < len(skip) && skip[j+1] == skip[j]+1 {
			j++
		}
		part := "skip:" + strconv.Itoa(skip[i])
		if j > i {
			part += "-" + strconv.Itoa(skip[j])
		}
		parts = append(parts, part)
		i = j + 1
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// skips reports whether step is left out.
func (p Plan) skips(step int) bool { return slices.Contains(p.Skip, step) }

// PlanError says what is wrong with a plan's text, naming the part.
type PlanError struct {
	// Part is the comma-separated part at fault ("" for the whole plan).
	Part string
	// Reason says what is wrong with it.
	Reason string
}

// Error names the part and the reason.
func (e *PlanError) Error() string {
	if e.Part == "" {
		return "explore: plan: " + e.Reason
	}
	return fmt.Sprintf("explore: plan part %q: %s", e.Part, e.Reason)
}

// ParsePlan reads a plan from its [Plan.String] form. "" and "none" are
// the reference run. A malformed part is a [*PlanError] naming it.
func ParsePlan(s string) (Plan, error) {
	var p Plan
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return p, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if rest, ok := strings.CutPrefix(part, "skip:"); ok {
			from, to, isRange := strings.Cut(rest, "-")
			a, errA := strconv.Atoi(from)
			b, errB := a, error(nil)
			if isRange {
				b, errB = strconv.Atoi(to)
			}
			if errA != nil || errB != nil || a < 1 || b < a {
				return Plan{}, &PlanError{part, "skipped steps are a number from 1, or a range N-M"}
			}
			for n := a; n <= b; n++ {
				p.Skip = append(p.Skip, n)
			}
			continue
		}
		x, err := parsePerturbation(part)
		if err != nil {
			return Plan{}, err
		}
		p.Perturbations = append(p.Perturbations, x)
	}
	return p, nil
}

// parsePerturbation reads "KIND:CONTROLLER[/RESOURCE]@STEP[.wN|.eN]".
func parsePerturbation(part string) (Perturbation, error) {
	bad := func(reason string) (Perturbation, error) {
		return Perturbation{}, &PlanError{part, reason}
	}
	kind, rest, ok := strings.Cut(part, ":")
	if !ok || !slices.Contains(AllKinds(), Kind(kind)) {
		return bad(fmt.Sprintf("want KIND:CONTROLLER@POINT with KIND one of %v or skip", AllKinds()))
	}
	who, at, ok := strings.Cut(rest, "@")
	if !ok || who == "" {
		return bad("want KIND:CONTROLLER@POINT")
	}
	p := Perturbation{Kind: Kind(kind)}
	p.Controller, p.Resource, _ = strings.Cut(who, "/")
	if p.Kind.atEvent() != (p.Resource != "") {
		if p.Kind.atEvent() {
			return bad(kind + " needs an informer: CONTROLLER/RESOURCE")
		}
		return bad(kind + " acts on a whole controller: no /RESOURCE")
	}
	var reason string
	if p.Step, p.Index, reason = parsePoint(p.Kind, at); reason != "" {
		return bad(reason)
	}
	return p, nil
}

// parsePoint reads where a perturbation of kind k happens: "STEP.wN",
// "STEP.eN" or "STEP". The reason is empty if it is well formed.
func parsePoint(k Kind, at string) (step, index int, reason string) {
	s, i, hasIndex := strings.Cut(at, ".")
	step, err := strconv.Atoi(s)
	if err != nil || step < 0 {
		return 0, 0, "the step is a number from 0"
	}
	want := ""
	switch {
	case k.atWrite():
		want = "w"
	case k.atEvent():
		want = "e"
	}
	switch {
	case hasIndex && want == "":
		return 0, 0, string(k) + " happens at a whole step: @STEP"
	case !hasIndex && want != "":
		return 0, 0, fmt.Sprintf("%s needs a point: @STEP.%sN", k, want)
	case k == Down && step == 0:
		return 0, 0, "down needs a workload step, from 1"
	case want == "":
		return step, 0, ""
	}
	n, found := strings.CutPrefix(i, want)
	if index, err = strconv.Atoi(n); !found || err != nil || index < 1 {
		return 0, 0, fmt.Sprintf("the point is %sN with N from 1", want)
	}
	return step, index, ""
}
