package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// Report is what an exploration found.
type Report struct {
	// Plans is how many plans were run, not counting the reference run
	// and shrinking.
	Plans int
	// Runs is how many runs were made in all.
	Runs int
	// Elapsed is the real time the exploration took.
	Elapsed time.Duration
	// Writes and Events are how many writes the controllers made and
	// events their informers received in the reference run: the points
	// the plans perturb.
	Writes, Events int
	// Reference is the reference run told in full, one record a line (see
	// [Render]): where the points of the plans are.
	Reference string
	// Violations are the distinct ways a run went wrong, in the order
	// found: one per invariant broken, and one each for an end state
	// that differs, a step that fails, a controller that stops, and a run
	// that does not settle.
	Violations []*Violation
}

// Violation is one way a run went wrong, with the plan that makes it
// happen.
type Violation struct {
	// Plan is the smallest plan found that goes wrong this way: the
	// replay line.
	Plan Plan
	// Found is the plan as first found, before shrinking.
	Found Plan
	// After is how many plans had run when Found failed (1 for the
	// first); 0 for the reference run.
	After int
	// Elapsed is how long the exploration had run when Found failed.
	Elapsed time.Duration
	// Hits counts the plans that went wrong this way.
	Hits int
	// Failing are the plans that went wrong this way, in the order run.
	Failing []Plan
	// What says what went wrong: "invariant", "end state", "step",
	// "controller" or "settle".
	What string
	// Message says it in a sentence.
	Message string
	// Narration is the failing run told around the moment it went wrong,
	// one [trace.Record] per line (see [Render]).
	Narration string
	// Diff is, for an end state that differs, go-cmp's diff between the
	// reference run's end state (-) and this run's (+).
	Diff string
	// Replay is the command that replays Plan, to run from the root of
	// the test's module: go test, the test's package, -run and
	// -explore.plan.
	Replay string
}

// violation builds the report of run r of plan small, found as found
// after plans plans.
func (x *explorer) violation(found, small Plan, r *run, plans int) *Violation {
	f := r.fail
	return &Violation{
		Plan: small, Found: found, After: plans, Hits: 1, Failing: []Plan{found},
		What: f.kind, Message: f.msg, Diff: f.diff,
		Narration: narrate(r.records(), f.at),
		Replay:    replayLine(x.pkg, x.t.Name(), small),
	}
}

// replayLine is the go test command that runs test name of package pkg
// (as [testPackage] names it; "" leaves it out) with plan.
func replayLine(pkg, test string, plan Plan) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	if pkg != "" {
		pkg += " "
	}
	return fmt.Sprintf("go test %s-run '%s' -explore.plan='%s'", pkg, strings.Join(parts, "/"), plan)
}

// testPackage returns the package of the running test as go test takes
// it from the root of its module: "./dir/of/pkg", or "." for the root.
// It is found from the source file of the test function (the function
// that testing.tRunner called, up the caller's stack) and the go.mod
// above it. Built with -trimpath, source files are named by import path:
// the import path then; without a go.mod above, the absolute directory.
// "" if the stack holds no test function (Explore called from a
// goroutine of its own).
func testPackage() string {
	pcs := make([]uintptr, 256)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	file := ""
	for {
		f, more := frames.Next()
		if f.Function == "testing.tRunner" {
			break
		}
		if !more {
			return ""
		}
		file = f.File
	}
	if file == "" {
		return ""
	}
	dir := filepath.Dir(file)
	if !filepath.IsAbs(dir) {
		return filepath.ToSlash(dir)
	}
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, dir)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(root)
		if parent == root {
			return dir
		}
		root = parent
	}
}

// String formats the violation for a test log: what went wrong, the
// plan and how to replay it, the narration and the diff.
func (v *Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "explore: %s\n", v.Message)
	fmt.Fprintf(&b, "plan: %s", v.Plan)
	if v.After > 0 {
		fmt.Fprintf(&b, " (found as %s, plan %d, after %v; %d plan(s) fail this way)",
			v.Found, v.After, v.Elapsed.Round(time.Millisecond), v.Hits)
	}
	fmt.Fprintf(&b, "\nreplay: %s\n", v.Replay)
	b.WriteString("narration:\n" + indent(v.Narration) + "\n")
	if v.Diff != "" {
		b.WriteString("end state (-reference +this run):\n" + indent(v.Diff) + "\n")
	}
	return b.String()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
