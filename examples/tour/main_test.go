package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

// examplesOutput returns the // Output: of each Example in the root
// package's tour files, by name.
func examplesOutput(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, file := range []string{"../../tour_test.go", "../../build_test.go", "../../stories_test.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		if os.IsNotExist(err) {
			continue // a part without chapters
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range doc.Examples(f) {
			out["Example"+ex.Name] = ex.Output
			if ex.Name == "" || ex.Output == "" || ex.Unordered {
				t.Errorf("Example%s: want a named example with an ordered // Output:", ex.Name)
			}
		}
	}
	return out
}

// TestStepsPrintTheExamplesOutput: for each chapter, -step N prints the
// prose and code of the chapter, then exactly what its Example pins.
func TestStepsPrintTheExamplesOutput(t *testing.T) {
	want := examplesOutput(t)
	all := chapters.All()
	if len(want) != len(all) {
		t.Errorf("the tour files have %d Examples for %d chapters", len(want), len(all))
	}
	for _, c := range all {
		t.Run(c.Example(), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run([]string{"-step", fmt.Sprint(c.Number)}, &out, &errOut); err != nil {
				t.Fatalf("run -step %d: %v (%s)", c.Number, err, errOut.String())
			}
			before, got, ok := strings.Cut(out.String(), outputMark)
			if !ok {
				t.Fatalf("no %q in:\n%s", outputMark, out.String())
			}
			exp, ok := want[c.Example()]
			if !ok {
				t.Fatalf("the tour files have no %s", c.Example())
			}
			if diff := cmp.Diff(exp, got); diff != "" {
				t.Errorf("output of -step %d differs from %s's // Output: (-want +got):\n%s", c.Number, c.Example(), diff)
			}
			src, err := c.Source()
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range []string{c.Title, src.Prose, "func " + c.Func() + "(w io.Writer) {\n"} {
				if part == "" || !strings.Contains(before, part) {
					t.Errorf("-step %d does not print %q", c.Number, part)
				}
			}
		})
	}
}

func TestList(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-list"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if lines[0] != chapters.PartTour || lines[1] != "   1  An order is an object" {
		t.Errorf("-list starts with %q, want the first part and chapter 1", lines[:2])
	}
	parts := map[string]bool{}
	for _, c := range chapters.All() {
		parts[c.Part] = true
	}
	if n := len(chapters.All()); len(lines) != n+len(parts) {
		t.Errorf("-list printed %d lines, want %d chapters and %d part titles:\n%s", len(lines), n, len(parts), out.String())
	}
}

func TestBadCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the error, or flag.ErrHelp
	}{
		{[]string{"-step", "99"}, "-step 99: the chapters are 1 to"},
		{[]string{"-step", "-1"}, "-step -1: the chapters are 1 to"},
		{[]string{"-h"}, flag.ErrHelp.Error()},
		{[]string{"-chapter", "1"}, "flag provided but not defined: -chapter"},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run %v = %v, want an error with %q", tc.args, err, tc.want)
		}
		if errors.Is(err, flag.ErrHelp) && !strings.HasPrefix(errOut.String(), "usage: go run ./examples/tour") {
			t.Errorf("run -h printed %q, want the usage", errOut.String())
		}
		if out.Len() != 0 {
			t.Errorf("run %v printed %q on stdout, want nothing", tc.args, out.String())
		}
	}
}
