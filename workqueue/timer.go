package workqueue

import "time"

// runTimerLoop is the one goroutine behind delayed adds. It sleeps until one
// of three things happens: stop is closed (it returns), wake receives (an
// earlier ready time was added), or the timer fires. Then it calls fire with
// the current time; fire moves every item that is due and returns the next
// ready time, or the zero Time if nothing is waiting, and the loop resets its
// timer to that instant. There is no polling and no periodic heartbeat:
// nothing runs while nothing is due.
func runTimerLoop(stop <-chan struct{}, wake <-chan struct{}, fire func(now time.Time) (next time.Time)) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-stop:
			return
		case <-wake:
		case <-timer.C:
		}
		// Since Go 1.23, Stop and Reset also discard a value the timer may
		// already have sent, so no stale tick can follow.
		if next := fire(time.Now()); next.IsZero() {
			timer.Stop()
		} else {
			timer.Reset(time.Until(next))
		}
	}
}

// notify does a non-blocking send on a channel of capacity 1: one pending
// wake-up is enough, however many happen before the loop looks.
func notify(ch chan<- struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
