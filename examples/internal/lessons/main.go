package lessons

import (
	"context"
	"errors"
	"flag"
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
// The command takes no arguments: -h (or -help) prints its usage and
// exits 0; anything else prints the usage to standard error and exits 2.
func Main(name string, lesson Lesson) {
	if code := Run(name, os.Args[1:], lesson, os.Stdout, os.Stderr); code != 0 {
		os.Exit(code)
	}
}

// Run is [Main] without the exit: it reads args as the command line,
// runs lesson with [Timeout], narrating to stdout, and returns the exit
// status: 0, 1 (after writing "name: error" to stderr) or 2 for a bad
// command line.
func Run(name string, args []string, lesson Lesson, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the usage goes to stdout or stderr, below
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		usage(stdout, name)
		return 0
	case err != nil:
		fmt.Fprintln(stderr, err)
		usage(stderr, name)
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		usage(stderr, name)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := lesson(ctx, stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// usage tells what a lesson command does and where to read about it.
func usage(w io.Writer, name string) {
	fmt.Fprintf(w, "usage: go run ./examples/%s\n\n"+
		"Plays the %s lesson of the restaurant and narrates each hand-off on\n"+
		"standard output, one line per step. It takes no flags.\n"+
		"What it shows, and why: go doc ./examples/%s\n", name, name, name)
}
