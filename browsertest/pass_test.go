// Package browsertest opens the live view of package kitchen/liveview in
// a real headless Chromium and drives it as a learner would. It is a
// module of its own, so that the library's go.mod never requires
// chromedp.
package browsertest

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lanes are the page's lanes, in the order an order crosses them.
var lanes = []string{"waiter", "desk", "runner", "rail", "chef", "cooks"}

// TestThePass walks the page through one evening: an order served, an
// order cancelled while cooking, the watches cut and history compacted,
// then a phone-sized screen.
func TestThePass(t *testing.T) {
	url := openKitchen(t, 40*time.Millisecond)
	ctx := browser(t, 1280, 720, 100*time.Second)
	dir := shotDir(t)
	run(t, ctx, "open the page",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		chromedp.WaitVisible(chromedp.CSS(`#lane-cooks .station`)))
	screenshot(t, ctx, dir, "01-open.png")

	t.Run("an order passes every lane to Served", func(t *testing.T) { orderServed(t, ctx, dir) })
	t.Run("a cancelled order: finalizer, then the garbage collector", func(t *testing.T) { orderCancelled(t, ctx, dir) })
	t.Run("cut the watches: the runner watches again, orders complete", func(t *testing.T) { watchesCut(t, ctx, dir) })
	t.Run("rush hour on a phone-sized screen", func(t *testing.T) { rushHourOnAPhone(t, ctx, dir) })
}

func orderServed(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "place an order",
		chromedp.Click(chromedp.CSS(`button[data-action="place"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"]`)),
		chromedp.Click(chromedp.CSS(`.order[data-name="order-001"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"][data-phase="Served"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.phase-Served`)))
	visited := get(t, ctx, "read its path", chromedp.AttributeValue(chromedp.CSS(`.order[data-name="order-001"]`), "data-lanes")).Value
	for _, l := range lanes {
		if !strings.Contains(" "+visited+" ", " "+l+" ") {
			t.Errorf("order-001 was served without passing the %s lane (lanes: %q)", l, visited)
		}
	}
	yaml := get(t, ctx, "read its YAML", chromedp.Text(chromedp.CSS(`#yaml`)))
	if !strings.Contains(yaml, "phase: Served") || !strings.Contains(yaml, "name: order-001") {
		t.Errorf("the YAML does not show the served order:\n%s", yaml)
	}
	screenshot(t, ctx, dir, "02-served.png")
}

func orderCancelled(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "slow the kitchen down and place an order",
		setSpeed(1000),
		chromedp.Click(chromedp.CSS(`button[data-action="place"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-002"]`)),
		chromedp.Click(chromedp.CSS(`.order[data-name="order-002"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.phase-Cooking`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.cook`)))
	screenshot(t, ctx, dir, "03-cooking.png")
	run(t, ctx, "cancel it",
		chromedp.Click(chromedp.CSS(`button[data-action="cancel"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.deleting`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.gc`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.deleted`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-002"][data-phase="Cancelled"]`)))
	history := get(t, ctx, "read its history", chromedp.Text(chromedp.CSS(`#history`)))
	for _, want := range []string{"deletion started: held by finalizers menu.example.com/chef",
		"last finalizer removed: order-002 is deleted", "garbage collector deleted cook order-002-0-g1"} {
		if !strings.Contains(history, want) {
			t.Errorf("the history does not say %q:\n%s", want, history)
		}
	}
	screenshot(t, ctx, dir, "04-cancelled.png")
	run(t, ctx, "speed up again", setSpeed(100), chromedp.Click(chromedp.CSS(`#unfollow`)))
}

func watchesCut(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "cut the watches",
		chromedp.Click(chromedp.CSS(`button[data-action="cut-watches"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#lane-desk .feed li.watch`)),
		chromedp.Click(chromedp.CSS(`button[data-action="place"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-003"][data-phase="Served"]`)))
	if traced(t, ctx, "reflector") {
		run(t, ctx, "see the runner watch again", chromedp.WaitVisible(chromedp.CSS(`#lane-runner .feed li.watch`)))
	} else {
		t.Log("the reflectors emit no trace records: not checking the runner's re-watch")
	}
	screenshot(t, ctx, dir, "05-watches-cut.png")
	run(t, ctx, "compact history (410)",
		chromedp.Click(chromedp.CSS(`button[data-action="compact"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#lane-desk .feed li.relist`)),
		chromedp.Click(chromedp.CSS(`button[data-action="place"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-004"][data-phase="Served"]`)))
	if traced(t, ctx, "reflector") {
		run(t, ctx, "see the runner relist", chromedp.WaitVisible(chromedp.CSS(`#lane-runner .feed li.relist`)))
	}
	screenshot(t, ctx, dir, "06-relisted.png")
}

func rushHourOnAPhone(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "rush hour",
		setSpeed(25),
		chromedp.EmulateViewport(390, 844),
		chromedp.Click(chromedp.CSS(`button[data-action="rush"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-054"]`)))
	screenshot(t, ctx, dir, "07-phone-rush-hour.png")
	run(t, ctx, "every order served", chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-054"][data-phase="Served"]`)),
		chromedp.EmulateViewport(1280, 720))
	screenshot(t, ctx, dir, "08-after-rush.png")
}

// setSpeed picks a kitchen speed in the page's select, as a user would
// (the change event is what the page listens to).
func setSpeed(minuteMs int) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.SetValue(chromedp.CSS(`#speed`), strconv.Itoa(minuteMs)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`document.querySelector("#speed").dispatchEvent(new Event("change"))`)(ctx, t)
			return err
		}))
}

// traced reports whether the page has received trace records from the
// component (the machinery may not trace every part).
func traced(t *testing.T, ctx context.Context, component string) bool {
	heard := get(t, ctx, "read data-traced", chromedp.AttributeValue(chromedp.CSS(`body`), "data-traced")).Value
	return slices.Contains(strings.Fields(heard), component)
}

// run runs the steps of one user action, failing the test on error.
func run(t *testing.T, ctx context.Context, step string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	defer func(start time.Time) { t.Logf("%s: %v", step, time.Since(start).Round(time.Millisecond)) }(time.Now())
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", step, err)
	}
}

// get runs an action that reads the page.
func get[T any](t *testing.T, ctx context.Context, step string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	return v
}
