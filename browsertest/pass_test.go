// Package browsertest opens the live view of package kitchen/liveview in
// a real headless Chromium and drives it as a learner would. It is a
// module of its own, so that the library's go.mod never requires
// chromedp.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestThePass walks the page through an evening at 1280×800: an order
// followed to the table and its history checked, following stopped, an
// order cancelled while cooking, and the gate paused and stepped.
func TestThePass(t *testing.T) {
	ctx, dir, _ := openPage(t, 120*time.Second)
	screenshot(t, ctx, dir, "01-open-1280.png")

	t.Run("an order passes every stage to Served, its history whole and in order", func(t *testing.T) { orderServed(t, ctx, dir) })
	t.Run("stop following: the panel and the bar hide", func(t *testing.T) { unfollow(t, ctx) })
	t.Run("a cancelled order: finalizer, then the garbage collector", func(t *testing.T) { orderCancelled(t, ctx, dir) })
	t.Run("pause, and one step lets exactly one hand-off through", func(t *testing.T) { pauseAndStep(t, ctx, dir) })
	t.Run("scrub back through what was recorded, then back to live", func(t *testing.T) { replay(t, ctx, dir) })
}

func replay(t *testing.T, ctx context.Context, dir string) {
	first := get(t, ctx, "read the first frame kept", chromedp.Evaluate[string](`snaps[0].rv`))
	run(t, ctx, "scrub to the first frame kept",
		chromedp.SetValue(chromedp.CSS(`#scrub`), "0"),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`document.querySelector("#scrub").dispatchEvent(new Event("input"))`)(ctx, tg)
			return err
		}),
		chromedp.WaitVisible(chromedp.CSS(`body.replay #live`)))
	if got := get(t, ctx, "read the replayed rv", chromedp.Text(chromedp.CSS(`#scrub-at`))); !strings.HasSuffix(got, "rv "+first) {
		t.Errorf("replaying the first frame kept says %q, want its rv %s", got, first)
	}
	screenshot(t, ctx, dir, "06-replay-1280.png")
	run(t, ctx, "back to live", press(`#live`), poll(`!document.body.classList.contains("replay")`))
}

// openPage opens a kitchen and its page at 1280×800, watching the
// console, and returns the browser's context (for at most limit), where
// screenshots go and the page's address.
func openPage(t *testing.T, limit time.Duration) (context.Context, string, string) {
	t.Helper()
	url := openKitchen(t, 40*time.Millisecond)
	ctx := browser(t, 1280, 800, limit)
	watchConsole(t, ctx)
	run(t, ctx, "open the page",
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		chromedp.WaitVisible(chromedp.CSS(`#st-rail`)),
		chromedp.WaitVisible(chromedp.CSS(`#scene-list button`)))
	return ctx, shotDir(t), url
}

// stages are the stages a served order crosses, as the page names them.
var stages = []string{"waiter", "apiserver", "queue", "indexer", "handlers", "rail", "workers", "reconciler", "stations"}

