package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

// TestScenesNameTheirTourChapters: each guided scene of the page that
// sends the learner to a tour chapter names it by number and title; the
// two must still agree with the tour (renumbered chapters fail here).
func TestScenesNameTheirTourChapters(t *testing.T) {
	url := serve(t)
	var scenes []struct{ ID, Tour, Chapter string }
	mustJSON(t, fetch(t, "GET", url+"scenes"), &scenes)
	all := chapters.All()
	for _, s := range scenes {
		n, ok := strings.CutPrefix(s.Tour, "go run ./examples/tour -step ")
		if !ok {
			continue // an example of its own
		}
		i, err := strconv.Atoi(n)
		switch {
		case err != nil || i < 1 || i > len(all):
			t.Errorf("scene %s sends to %q: no such chapter", s.ID, s.Tour)
		case all[i-1].Title != s.Chapter:
			t.Errorf("scene %s sends to chapter %d %q, which is now %q", s.ID, i, s.Chapter, all[i-1].Title)
		}
	}
}
