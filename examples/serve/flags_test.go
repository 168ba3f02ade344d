package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Each bad flag value is refused with the valid range, as a usage error
// (main exits 2 on it), before anything is served.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-minute", "0"}, "0s is out of range: give one from 1µs to 1m0s"},
		{[]string{"-minute", "-1s"}, "-1s is out of range"},
		{[]string{"-chefs", "0"}, "0 is out of range: give one from 1 to 64"},
		{[]string{"-chefs", "-3"}, "-3 is out of range"},
		{[]string{"-chefs", "two"}, "not a whole number"},
		{[]string{"-queue", "fifo"}, "want atomic, inorder or deltafifo"},
		{[]string{"-chef", "false"}, `unexpected argument "false"`},
		{[]string{"-addr", ":8080"}, "add -token TOKEN"},
	} {
		var out bytes.Buffer
		_, err := parse(tc.args, &out)
		var bad usageError
		if !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parse %q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}
