package manifests_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/examples/internal/manifests"
)

// The committed manifests are what the generator writes today: a kind's
// Go type changed without `go run ./examples/manifests/gen` fails here.
func TestCommittedManifestsAreGenerated(t *testing.T) {
	files, err := manifests.Files()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", "manifests", name))
		if err != nil {
			t.Errorf("%s: %v (run go run ./examples/manifests/gen)", name, err)
			continue
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("examples/manifests/%s is stale; run go run ./examples/manifests/gen (-generated +committed):\n%s", name, diff)
		}
	}
}
