package client_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

var conflict = meta.NewConflict(meta.GroupResource{Group: "test.kitchensync.io", Resource: "widgets"}, "w",
	errors.New("the object has been modified"))

// tryTimes runs RetryOnConflict with fn failing with errs in turn (nil
// once they run out) and returns the virtual times of the tries, relative
// to the start, and the result.
func tryTimes(t *testing.T, b client.Backoff, errs ...error) ([]time.Duration, error) {
	var at []time.Duration
	var err error
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		err = client.RetryOnConflict(b, func() error {
			at = append(at, time.Since(start))
			if len(at) <= len(errs) {
				return errs[len(at)-1]
			}
			return nil
		})
	})
	return at, err
}

func TestRetryOnConflict(t *testing.T) {
	noJitter := client.DefaultRetry
	noJitter.Jitter = 0
	ms := time.Millisecond
	other := errors.New("boom")
	tests := []struct {
		name    string
		backoff client.Backoff
		errs    []error
		want    []time.Duration
		wantErr error
	}{
		{"success", noJitter, nil, []time.Duration{0}, nil},
		{"two conflicts", noJitter, []error{conflict, conflict}, []time.Duration{0, 10 * ms, 20 * ms}, nil},
		{"other error stops", noJitter, []error{conflict, other}, []time.Duration{0, 10 * ms}, other},
		{"gives up after Steps", noJitter, []error{conflict, conflict, conflict, conflict, conflict, conflict},
			[]time.Duration{0, 10 * ms, 20 * ms, 30 * ms, 40 * ms}, conflict},
		{"factor and cap", client.Backoff{Duration: 10 * ms, Factor: 5, Steps: 4, Cap: 100 * ms},
			[]error{conflict, conflict, conflict, conflict}, []time.Duration{0, 10 * ms, 60 * ms, 160 * ms}, conflict},
		{"zero backoff tries once", client.Backoff{}, []error{conflict}, []time.Duration{0}, conflict},
	}
	for _, tt := range tests {
		at, err := tryTimes(t, tt.backoff, tt.errs...)
		if diff := cmp.Diff(tt.want, at); diff != "" {
			t.Errorf("%s: try times (-want +got):\n%s", tt.name, diff)
		}
		if err != tt.wantErr {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.wantErr)
		}
	}
}

// With jitter, each wait is between Duration and Duration×(1+Jitter).
func TestRetryJitter(t *testing.T) {
	at, err := tryTimes(t, client.DefaultRetry, conflict, conflict, conflict, conflict, conflict)
	if !meta.IsConflict(err) || len(at) != 5 {
		t.Fatalf("got %d tries and %v, want 5 tries and a conflict", len(at), err)
	}
	for i := 1; i < len(at); i++ {
		if d := at[i] - at[i-1]; d < 10*time.Millisecond || d > 11*time.Millisecond {
			t.Errorf("wait %d = %v, want within [10ms, 11ms]", i, d)
		}
	}
}

func TestBackoffDelay(t *testing.T) {
	b := client.Backoff{Duration: time.Second, Factor: 2, Cap: 5 * time.Second}
	var got []time.Duration
	for n := range 5 {
		got = append(got, b.Delay(n))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delays (-want +got):\n%s", diff)
	}
}
