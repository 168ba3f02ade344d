package chapters

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore/gallery"
)

// Find the bug before production. Step 8's test puts faults where you
// guessed they matter; the bugs that hurt controllers hide where you did
// not guess. The explorer (package apiserver/envtest/explore) stops
// guessing: it runs your controller under a workload of users' writes
// once unperturbed, learns from that run every write it makes and every
// event its informers get, then runs the workload again and again,
// perturbing one of those points each time — a crash right after a
// write, a restart on an older view of the server, an informer that lags
// or sees only the last of a burst, a 409, a cut or expired watch, a
// step it misses — in fake time, milliseconds a run, checking your
// invariants at every quiet moment and the end state against the first
// run's. A failing plan is shrunk, and printed as one line that replays
// it.
//
// Here it explores a controller of the gallery of planted bugs
// (apiserver/envtest/explore/gallery) that gives each Parent one Child:
// it lists the parent's children in its cache and, finding none, creates
// one with a generated name. A cache that lags behind the controller's
// own create shows none a moment too long, and a second child is made:
// below, the controller crashes right after its create, and the restarted
// one lists from a lagging API server.
// The fix is a fixed name — the parent's, plus "-child" — so that a
// second create is refused with 409 AlreadyExists, whatever the cache
// says: the gallery's correct controller, which the explorer then finds
// nothing wrong with.
//
// The explorer runs each plan in a testing/synctest bubble, so it needs
// a test: in go test this chapter is one (TestFindTheBug, whose replay
// line is printed below); go run ./examples/tour runs it with go test.
func FindTheBug(w io.Writer) {
	if !testing.Testing() {
		inGoTest(w, "TestFindTheBug", "github.com/kitchensync/kitchensync/examples/tour/chapters")
		return
	}
	buggy, fixed := gallery.Scenario(gallery.StaleCache()), gallery.Scenario(gallery.Correct())
	var found, again, clean *explore.Report
	asTest("TestFindTheBug", func(t *testing.T) {
		found = explore.Explore(t, buggy, explore.Options{})
		again = explore.Explore(t, buggy, explore.Options{Plan: found.Violations[0].Plan.String()})
		clean = explore.Explore(t, fixed, explore.Options{})
	})
	v := found.Violations[0]
	fmt.Fprintf(w, "the stale-cache controller: %d plans, %d of them fail: %s\n", found.Plans, v.Hits, v.Message)
	fmt.Fprintf(w, "found as %s (plan %d), shrunk to the plan\n  %s\n", v.Found, v.After, v.Plan)
	fmt.Fprintf(w, "replay: %s\n", v.Replay)
	fmt.Fprintf(w, "the same plan replayed: %s\n", again.Violations[0].Message)
	fmt.Fprintf(w, "the failing run, around the moment it went wrong:\n%s\n", v.Narration)
	fmt.Fprintf(w, "fixed (the child's name fixed): %d plans, %d violations\n", clean.Plans, len(clean.Violations))
}

// asTest runs f as go test runs the test name, and waits for it: the
// explorer needs a *testing.T. The testing package's own lines (=== RUN,
// with -v) go to the null device, so that the chapter prints only what it
// prints. Only in a test binary (testing.Testing).
func asTest(name string, f func(t *testing.T)) {
	stdout := os.Stdout
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	os.Stdout = null
	defer func() {
		os.Stdout = stdout
		null.Close()
	}()
	all := func(string, string) (bool, error) { return true, nil } // whatever -run says
	if !testing.RunTests(all, []testing.InternalTest{{Name: name, F: f}}) {
		panic("chapters: " + name + " failed")
	}
}

// inGoTest plays a chapter that needs go test outside one: it runs the
// chapter's test in pkg with go test -v, and copies what the test
// printed between its === RUN and --- PASS lines to w.
func inGoTest(w io.Writer, test, pkg string) {
	fmt.Fprintf(os.Stderr, "(this chapter runs in go test: go test -run '^%s$' -v %s)\n", test, pkg)
	out, err := exec.Command("go", "test", "-run", "^"+test+"$", "-v", pkg).CombinedOutput()
	_, body, ok := bytes.Cut(out, []byte("=== RUN   "+test+"\n"))
	body, _, done := bytes.Cut(body, []byte("--- PASS: "+test+" "))
	if err != nil || !ok || !done {
		fmt.Fprintf(w, "go test -run '^%s$' -v %s did not pass (%v):\n%s", test, pkg, err, strings.TrimSpace(string(out)))
		return
	}
	w.Write(body)
}
