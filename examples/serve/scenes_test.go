package main

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

// TestScenesNameTheirTourChapters: each guided scene of the page sends
// the learner to a tour chapter, by number and title, or where the tour
// has none to a section of the README, by its heading; both must still
// agree with the tour and the README (renumbered chapters and renamed
// sections fail here).
func TestScenesNameTheirTourChapters(t *testing.T) {
	url := serve(t)
	var scenes []struct{ ID, Tour, Chapter string }
	mustJSON(t, fetch(t, "GET", url+"scenes"), &scenes)
	all := chapters.All()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scenes {
		if s.Tour == "README.md" {
			if !slices.Contains(strings.Split(string(readme), "\n"), "## "+s.Chapter) {
				t.Errorf("scene %s sends to the README's section %q: no such heading", s.ID, s.Chapter)
			}
			continue
		}
		n, ok := strings.CutPrefix(s.Tour, "go run ./examples/tour -step ")
		if !ok {
			t.Errorf("scene %s sends to %q: neither a tour chapter nor the README", s.ID, s.Tour)
			continue
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