func orderServed(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "place an order and follow it",
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"]`)),
		follow("order-001"),
		chromedp.WaitVisible(chromedp.CSS(`#detail`)),
		chromedp.WaitVisible(chromedp.CSS(`#follow-bar`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"][data-phase="Served"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.phase-Served`)))
	visited := get(t, ctx, "read its path", chromedp.AttributeValue(chromedp.CSS(`.order[data-name="order-001"]`), "data-stages")).Value
	for _, s := range stages {
		if !strings.Contains(" "+visited+" ", " "+s+" ") {
			t.Errorf("order-001 was served without passing the %s stage (stages: %q)", s, visited)
		}
	}
	// The YAML is fetched (GET /orders/NAME) after the frame that served
	// the order, one fetch at a time: it may come after the history shows.
	run(t, ctx, "its YAML fetched", poll(`document.querySelector("#yaml").textContent.includes("phase: Served")`))
	yaml := get(t, ctx, "read its YAML", chromedp.Text(chromedp.CSS(`#yaml`)))
	if !strings.Contains(yaml, "phase: Served") || !strings.Contains(yaml, "name: order-001") {
		t.Errorf("the YAML does not show the served order:\n%s", yaml)
	}
	checkHistory(t, ctx, "order-001", "Ready → Served")
	screenshot(t, ctx, dir, "02-served-1280.png")
}

// checkHistory compares the history the page shows with the server's
// (GET /orders/NAME): every event there, none twice, in cause-and-effect
// order (resourceVersions never go back), from the waiter's placing to an
// event that says last.
func checkHistory(t *testing.T, ctx context.Context, name, last string) {
	t.Helper()
	raw := get(t, ctx, "read the history", chromedp.Evaluate[string](`(async () => {
		const d = await (await fetch("/orders/`+name+`")).json();
		const shown = [...document.querySelectorAll("#history li[data-seq]")].map((li) => ({seq: Number(li.dataset.seq), cause: Number(li.dataset.cause), text: li.textContent}));
		return JSON.stringify({server: d.history.map((e) => e.seq), left: d.left, shown});
	})()`, chromedp.EvalAwaitPromise))
	var h struct {
		Server []int
		Left   int
		Shown  []struct {
			Seq, Cause int
			Text       string
		}
	}
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		t.Fatal(err)
	}
	if h.Left != 0 {
		t.Errorf("the server left %d events out of %s's history", h.Left, name)
	}
	shown := map[int]bool{}
	for i, e := range h.Shown {
		if shown[e.Seq] {
			t.Errorf("event %d shown twice: %s", e.Seq, e.Text)
		}
		shown[e.Seq] = true
		if i > 0 && e.Cause < h.Shown[i-1].Cause {
			t.Errorf("out of cause-and-effect order: %q (rv %d) after %q (rv %d)", e.Text, e.Cause, h.Shown[i-1].Text, h.Shown[i-1].Cause)
		}
	}
	for _, seq := range h.Server {
		if !shown[seq] {
			t.Errorf("event %d of the server's history is not shown", seq)
		}
	}
	if len(h.Shown) == 0 || !strings.HasPrefix(h.Shown[0].Text, "waiter") || !strings.Contains(allText(h.Shown), last) {
		t.Errorf("the history does not run from the waiter to %q: %+v", last, h.Shown)
	}
}

func allText(evs []struct {
	Seq, Cause int
	Text       string
}) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.Text + "\n")
	}
	return b.String()
}

