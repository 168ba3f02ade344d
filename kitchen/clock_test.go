package kitchen_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
)

func TestClockScales(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := kitchen.NewClock(5 * time.Millisecond)
		if got := c.Real(40 * time.Minute); got != 200*time.Millisecond {
			t.Errorf("40 kitchen minutes = %v real, want 200ms", got)
		}
		if got := c.Kitchen(time.Second); got != 200*time.Minute {
			t.Errorf("1s real = %v kitchen, want 200m", got)
		}
		if err := c.Sleep(t.Context(), 40*time.Minute); err != nil {
			t.Fatal(err)
		}
		if got := c.Now(); got != 40*time.Minute {
			t.Errorf("after cooking a Wellington the clock reads %v", got)
		}
		if err := c.SleepUntil(t.Context(), 45*time.Minute); err != nil || c.Now() != 45*time.Minute {
			t.Errorf("SleepUntil(45m): now %v, err %v", c.Now(), err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := c.Sleep(ctx, time.Hour); err == nil {
			t.Error("Sleep ignored a cancelled context")
		}
	})
}

func TestClockDefaultsAndExtremes(t *testing.T) {
	c := kitchen.NewClock(0)
	if c.Minute() != kitchen.DefaultMinute {
		t.Errorf("default minute %v", c.Minute())
	}
	if c.Real(-time.Minute) != 0 {
		t.Error("negative kitchen time should be zero real time")
	}
	if c.Real(1<<62) <= 0 {
		t.Error("a huge duration overflowed")
	}
}

func TestClockSetMinuteKeepsTimeRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := kitchen.NewClock(10 * time.Millisecond)
		time.Sleep(100 * time.Millisecond) // 10 kitchen minutes
		c.SetMinute(100 * time.Millisecond)
		if got := c.Now(); got != 10*time.Minute {
			t.Errorf("after slowing down the clock reads %v, want 10m (no jump)", got)
		}
		if got := c.Real(5 * time.Minute); got != 500*time.Millisecond {
			t.Errorf("5 kitchen minutes = %v real after SetMinute, want 500ms", got)
		}
		time.Sleep(time.Second) // 10 more kitchen minutes at the new speed
		if got, want := c.Now(), 20*time.Minute; got != want {
			t.Errorf("clock reads %v, want %v", got, want)
		}
		if got := c.Until(25 * time.Minute); got != 500*time.Millisecond {
			t.Errorf("Until(25m) = %v, want 500ms", got)
		}
		c.SetMinute(0)
		if c.Minute() != kitchen.DefaultMinute {
			t.Errorf("SetMinute(0) gave %v, want the default", c.Minute())
		}
	})
}
