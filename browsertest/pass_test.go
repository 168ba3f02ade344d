// Package browsertest opens the live view of package kitchen/liveview in
// a real headless Chromium and drives it as a learner would. It is a
// module of its own, so that the library's go.mod never requires
// chromedp.
package browsertest

import (
	"context"
	"fmt"
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
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"]`)),
		follow("order-001"),
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
	// The slowest dish, at a second a kitchen minute, cooks for 40 s: the
	// cancel below reaches it while it cooks however slow the machine is
	// (the place button's random dish may be a 5-minute salad).
	run(t, ctx, "slow the kitchen down and place an order",
		setSpeed(1000),
		placeDish("beef-wellington"),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-002"]`)),
		follow("order-002"),
		chromedp.WaitVisible(chromedp.CSS(`#history li.phase-Cooking`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.cook`)))
	screenshot(t, ctx, dir, "03-cooking.png")
	run(t, ctx, "cancel it",
		press(`button[data-action="cancel"]`),
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
	run(t, ctx, "speed up again", setSpeed(100), press(`#unfollow`))
}

func watchesCut(t *testing.T, ctx context.Context, dir string) {
	lists, watches := reflectorCounts(t, ctx)
	run(t, ctx, "cut the watches",
		press(`button[data-action="cut-watches"]`),
		chromedp.WaitVisible(chromedp.CSS(`#lane-desk .feed li.watch`)),
		untilReflector("watches", watches),
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-003"][data-phase="Served"]`)))
	screenshot(t, ctx, dir, "05-watches-cut.png")
	run(t, ctx, "compact history (410): the runner relists",
		press(`button[data-action="compact"]`),
		chromedp.WaitVisible(chromedp.CSS(`#lane-desk .feed li.relist`)),
		untilReflector("lists", lists),
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-004"][data-phase="Served"]`)))
	screenshot(t, ctx, dir, "06-relisted.png")
}

// reflectorScript reads what the runner's lane says of the orders
// reflector: how many lists or watches it made.
const reflectorScript = `(() => { const c = document.querySelector('#st-runner .chip[data-resource="orders"]');
	return c ? Number(c.dataset.%s) : 0; })()`

// reflectorCounts reads the orders reflector's lists and watches so far.
func reflectorCounts(t *testing.T, ctx context.Context) (lists, watches int) {
	lists = get(t, ctx, "count lists", chromedp.Evaluate[int](fmt.Sprintf(reflectorScript, "lists")))
	watches = get(t, ctx, "count watches", chromedp.Evaluate[int](fmt.Sprintf(reflectorScript, "watches")))
	return lists, watches
}

// untilReflector waits until the orders reflector has made more than n
// lists or watches (what is "lists" or "watches").
func untilReflector(what string, n int) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(reflectorScript, what)+" > "+strconv.Itoa(n))(ctx, t)
		return err
	})
}

func rushHourOnAPhone(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "rush hour",
		setSpeed(25),
		chromedp.EmulateViewport(390, 844),
		press(`button[data-action="rush"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-054"]`)))
	screenshot(t, ctx, dir, "07-phone-rush-hour.png")
	run(t, ctx, "every order served", chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-054"][data-phase="Served"]`)),
		chromedp.EmulateViewport(1280, 720))
	screenshot(t, ctx, dir, "08-after-rush.png")
}

// press clicks the visible element sel. The click is the DOM's, not the
// mouse's: rows move and the layout changes while frames arrive, and a
// mouse click computed a moment before could land on a neighbour.
func press(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.WaitVisible(chromedp.CSS(sel)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`(document.querySelector('`+sel+`').click(), true)`)(ctx, t)
			return err
		}))
}

// placeDish places an order for dish as the place button does (the
// page's act, POST /actions/place), with the dish the button leaves to
// chance.
func placeDish(dish string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](`act("place", { dish: "`+dish+`" }).then(() => true)`, chromedp.EvalAwaitPromise)(ctx, t)
		return err
	})
}

// follow clicks an order's row to follow it, and waits until the page
// follows it.
func follow(name string) chromedp.Action[chromedp.Void] {
	row := `.order[data-name="` + name + `"]`
	return chromedp.Steps(press(row), chromedp.WaitVisible(chromedp.CSS(row+`[aria-pressed="true"]`)))
}

// setSpeed picks a kitchen speed in the page's select: SetValue fires the
// change event a user's pick fires. Then the test fires it once more, as
// a user touching the control again a moment later would: it posts what
// the control shows, so a frame built before the pick reached the server
// must not have put the old speed back in the control.
func setSpeed(minuteMs int) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.SetValue(chromedp.CSS(`#speed`), strconv.Itoa(minuteMs)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`document.querySelector("#speed").dispatchEvent(new Event("change"))`)(ctx, t)
			if err != nil {
				return err
			}
			// Wait until a frame from the server shows the new speed.
			_, err = chromedp.Poll[bool](`lastFrame && lastFrame.minuteMs === `+strconv.Itoa(minuteMs))(ctx, t)
			return err
		}))
}

// run runs the steps of one user action, failing the test on error.
func run(t *testing.T, ctx context.Context, step string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	defer func(start time.Time) { t.Logf("%s: %v", step, time.Since(start).Round(time.Millisecond)) }(time.Now())
	sctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		orders, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#orders`)))
		runner, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#st-runner`)))
		desk, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#lane-desk`)))
		// Buttons left disabled mean an action's fetch never settled.
		stuck, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`[...document.querySelectorAll("button[data-action]")]
			.filter((b) => b.disabled).map((b) => b.dataset.action).join(",")`))
		toast, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#toast`)))
		// Frames that stopped, or a kitchen with nothing to do? The page's
		// last frame beside the server's state now tells.
		frames, _ := chromedp.Run(dctx, chromedp.Evaluate[string](framesScript, chromedp.EvalAwaitPromise))
		t.Fatalf("%s: %v\norders:\n%.300s\nrunner:\n%s\ndesk:\n%s\nbuttons still waiting for an answer: %q\nlast toast: %q\n%s",
			step, err, orders, runner, desk, stuck, toast, frames)
	}
}

// framesScript compares the page's last frame with the server's state
// now (GET /state): time, resourceVersion, speed and orders of each.
const framesScript = `(async () => {
	const say = (f) => f ? ` + "`at ${f.at} ms, rv ${f.rv}, 1 min = ${f.minuteMs} ms, ${f.orders.length} orders`" + ` : "none";
	let now;
	try { now = say(await (await fetch("/state")).json()); } catch (e) { now = String(e); }
	return "the page's last frame: " + say(lastFrame) + "\nthe server now:        " + now;
})()`

// stepTimeout bounds one user action: the kitchen is fast, so a step
// that takes longer is stuck.
const stepTimeout = 25 * time.Second

// get runs an action that reads the page.
func get[T any](t *testing.T, ctx context.Context, step string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	return v
}
