package lessons_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/examples/internal/lessons"
)

func TestRun(t *testing.T) {
	ok := func(ctx context.Context, w io.Writer) error {
		if _, has := ctx.Deadline(); !has {
			return errors.New("no deadline")
		}
		_, err := fmt.Fprintln(w, "served")
		return err
	}
	failing := func(context.Context, io.Writer) error { return errors.New("out of truffles") }
	const usage = "usage: go run ./examples/ok\n\n" +
		"Plays the ok lesson of the restaurant and narrates each hand-off on\n" +
		"standard output, one line per step. It takes no flags.\n" +
		"What it shows, and why: go doc ./examples/ok\n"
	for _, tc := range []struct {
		name                string
		args                []string
		lesson              lessons.Lesson
		code                int
		wantOut, wantErrOut string
	}{
		{"ok", nil, ok, 0, "served\n", ""},
		{"failing", nil, failing, 1, "", "failing: out of truffles\n"},
		{"ok", []string{"-h"}, ok, 0, usage, ""},
		{"ok", []string{"--help"}, ok, 0, usage, ""},
		{"ok", []string{"-seed", "3"}, ok, 2, "", "flag provided but not defined: -seed\n" + usage},
		{"ok", []string{"now"}, ok, 2, "", "ok: unexpected argument \"now\"\n" + usage},
	} {
		var out, errOut bytes.Buffer
		if code := lessons.Run(tc.name, tc.args, tc.lesson, &out, &errOut); code != tc.code ||
			out.String() != tc.wantOut || errOut.String() != tc.wantErrOut {
			t.Errorf("Run(%s, %s) = %d, stdout %q, stderr %q; want %d, %q, %q", tc.name, strings.Join(tc.args, " "),
				code, out.String(), errOut.String(), tc.code, tc.wantOut, tc.wantErrOut)
		}
	}
}
