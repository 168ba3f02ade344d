package apiserver

import (
	"context"
	"time"
)

// tooLargeRVWait is how long a read asking for a resourceVersion the
// server has not reached waits for it before answering 504, as long as the
// Kubernetes watch cache waits for itself to catch up (its blockTimeout).
const tooLargeRVWait = 3 * time.Second

// waitForRV returns once the server has reached resourceVersion rv (at
// once if it has), or, if it does not within [tooLargeRVWait], the 504
// "Too large resource version" with the resourceVersion it reached; or
// ctx's error if ctx ends first.
func (s *watchCache) waitForRV(ctx context.Context, rv int64) error {
	var timeout <-chan time.Time
	for {
		s.mu.Lock()
		last := s.hist.last
		if rv <= last {
			s.mu.Unlock()
			return nil
		}
		if s.advanced == nil {
			s.advanced = make(chan struct{})
		}
		advanced := s.advanced
		s.mu.Unlock()
		if timeout == nil {
			t := time.NewTimer(tooLargeRVWait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-advanced:
		case <-timeout:
			return errTooLargeRV(rv, last)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// announceAdvanceLocked wakes every waitForRV: the server has a new
// resourceVersion. s.mu must be held.
func (s *watchCache) announceAdvanceLocked() {
	if s.advanced != nil {
		close(s.advanced)
		s.advanced = nil
	}
}
