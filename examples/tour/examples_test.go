package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

var update = flag.Bool("update", false, "rewrite the root package's tour Examples (tour_test.go, build_test.go, stories_test.go) from the chapters and what they print now")

// exampleFiles are the root package's files that pin the tour, one per
// part, with what each says first.
var exampleFiles = []struct {
	path, part, header string
}{
	{"../../tour_test.go", chapters.PartTour, `// The guided tour: each Example is a chapter, in order. The chapters'
// code and prose live in package chapters (examples/tour/chapters), one
// function each, so that go run ./examples/tour can print a chapter's
// prose, code and output in the terminal; the Examples below run the same
// functions and pin what they print. Run them with
//
//	go test -run Example_step -v .
`},
	{"../../build_test.go", chapters.PartBuild, `// The second part of the guided tour: build a controller of your own, one
// step at a time. Each step's program is a real file under
// examples/build/ (step1, step2, ...), compiled and tested; the chapters
// (package chapters, examples/tour/chapters) run it and say what happened
// underneath.
//
//	go test -run Example_step -v .
`},
	{"../../stories_test.go", chapters.PartWrong, `// The third part of the guided tour: what the two stories kitchensync
// is built from get wrong, one Example per point. The chapters' code and
// prose live in package chapters (examples/tour/chapters).
//
//	go test -run Example_step -v .
`},
}

// TestExampleFilesAreCurrent checks that the root package has one Example
// per chapter, named and numbered as the chapter is; with -update it
// writes them, each pinning what its chapter prints now. (Renumbered
// chapters need only go test ./examples/tour -run TestExampleFiles -update.)
func TestExampleFilesAreCurrent(t *testing.T) {
	for _, f := range exampleFiles {
		if !hasPart(f.part) {
			if _, err := os.Stat(f.path); err == nil {
				t.Errorf("%s pins a part without chapters", f.path)
			}
			continue
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "%spackage kitchensync_test\n\nimport (\n\t\"os\"\n\n\t\"github.com/kitchensync/kitchensync/examples/tour/chapters\"\n)\n", f.header)
		for _, c := range chapters.All() {
			if c.Part != f.part {
				continue
			}
			var out bytes.Buffer
			if *update {
				c.Run(&out)
			}
			fmt.Fprintf(&b, "\n// Chapter %d: %s ([chapters.%s]).\n// With its prose and code: go run ./examples/tour -step %d.\nfunc %s() {\n\tchapters.%s(os.Stdout)\n\t// Output:\n",
				c.Number, c.Title, c.Func(), c.Number, c.Example(), c.Func())
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				fmt.Fprintf(&b, "\t// %s\n", line)
			}
			b.WriteString("}\n")
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(f.path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		// Without -update, compare everything but the outputs, which
		// TestStepsPrintTheExamplesOutput checks.
		have, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := skeleton(string(have)), skeleton(string(src)); got != want {
			t.Errorf("%s does not name the chapters as chapters.All does; go test ./examples/tour -run TestExampleFiles -update rewrites it.\nhave:\n%s\nwant:\n%s", f.path, got, want)
		}
	}
}

func hasPart(part string) bool {
	for _, c := range chapters.All() {
		if c.Part == part {
			return true
		}
	}
	return false
}

// skeleton drops the // Output: lines of an Example file.
func skeleton(src string) string {
	var keep []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.TrimSpace(line) == "// Output:":
			in = true
		case line == "}":
			in = false
		case in:
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

// TestDocsNameTheExamples checks that the root package doc and the README
// name only Examples that exist, with the numbers the chapters have now.
func TestDocsNameTheExamples(t *testing.T) {
	exists := map[string]bool{}
	for _, c := range chapters.All() {
		exists[c.Example()] = true
	}
	for _, path := range []string{"../../doc.go", "../../README.md"} {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range regexp.MustCompile(`Example_step\d+_\w+`).FindAllString(string(text), -1) {
			if !exists[name] {
				t.Errorf("%s names %s, which is no chapter's Example", path, name)
			}
		}
	}
}

// TestReadingPath checks the root package doc's reading path: every file
// it names exists, with about the number of lines it says (within 15%, so
// that small edits elsewhere do not break this test; update the figure
// when one drifts further).
func TestReadingPath(t *testing.T) {
	doc, err := os.ReadFile("../../doc.go")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^//\t(\S+\.go)\s+(\d+)  `).FindAllStringSubmatch(string(doc), -1)
	if len(rows) < 10 {
		t.Fatalf("the reading path names %d files; want the machinery's", len(rows))
	}
	for _, r := range rows {
		text, err := os.ReadFile("../../" + r[1])
		if err != nil {
			t.Errorf("the reading path names %s: %v", r[1], err)
			continue
		}
		said, _ := strconv.Atoi(r[2])
		if n := strings.Count(string(text), "\n"); float64(n) < 0.85*float64(said) || float64(n) > 1.15*float64(said) {
			t.Errorf("the reading path says %s has %d lines; it has %d", r[1], said, n)
		}
	}
}
