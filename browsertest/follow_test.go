package browsertest

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFollowingFetchesAnOrderOnlyWhenItChanges follows an order through
// a rush, when frames come full and some events are left out of them: the
// page fetches the order (GET /orders/NAME, its history and YAML) once
// when it starts following, then at most once for each new
// resourceVersion of it, never once a frame; and its history is whole.
func TestFollowingFetchesAnOrderOnlyWhenItChanges(t *testing.T) {
	ctx, _, _ := openPage(t, 120*time.Second)
	const name = "order-030"
	get(t, ctx, "keep every fetch's timing", chromedp.Evaluate[bool](`(performance.setResourceTimingBufferSize(100000), true)`))
	run(t, ctx, "rush hour", press(`button[data-action="rush"]`),
		chromedp.WaitVisible(chromedp.CSS(`.order[data-name="`+name+`"]`)))
	start := get(t, ctx, "note the time", chromedp.Evaluate[[]float64](`[performance.now(), lastFrame.at]`))
	run(t, ctx, "follow "+name+" until it is served", follow(name), served(name))
	raw := get(t, ctx, "count the fetches and the changes", chromedp.Evaluate[string](`JSON.stringify({
		fetches: performance.getEntriesByType("resource").filter((e) => e.startTime >= `+ftoa(start[0])+` && new URL(e.name).pathname === "/orders/`+name+`").length,
		rvs: [...new Set(snaps.filter((s) => s.at >= `+ftoa(start[1])+`).map((s) => (s.orders.find((o) => o.name === "`+name+`") || {}).rv).filter(Boolean))],
		frames: snaps.filter((s) => s.at >= `+ftoa(start[1])+`).length,
	})`))
	var got struct {
		Fetches int
		RVs     []string
		Frames  int
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	changes := len(got.RVs) - 1
	t.Logf("following %s for %d frames: %d fetches of it, %d changes of its resourceVersion (%v)", name, got.Frames, got.Fetches, changes, got.RVs)
	if changes < 2 {
		t.Fatalf("%s changed %d times while followed: the test saw too little", name, changes)
	}
	if got.Fetches > changes+1 {
		t.Errorf("%d fetches of %s while it changed %d times: want at most one a change, and the first", got.Fetches, name, changes)
	}
	// Full frames left events out; the history has them all the same.
	run(t, ctx, "wait until the page has fetched what it missed", poll(`!detailBusy`))
	checkHistory(t, ctx, name, "Ready → Served")
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }
