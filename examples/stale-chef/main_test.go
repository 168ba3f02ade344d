package main

import (
	"testing"

	"github.com/kitchensync/kitchensync/examples/internal/golden"
	"github.com/kitchensync/kitchensync/examples/internal/lessons"
)

// TestNarrationGolden pins the lesson's whole narration, in virtual time
// and one hand-off at a time (see package golden), against
// testdata/narration.golden.
func TestNarrationGolden(t *testing.T) { golden.CheckLesson(t, lessons.StaleChef) }
