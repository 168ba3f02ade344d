package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/kitchensync/kitchensync/examples/build"
	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

func main() {
	switch err := run(os.Args[1:], os.Stdout, os.Stderr); {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, "tour:", err)
		os.Exit(2)
	}
}

// run parses args and prints what they ask for to out.
func run(args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("tour", flag.ContinueOnError)
	fs.SetOutput(errOut)
	step := fs.Int("step", 0, "print only this chapter (1, 2, ...; see -list); 0 prints them all")
	list := fs.Bool("list", false, "print the table of contents and exit")
	code := fs.Bool("code", true, "print each chapter's code")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./examples/tour [-list] [-step N] [-code=false]\n\n"+
			"Prints the guided tour of kitchensync: each chapter's prose, its code and its output.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	all := chapters.All()
	if *list {
		printList(out, all)
		return nil
	}
	todo := all
	if *step != 0 {
		if *step < 1 || *step > len(all) {
			return fmt.Errorf("-step %d: the chapters are 1 to %d (see -list)", *step, len(all))
		}
		todo = all[*step-1 : *step]
	}
	shown := map[string]bool{} // helpers already printed
	for i, c := range todo {
		if i > 0 {
			fmt.Fprintln(out)
		}
		if err := printChapter(out, c, len(all), *code, shown); err != nil {
			return err
		}
	}
	return nil
}

// printList prints the table of contents, part by part.
func printList(out io.Writer, all []chapters.Chapter) {
	part := ""
	for _, c := range all {
		if c.Part != part {
			part = c.Part
			fmt.Fprintf(out, "%s\n", part)
		}
		fmt.Fprintf(out, "  %2d  %s\n", c.Number, c.Title)
	}
}

// outputMark starts the output of a chapter; the tour's test finds the
// output after it.
const outputMark = "--- what it prints:\n"

// printChapter prints one chapter: heading, prose, code (and the helpers
// it calls that were not shown yet), then runs it and prints its output.
func printChapter(out io.Writer, c chapters.Chapter, total int, code bool, shown map[string]bool) error {
	src, err := c.Source()
	if err != nil {
		return err
	}
	heading := fmt.Sprintf("Chapter %d of %d: %s", c.Number, total, c.Title)
	fmt.Fprintf(out, "%s\n%s\n%s; pinned by %s in the root package\n\n",
		heading, strings.Repeat("=", width(heading)), c.Part, c.Example())
	fmt.Fprint(out, src.Prose)
	if c.Step > 0 && code {
		printStep(out, build.Steps()[c.Step-1])
	}
	if code {
		fmt.Fprintf(out, "\n--- the code (examples/tour/chapters/%s):\n\n%s\n", src.File, indent(src.Code))
		for _, h := range src.Helpers {
			if !shown[h.Name] {
				shown[h.Name] = true
				fmt.Fprintf(out, "\n--- %s, which it calls (%s):\n\n%s\n", h.Name, h.File, indent(h.Code))
			}
		}
	}
	if c.Step > 0 {
		b := build.Steps()[c.Step-1].Break
		fmt.Fprintf(out, "\n--- break it: in examples/build/step%d/cake.go, %s; go test ./examples/build/step%d fails in %s: %s.\n",
			c.Step, b.What, c.Step, b.Test, b.Why)
	}
	fmt.Fprintf(out, "\n%s", outputMark)
	c.Run(out)
	return nil
}

// printStep prints what a step of examples/build adds to the program
// (for step 8, its test too).
func printStep(out io.Writer, s build.Step) {
	diff, added := s.Diff()
	fmt.Fprintf(out, "\n--- what step %d adds to the program (examples/build/step%d/cake.go: +%d lines, %d in all):\n\n%s",
		s.N, s.N, added, s.Lines(), indent(diff))
	if s.N == len(build.Steps()) {
		fmt.Fprintf(out, "\n--- its test (examples/build/step%d/cake_test.go):\n\n%s", s.N, indent(s.Test()))
	}
}

// indent puts a tab before each non-empty line.
func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "\t" + l
		}
	}
	return strings.Join(lines, "\n")
}

// width is how many terminal columns s takes: Chinese characters take two.
func width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || (r >= 0xFF01 && r <= 0xFF60) {
			n++
		}
	}
	return n
}
