package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// Each bad flag value is refused with what would do, as a usage error
// (main exits 2 on it), before the chef connects to anything.
func TestBadFlags(t *testing.T) {
	k := []string{"-kubeconfig", "k.yaml"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "-kubeconfig is required"},
		{append(k, "-minute", "0"), "0s is out of range: give one from 1µs to 1m0s"},
		{append(k, "-chefs", "0"), "0 is out of range: give one from 1 to 64"},
		{append(k, "-qps", "0"), "0 is out of range: give one from 0.1 to 100000"},
		{append(k, "-burst", "-1"), "-1 is out of range"},
		{append(k, "-v", "3"), "3 is out of range: give one from 0 to 2"},
		{append(k, "-lease-duration", "0s"), "0s is out of range: give one from 1s to 1h0m0s"},
		{append(k, "-renew-deadline", "20s"), "-renew-deadline 20s must be shorter than -lease-duration 15s"},
		{append(k, "-retry-period", "9s"), "must be longer than 1.2 × -retry-period 9s"},
		{append(k, "extra"), `unexpected argument "extra"`},
	} {
		_, err := parse(tc.args, io.Discard)
		var bad usageError
		if !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parse %q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
	if o, err := parse(k, io.Discard); err != nil || o.chefs != 2 || o.leaseDuration.Seconds() != 15 {
		t.Errorf("the defaults: %+v, %v", o, err)
	}
}
