package cli_test

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/examples/internal/cli"
)

func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in the error; "" for none
	}{
		{[]string{"-n", "5"}, ""},
		{[]string{"-n", "0"}, "invalid value \"0\" for flag -n: 0 is out of range: give one from 1 to 10"},
		{[]string{"-n", "x"}, "not a whole number: give one from 1 to 10"},
		{[]string{"-d", "0"}, "0s is out of range: give one from 1ms to 1m0s"},
		{[]string{"-d", "soon"}, "not a duration: give one from 1ms to 1m0s, such as 5ms"},
		{[]string{"-f", "-1"}, "-1 is out of range: give one from 0.5 to 2"},
		{[]string{"-b", "x"}, "unexpected argument \"x\""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		n := cli.Int(fs, "n", 3, 1, 10, "a count")
		cli.Duration(fs, "d", 5*time.Millisecond, time.Millisecond, time.Minute, "a time")
		cli.Float(fs, "f", 1, 0.5, 2, "a rate")
		fs.Bool("b", false, "a switch")
		err := fs.Parse(tc.args)
		if err == nil {
			err = cli.NoArgs(fs)
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
		if tc.want == "" && *n != 5 {
			t.Errorf("-n 5 gave %d", *n)
		}
	}
}
