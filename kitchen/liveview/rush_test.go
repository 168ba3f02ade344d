package liveview_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

type railState struct {
	Pipe struct {
		Bucket string
		Rail   struct{ Queued, Token int }
	}
	Counters struct{ Served, Placed int }
}

// The rush-hour button makes the rail the bottleneck, as the rush scene
// does: its token bucket admits 5 new tickets a second, so that the
// tickets back up on the rail waiting for tokens; once the rail has
// admitted them all, the bucket is as it was.
func TestRushHourBacksTheRailUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v, _ := openGated(t)
		if code, out := post(t, v, "/actions/rush"); code != http.StatusOK {
			t.Fatalf("rush: %d %v", code, out)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		var f railState
		get(t, v, "/state", &f)
		if want := "5 new tickets/s, bursts of 2"; f.Pipe.Bucket != want {
			t.Errorf("mid-rush the rail's bucket is %q, want %q", f.Pipe.Bucket, want)
		}
		if f.Pipe.Rail.Token < 35 {
			t.Errorf("a second into the rush %d tickets wait for a token, want most of the 50", f.Pipe.Rail.Token)
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		f = railState{}
		get(t, v, "/state", &f)
		if f.Pipe.Bucket != "no limit" || f.Counters.Served != 50 {
			t.Errorf("after the rush: bucket %q, %d of %d served; want no limit and all 50", f.Pipe.Bucket, f.Counters.Served, f.Counters.Placed)
		}
	})
}
