package restaurant_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// A restaurant that fails to open, or whose Run ends before the runner has
// synced, leaves no goroutine behind: synctest fails the bubble if one is
// still blocked when it ends.
func TestRestaurantLeavesNothingRunning(t *testing.T) {
	t.Run("Open fails on a menu that lists a dish twice", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			menu := kitchen.DefaultMenu()
			menu = append(menu, menu[0])
			_, err := restaurant.Open(t.Context(), restaurant.Config{Menu: menu})
			if !meta.IsAlreadyExists(err) {
				t.Fatalf("Open = %v, want AlreadyExists for the repeated dish", err)
			}
		})
	})
	t.Run("Run with a context already done", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r, err := restaurant.Open(t.Context(), restaurant.Config{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if err := r.Run(ctx); err != nil {
				t.Errorf("Run = %v, want nil", err)
			}
		})
	})
}

func TestRestaurantRunsOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, err := restaurant.Open(t.Context(), restaurant.Config{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		if !r.WaitReady(ctx) {
			t.Fatal("not ready")
		}
		if err := r.Run(ctx); err == nil {
			t.Error("a second Run was accepted")
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}
