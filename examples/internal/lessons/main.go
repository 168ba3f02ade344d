package lessons

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// Lesson is the shape of every lesson: it plays in ctx and narrates to w.
type Lesson func(ctx context.Context, w io.Writer) error

// Timeout bounds a lesson run from a command: every lesson takes well under
// a second of real time, so a run that takes longer is stuck.
const Timeout = 10 * time.Second

// Main is the whole main function of a lesson's command: it runs lesson
// with [Timeout], narrating to standard output, and exits with status 1
// after printing "name: error" to standard error if the lesson fails.
func Main(name string, lesson Lesson) {
	if code := Run(name, lesson, os.Stdout, os.Stderr); code != 0 {
		os.Exit(code)
	}
}

// Run is [Main] without the exit: it runs lesson with [Timeout], narrating
// to stdout, and returns the exit status, 0 or 1 (after writing
// "name: error" to stderr).
func Run(name string, lesson Lesson, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := lesson(ctx, stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}
