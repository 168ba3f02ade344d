package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/kitchensync/kitchensync/examples/internal/golden"
	"github.com/kitchensync/kitchensync/examples/internal/lessons"
	"github.com/kitchensync/kitchensync/kitchen"
)

// TestNarrationGolden pins the lesson's whole narration, in virtual time
// and one hand-off at a time (see package golden), against
// testdata/narration.golden.
func TestNarrationGolden(t *testing.T) {
	golden.Check(t, "testdata/narration.golden", func(ctx context.Context, c *kitchen.Conductor) (string, error) {
		var out bytes.Buffer
		err := lessons.Finalizers(lessons.WithConductor(ctx, c), &out)
		return out.String(), err
	})
}
