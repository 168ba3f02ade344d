package liveview

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// rushPerSecond is how many new tickets a second the rail admits during
// a rush (the button's and the scene's): fewer than the workers and the
// stations take, so that the rail's token bucket is the bottleneck and
// the tickets visibly wait on it.
const rushPerSecond = 5.0

// rushLimit bounds how long a rush keeps the rail's limit: a kitchen that
// has not admitted its tickets by then is stuck, and the limit goes.
const rushLimit = 2 * time.Minute

// rushState is the rail's bucket before the rushes under way, and how
// many there are: overlapping rushes share one limit, lifted when the
// last has ended.
type rushState struct {
	mu        sync.Mutex // guards the fields below
	n         int
	perMinute float64
	burst     int
}

// limitRail sets the rail's token bucket to rushPerSecond new tickets a
// second (in real time, at the kitchen clock's speed now), bursts of 2,
// and returns the function that puts back the bucket it had before.
func (v *View) limitRail() (restore func()) {
	rs := &v.rush
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.n == 0 {
		rs.perMinute, rs.burst = v.r.Rail.TicketsPerMinute()
		v.r.Rail.SetTicketsPerMinute(rushPerSecond*v.r.Clock.Minute().Seconds(), 2)
	}
	rs.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			rs.mu.Lock()
			defer rs.mu.Unlock()
			if rs.n--; rs.n == 0 {
				v.r.Rail.SetTicketsPerMinute(rs.perMinute, rs.burst)
			}
		})
	}
}

// restoreWhenAdmitted calls restore once every order of keys has had its
// ticket on the rail and none waits there for a token or a delay any
// more; when the view ends, or after rushLimit, at the latest.
func (v *View) restoreWhenAdmitted(keys []string, restore func()) {
	defer restore()
	ctx, cancel := context.WithTimeout(context.Background(), rushLimit)
	defer cancel()
	look := time.NewTicker(50 * time.Millisecond)
	defer look.Stop()
	for !v.m.onTheRail(keys) || v.m.backlog() > 0 {
		select {
		case <-v.done:
			return
		case <-ctx.Done():
			return
		case <-look.C:
		}
	}
}

// bucket says the rail's token bucket in real time, as the page shows
// it: "no limit", or "5 new tickets/s, bursts of 2" (the rail
// counts kitchen minutes, a few milliseconds each here).
func (v *View) bucket() string {
	perMinute, burst := v.r.Rail.TicketsPerMinute()
	if perMinute <= 0 {
		return "no limit"
	}
	perSecond := perMinute / v.r.Clock.Minute().Seconds()
	return fmt.Sprintf("%s new tickets/s, bursts of %d", strconv.FormatFloat(perSecond, 'g', 3, 64), burst)
}