func unfollow(t *testing.T, ctx context.Context) {
	run(t, ctx, "stop following",
		press(`#unfollow`),
		chromedp.WaitNotVisible(chromedp.CSS(`#detail`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#follow-bar`)))
	if n := get(t, ctx, "count pressed rows", chromedp.Evaluate[int](`document.querySelectorAll('.order[aria-pressed="true"]').length`)); n != 0 {
		t.Errorf("%d rows still pressed after stopping", n)
	}
	run(t, ctx, "follow again, and stop with Esc",
		follow("order-001"),
		chromedp.WaitVisible(chromedp.CSS(`#detail`)),
		chromedp.KeyEvent("\x1b"),
		chromedp.WaitNotVisible(chromedp.CSS(`#detail`)))
	if s := get(t, ctx, "read the old history", chromedp.Evaluate[int](`document.querySelectorAll("#history li").length`)); s != 0 {
		t.Errorf("%d history items left after stopping", s)
	}
}

func orderCancelled(t *testing.T, ctx context.Context, dir string) {
	// The slowest dish, at a second a kitchen minute, cooks for 40 s: the
	// cancel reaches it while it cooks however slow the machine is.
	run(t, ctx, "slow the kitchen down and place an order",
		setSpeed(1000),
		placeDish("beef-wellington"),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-002"]`)),
		follow("order-002"),
		chromedp.WaitVisible(chromedp.CSS(`#history li.phase-Cooking`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.cook`)))
	run(t, ctx, "cancel it",
		press(`button[data-action="cancel"]`),
		chromedp.WaitVisible(chromedp.CSS(`#history li.deleting`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.gc`)),
		chromedp.WaitVisible(chromedp.CSS(`#history li.deleted`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-002"][data-phase="Cancelled"]`)))
	// Where the original bug was seen: "deleted rv 876" before
	// "Cooking → Cancelled rv 875".
	checkHistory(t, ctx, "order-002", "order-002 is deleted")
	history := get(t, ctx, "read its history", chromedp.Text(chromedp.CSS(`#history`)))
	for _, want := range []string{"deletion started: held by finalizers menu.example.com/chef",
		"last finalizer removed: order-002 is deleted", "garbage collector deleted cook order-002-0-g1"} {
		if !strings.Contains(history, want) {
			t.Errorf("the history does not say %q:\n%s", want, history)
		}
	}
	screenshot(t, ctx, dir, "03-cancelled-1280.png")
	run(t, ctx, "speed up again", setSpeed(40), press(`#unfollow`))
}

// gateCount reads a count of the gate's ("passed" or "stepped").
func gateCount(t *testing.T, ctx context.Context, what string) int {
	t.Helper()
	s := get(t, ctx, "read the gate", chromedp.AttributeValue(chromedp.CSS(`#gate-status`), "data-"+what)).Value
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("gate %s = %q", what, s)
	}
	return n
}

func pauseAndStep(t *testing.T, ctx context.Context, dir string) {
	run(t, ctx, "pause, then place an order: its watch event waits at the gate",
		press(`#pause`),
		chromedp.WaitVisible(chromedp.CSS(`#gate-status.paused`)),
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`#held li[data-id]`)))
	screenshot(t, ctx, dir, "04-paused-1280.png")
	status := get(t, ctx, "read what was placed", chromedp.Text(chromedp.CSS(`#status`)))
	name, ok := strings.CutPrefix(status, "placed ")
	if !ok {
		t.Fatalf("the page says %q after placing an order", status)
	}
	passed, stepped := gateCount(t, ctx, "passed"), gateCount(t, ctx, "stepped")
	oldest := get(t, ctx, "read the oldest held", chromedp.AttributeValue(chromedp.CSS(`#held li[data-id]`), "data-id")).Value
	run(t, ctx, "step once",
		press(`#step`),
		poll(`Number(document.querySelector("#gate-status").dataset.stepped) > `+strconv.Itoa(stepped)))
	if got := gateCount(t, ctx, "passed") - passed; got != 1 {
		t.Errorf("one step let %d hand-offs through, want exactly 1", got)
	}
	if got := gateCount(t, ctx, "stepped") - stepped; got != 1 {
		t.Errorf("one step counted %d steps, want 1", got)
	}
	last := get(t, ctx, "read what was stepped", chromedp.Evaluate[string](`String(lastFrame.gate.last && lastFrame.gate.last.id)`))
	if last != oldest {
		t.Errorf("the step let #%s go, want the oldest held, #%s", last, oldest)
	}
	run(t, ctx, "the kitchen is still paused: the order's next hand-off waits",
		chromedp.WaitVisible(chromedp.CSS(`#gate-status.paused`)),
		chromedp.WaitVisible(chromedp.CSS(`#held li[data-id]`)))
	screenshot(t, ctx, dir, "05-stepped-1280.png")
	if got := gateCount(t, ctx, "passed") - passed; got != 1 {
		t.Errorf("while paused after one step, %d hand-offs went through, want 1", got)
	}
	run(t, ctx, "resume: "+name+" is served",
		press(`#resume`),
		poll(`!document.querySelector("#gate-status.paused")`),
		served(name))
}

// served waits until the page shows the order served.
func served(name string) chromedp.Action[chromedp.Void] {
	return poll(`document.querySelector('.order[data-name="` + name + `"]')?.dataset.phase === "Served"`)
}

// TestGuidedScenes runs every scene the page offers to its end: the
// question, a prediction, the key hand-off held, one step, the answer.
func TestGuidedScenes(t *testing.T) {
	ctx, dir, _ := openPage(t, 240*time.Second)
	ids := get(t, ctx, "list the scenes", chromedp.Evaluate[[]string](`sceneList.map((s) => s.id)`))
	want := []string{"watch-cut", "relist-410", "rush", "vip", "dedup", "conflict", "stale-chef", "finalizer", "lease"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("scenes %v, want %v", ids, want)
	}
	for i, id := range ids {
		t.Run(id, func(t *testing.T) {
			body := `#scene-body[data-scene="` + id + `"]`
			run(t, ctx, "ask the question, predict",
				press(`#scene-list button[data-scene="`+id+`"]`),
				chromedp.WaitVisible(chromedp.CSS(body+`[data-phase="question"] .q`)),
				press(body+` .choices button[data-choice="1"]`),
				chromedp.WaitVisible(chromedp.CSS(body+`[data-phase="held"] .key`)))
			key := get(t, ctx, "read the key hand-off", chromedp.Text(chromedp.CSS(body+` .key`)))
			if !strings.Contains(key, "Paused at the key hand-off") {
				t.Errorf("the key hand-off reads %q", key)
			}
			run(t, ctx, "the kitchen waits there", chromedp.WaitVisible(chromedp.CSS(`#gate-status.paused`)),
				chromedp.WaitVisible(chromedp.CSS(`#held li[data-id]`)))
			screenshot(t, ctx, dir, fmt.Sprintf("1%d-scene-%s-held.png", i, id))
			run(t, ctx, "step it, and the scene runs to its end",
				press(`#scene-next`),
				chromedp.WaitVisible(chromedp.CSS(body+`[data-phase="done"] .explain`)))
			verdict := get(t, ctx, "read the verdict", chromedp.Text(chromedp.CSS(body+` .verdict`)))
			if !strings.HasPrefix(verdict, "You predicted it.") {
				t.Errorf("the verdict for the right prediction reads %q", verdict)
			}
			screenshot(t, ctx, dir, fmt.Sprintf("1%d-scene-%s-done.png", i, id))
			run(t, ctx, "close it", press(`#scene-leave`),
				chromedp.WaitNotVisible(chromedp.CSS(`#scene-body`)),
				poll(`!document.querySelector("#gate-status.paused")`))
		})
	}
}

// TestThePassOnAPhone renders at 390×844: the pipeline stacked, a row
// tapped to follow an order, the sticky bar saying what is followed.
func TestThePassOnAPhone(t *testing.T) {
	url := openKitchen(t, 40*time.Millisecond)
	ctx := browser(t, 390, 844, 60*time.Second)
	watchConsole(t, ctx)
	dir := shotDir(t)
	run(t, ctx, "open the page on a phone",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		chromedp.WaitVisible(chromedp.CSS(`#st-rail`)),
		press(`button[data-action="place"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"]`)))
	screenshot(t, ctx, dir, "20-phone-390.png")
	if w := get(t, ctx, "measure the page", chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen: something is clipped or scrolls sideways", w)
	}
	small := get(t, ctx, "measure the buttons", chromedp.Evaluate[[]string](`[...document.querySelectorAll(".controls button, .gate button")]
		.filter((b) => b.getBoundingClientRect().height < 44).map((b) => b.textContent)`))
	if len(small) > 0 {
		t.Errorf("buttons under 44 px tall on a phone: %q", small)
	}
	if n := get(t, ctx, "look for shortcut labels", chromedp.Evaluate[int](`[...document.querySelectorAll("kbd")].filter((k) => k.offsetParent).length`)); n != 0 {
		t.Errorf("%d keyboard shortcut labels show on a touch screen", n)
	}
	run(t, ctx, "tap an order: the sticky bar says what is followed",
		follow("order-001"),
		chromedp.WaitVisible(chromedp.CSS(`#follow-bar`)),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-001"][data-phase="Served"]`)))
	top := get(t, ctx, "scroll down and find the bar", chromedp.Evaluate[float64](`(window.scrollTo(0, 1200), document.querySelector("#follow-bar").getBoundingClientRect().top)`))
	if top < 0 || top > 10 {
		t.Errorf("the follow bar is at %.0f px after scrolling, want stuck at the top", top)
	}
	screenshot(t, ctx, dir, "21-phone-following-390.png")
}

// TestRushHourRendersFast places 50 orders at once and measures how long
// the page takes to draw in each animation frame (script, style and
// layout), and what the page weighs. The page draws a frame from the
// server in two parts, each in an animation frame of its own, and counts
// each part: the figures are per animation frame, a server frame's work
// is the sum of two. It reports; it asserts the weight, not the time.
func TestRushHourRendersFast(t *testing.T) {
	ctx, dir, url := openPage(t, 120*time.Second)
	get(t, ctx, "start measuring", chromedp.Evaluate[bool](`(window.__measure = true, window.__renderMs = [], window.__longTasks = [], true)`))
	run(t, ctx, "rush hour",
		press(`button[data-action="rush"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="order-050"]`)))
	screenshot(t, ctx, dir, "30-rush-1280.png")
	run(t, ctx, "every order served",
		poll(`lastFrame && lastFrame.counters.served >= 50`))
	screenshot(t, ctx, dir, "31-after-rush-1280.png")
	raw := get(t, ctx, "read the times", chromedp.Evaluate[string](`JSON.stringify({ms: window.__renderMs, long: window.__longTasks})`))
	var m struct{ MS, Long []float64 }
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.MS) < 10 {
		t.Fatalf("only %d frames drawn during the rush", len(m.MS))
	}
	p := percentiles(m.MS)
	load, _ := os.ReadFile("/proc/loadavg") // the machine is shared: say how busy it was
	t.Logf("render per animation frame (script, style and layout) over %d animation frames of a 50-order rush: p50 %.2f ms, p95 %.2f ms, max %.2f ms; %d long tasks (max %.0f ms); load average %s",
		len(m.MS), p[50], p[95], p[100], len(m.Long), maxOf(m.Long), strings.TrimSpace(string(load)))
	weight := pageWeight(t, url)
	t.Logf("page weight, gzipped: %d bytes (%s)", weight.total, weight.files)
	if weight.total > 60<<10 {
		t.Errorf("the page weighs %d bytes gzipped, want at most 60 KB", weight.total)
	}
}

// poll waits until the expression is true.
func poll(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](expr)(ctx, t)
		return err
	})
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
// change event a user's pick fires; then the test waits until a frame
// from the server shows the new speed.
func setSpeed(minuteMs int) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`act("speed", { minute: "`+strconv.Itoa(minuteMs)+`" })`, chromedp.EvalAwaitPromise)(ctx, t)
			return err
		}),
		poll(`lastFrame && lastFrame.minuteMs === `+strconv.Itoa(minuteMs)))
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
		orders, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".order")].map((b) => b.dataset.name + " " + b.dataset.phase + " at " + b.dataset.at).join("\n")`))
		gate, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#gate-status`)))
		held, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#held`)))
		scene, _ := chromedp.Run(dctx, chromedp.Evaluate[string](`JSON.stringify(lastFrame && lastFrame.scene)`))
		status, _ := chromedp.Run(dctx, chromedp.Text(chromedp.CSS(`#status`)))
		frames, _ := chromedp.Run(dctx, chromedp.Evaluate[string](framesScript, chromedp.EvalAwaitPromise))
		t.Fatalf("%s: %v\norders:\n%.300s\ngate: %s\nheld:\n%s\nscene: %s\nlast status: %q\n%s",
			step, err, orders, gate, held, scene, status, frames)
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
const stepTimeout = 40 * time.Second

// get runs an action that reads the page.
func get[T any](t *testing.T, ctx context.Context, step string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	return v
}
