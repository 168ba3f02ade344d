package lessons_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
	for _, tc := range []struct {
		name                string
		lesson              lessons.Lesson
		code                int
		wantOut, wantErrOut string
	}{
		{"ok", ok, 0, "served\n", ""},
		{"failing", failing, 1, "", "failing: out of truffles\n"},
	} {
		var out, errOut bytes.Buffer
		if code := lessons.Run(tc.name, tc.lesson, &out, &errOut); code != tc.code ||
			out.String() != tc.wantOut || errOut.String() != tc.wantErrOut {
			t.Errorf("Run(%s) = %d, stdout %q, stderr %q; want %d, %q, %q",
				tc.name, code, out.String(), errOut.String(), tc.code, tc.wantOut, tc.wantErrOut)
		}
	}
}
