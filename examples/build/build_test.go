package build_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/examples/build"
)

// Each step grows the program by about forty lines at most, and each
// break names text that its step has exactly once.
func TestStepsAreSmallAndBreakable(t *testing.T) {
	for _, s := range build.Steps() {
		if _, added := s.Diff(); added > 45 {
			t.Errorf("step %d adds %d lines, want about 40 at most", s.N, added)
		}
		if n := strings.Count(s.Source(), s.Break.Old); n != 1 {
			t.Errorf("step %d: the break's text is in cake.go %d times, want once: %q", s.N, n, s.Break.Old)
		}
	}
}

// TestBreakIt applies every step's break at once (go test -overlay: the
// tree is not touched) and checks that each step's test catches its own.
func TestBreakIt(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every step again: skipped with -short")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	replace := map[string]string{}
	args := []string{"test", "-count=1", "-overlay", filepath.Join(dir, "overlay.json")}
	var tests []string
	for _, s := range build.Steps() {
		real, err := filepath.Abs(fmt.Sprintf("step%d/cake.go", s.N))
		if err != nil {
			t.Fatal(err)
		}
		broken := filepath.Join(dir, fmt.Sprintf("step%d.go", s.N))
		if err := os.WriteFile(broken, []byte(strings.Replace(s.Source(), s.Break.Old, s.Break.New, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[real] = broken
		tests = append(tests, s.Break.Test)
		args = append(args, fmt.Sprintf("./step%d", s.N))
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args, "-run", "^("+strings.Join(tests, "|")+")$")
	out, _ := exec.Command(gotool, args...).CombinedOutput()
	for _, s := range build.Steps() {
		if !strings.Contains(string(out), "--- FAIL: "+s.Break.Test) {
			t.Errorf("step %d: with the break (%s), %s did not fail", s.N, s.Break.What, s.Break.Test)
		}
	}
	if t.Failed() {
		t.Logf("go %s:\n%s", strings.Join(args, " "), out)
	}
}

// The README's "test your own controller" is step 8's test, word for word.
func TestREADMEShowsStep8sTest(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const mark = "<!-- the file examples/build/step8/cake_test.go -->\n```go\n"
	_, after, ok := strings.Cut(string(readme), mark)
	if !ok {
		t.Fatalf("the README has no %q", mark)
	}
	shown, _, _ := strings.Cut(after, "```\n")
	if want := build.Steps()[7].Test(); shown != want {
		t.Errorf("the README's copy of step8/cake_test.go differs from the file; copy the file there again")
	}
}
