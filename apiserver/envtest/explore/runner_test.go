package explore_test

import (
	"os"
	"testing"
)

// runTest runs f as go test runs a Test function, and reports whether it
// passed. Explore needs a *testing.T (its runs happen in testing/synctest
// bubbles) and an Example has none. The testing package's own lines
// (=== RUN with -v) go to the null device, so that an Example's output is
// its own: print after runTest returns, not inside f.
func runTest(f func(t *testing.T)) bool {
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
	return testing.RunTests(func(string, string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: "example", F: f}})
}
