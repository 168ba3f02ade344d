package golden

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/examples/internal/lessons"
	"github.com/kitchensync/kitchensync/kitchen/kitchentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with what the tests got")

// Conducted runs body in a synctest bubble with a conductor driven at
// every quiet point (synctest.Wait), and returns what body returned.
// body's ctx ends with the test.
func Conducted(t *testing.T, body func(ctx context.Context, c *kitchentest.Conductor) (string, error)) string {
	t.Helper()
	var got string
	synctest.Test(t, func(t *testing.T) {
		c := kitchentest.NewConductor()
		ctx, cancel := context.WithCancel(t.Context())
		driven := make(chan struct{})
		go func() {
			defer close(driven)
			c.Drive(ctx, synctest.Wait)
		}()
		var err error
		got, err = body(t.Context(), c)
		cancel()
		<-driven
		if err != nil {
			t.Fatalf("%v\n%s", err, got)
		}
	})
	return got
}

// Check runs body twice with [Conducted], fails if the two runs differ,
// and compares the first with the golden file path (rewriting it with
// -update).
func Check(t *testing.T, path string, body func(ctx context.Context, c *kitchentest.Conductor) (string, error)) {
	t.Helper()
	first, second := Conducted(t, body), Conducted(t, body)
	if diff := cmp.Diff(first, second); diff != "" {
		t.Fatalf("two runs told different stories (-first +second):\n%s", diff)
	}
	Compare(t, path, first)
}

// Compare compares got with the golden file path, or rewrites the file
// with got when the tests run with -update.
func Compare(t *testing.T, path, got string) {
	t.Helper()
	first := got
	if *update {
		if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), first); diff != "" {
		t.Errorf("the story differs from %s (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// CheckLesson is [Check] for a lesson program: it plays lesson with the
// conductor (see lessons.WithConductor) and compares its narration with
// testdata/narration.golden.
func CheckLesson(t *testing.T, lesson lessons.Lesson) {
	t.Helper()
	Check(t, "testdata/narration.golden", func(ctx context.Context, c *kitchentest.Conductor) (string, error) {
		var out bytes.Buffer
		err := lesson(lessons.WithConductor(ctx, c), &out)
		return out.String(), err
	})
}
