package chapters

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// TestFindTheBug plays the chapter FindTheBug, printing it on stdout (go
// test -v shows it): go run ./examples/tour plays the chapter through this
// test, and the chapter's replay line replays its plan here. It checks
// the story's ends: the planted bug is found, by the invariant it breaks,
// and replayed; the fixed controller passes.
func TestFindTheBug(t *testing.T) {
	var out bytes.Buffer
	FindTheBug(io.MultiWriter(os.Stdout, &out))
	for _, want := range []string{
		`fail: invariant "one child per parent" broken`,
		"replay: go test ./examples/tour/chapters -run '^TestFindTheBug$' -explore.plan=",
		`the same plan replayed: invariant "one child per parent" broken`,
		"!! invariant",
		" plans, 0 violations\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the chapter does not say %q:\n%s", want, out.String())
		}
	}
}
