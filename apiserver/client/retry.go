package client

import (
	"math/rand/v2"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Backoff describes how often [RetryOnError] tries and how long it waits in
// between, like apimachinery's wait.Backoff. The zero value tries once.
type Backoff struct {
	// Duration is the first wait.
	Duration time.Duration
	// Factor multiplies the wait after each try; 0 and 1 keep it constant.
	Factor float64
	// Jitter, when positive, adds up to Jitter×wait of random extra time to
	// each wait, so that many clients retrying at once spread out.
	Jitter float64
	// Steps is the most tries; values below 1 mean one.
	Steps int
	// Cap, when positive, is the longest wait.
	Cap time.Duration
}

// DefaultRetry is the backoff for conflicts on writes: five tries, about
// 10ms apart. Like client-go's retry.DefaultRetry.
var DefaultRetry = Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}

// DefaultBackoff is a backoff for errors that take a while to clear: four
// tries, waiting 10ms, 50ms, 250ms. Like client-go's retry.DefaultBackoff.
var DefaultBackoff = Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1}

// Delay returns the wait after try number n (0 for the wait after the first
// try), without jitter. It is pure: it depends only on b and n.
func (b Backoff) Delay(n int) time.Duration {
	d := b.Duration
	for i := 0; i < n && (b.Cap <= 0 || d < b.Cap); i++ {
		if b.Factor > 0 {
			d = time.Duration(float64(d) * b.Factor)
		}
	}
	if b.Cap > 0 && d > b.Cap {
		d = b.Cap
	}
	return d
}

// RetryOnError calls fn until it returns nil, an error retriable does not
// accept, or backoff.Steps tries have been made, sleeping between tries as
// backoff says. It returns fn's last error (nil on success). Like
// client-go's retry.OnError. Sleeps use the real clock, so under
// testing/synctest they take no wall time.
func RetryOnError(backoff Backoff, retriable func(error) bool, fn func() error) error {
	steps := max(backoff.Steps, 1)
	var err error
	for n := range steps {
		if err = fn(); err == nil || !retriable(err) {
			return err
		}
		if n == steps-1 {
			break
		}
		d := backoff.Delay(n)
		if backoff.Jitter > 0 {
			d += time.Duration(rand.Float64() * backoff.Jitter * float64(d))
		}
		time.Sleep(d)
	}
	return err
}

// RetryOnConflict runs fn, which should re-read the object, re-apply its
// change and write it, again whenever the write fails with 409 Conflict
// (meta.IsConflict): someone else wrote the object since it was read,
// or the cache it was read from lagged behind. Use [DefaultRetry] unless
// there is a reason not to. Like client-go's retry.RetryOnConflict:
//
//	err := client.RetryOnConflict(client.DefaultRetry, func() error {
//		w, err := widgets.Get(ctx, name, meta.GetOptions{})
//		if err != nil {
//			return err
//		}
//		w.Spec.Size++
//		_, err = widgets.Update(ctx, w, meta.UpdateOptions{})
//		return err
//	})
func RetryOnConflict(backoff Backoff, fn func() error) error {
	return RetryOnError(backoff, meta.IsConflict, fn)
}
